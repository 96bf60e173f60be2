use mmd_formats::Mmd;

#[derive(Mmd)]
struct Motion {
    frame: u32,
    #[mmd(unless_eof, count = u32)]
    cameras: Option<Vec<u32>>,
    light: u32,
}

fn main() {}
