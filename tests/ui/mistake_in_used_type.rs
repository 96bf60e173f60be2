use mmd_formats::{Decode, Mmd, SliceInput};

// One mistake in `Shape`, one in `Tail`; `Record` uses both (tagged, counted, selected)
// and the program uses `Record`: only the two mistakes are reported.
#[derive(Mmd)]
#[mmd(tag = u8)]
enum Shape {
    #[mmd(tag = 0)]
    Point,
    #[mmd(tga = 1)]
    Circle(f32),
}

#[derive(Mmd)]
#[mmd(selected_by = bool)]
enum Tail {
    #[mmd(tag = false)]
    Short(u8),
    #[mmd(tag = true)]
    Long(u32, #[mmd(count = u8)] Vec<u8>, Option<u8>),
}

#[derive(Mmd)]
struct Record {
    flags: u8,
    shape: Shape,
    #[mmd(count = u8)]
    shapes: Vec<Shape>,
    #[mmd(select = *flags != 0)]
    tail: Tail,
}

fn main() {
    let _ = Record::decode(&mut SliceInput::new(&[]), &());
}
