use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    frame: u32,
    name: String,
}

fn main() {}
