use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    frame: u32,
    values: Vec<u32>,
}

fn main() {}
