use mmd_formats::Mmd;

#[derive(Mmd)]
struct Motion {
    frame: u32,
    #[mmd(unless_eof = true)]
    light: Option<u32>,
}

fn main() {}
