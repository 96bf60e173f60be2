use mmd_formats::Mmd;

#[derive(Mmd)]
enum Shape {
    #[mmd(tag = 0)]
    Point,
    #[mmd(tag = 1)]
    Circle(f32),
}

fn main() {}
