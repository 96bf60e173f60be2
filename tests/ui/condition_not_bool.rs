use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    flags: u8,
    #[mmd(if = *flags & 1)]
    weight: Option<f32>,
}

fn main() {}
