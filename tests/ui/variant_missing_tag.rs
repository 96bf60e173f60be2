use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(tag = u8)]
enum Shape {
    #[mmd(tag = 0)]
    Point,
    Circle(f32),
}

fn main() {}
