use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(count = i32)]
struct Record {
    frame: u32,
}

fn main() {}
