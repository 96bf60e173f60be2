use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(count = f32)]
    values: Vec<u32>,
}

fn main() {}
