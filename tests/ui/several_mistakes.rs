use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(cuont = i32)]
    values: Vec<u32>,
    weight: Option<f32>,
    #[mmd(count = u8)]
    frame: u32,
    #[mmd(if = *later != 0)]
    extra: Option<u8>,
    later: u8,
}

fn main() {}
