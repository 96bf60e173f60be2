use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    frame: u32,
    weight: Option<f32>,
}

fn main() {}
