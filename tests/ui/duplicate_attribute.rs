use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(count = i32)]
    #[mmd(count = u8)]
    values: Vec<u32>,
}

fn main() {}
