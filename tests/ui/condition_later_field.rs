use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(if = *flags != 0)]
    weight: Option<f32>,
    flags: u8,
}

fn main() {}
