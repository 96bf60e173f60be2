use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(tag = u8)]
enum Shape {
    #[mmd(tag = 0)]
    Point,
    #[mmd(tag = 1)]
    Circle(f32),
    #[mmd(tag = 1)]
    Square(f32),
}

fn main() {}
