use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    flags: u8,
    #[mmd(if = *flags != 0)]
    weight: f32,
}

fn main() {}
