use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    n: u8,
    #[mmd(count = i32, len = *n)]
    values: Vec<u32>,
}

fn main() {}
