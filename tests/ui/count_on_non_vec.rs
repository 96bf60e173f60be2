use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(count = i32)]
    value: u32,
}

fn main() {}
