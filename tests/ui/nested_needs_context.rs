use mmd_formats::pmx::Inherit;
use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    frame: u32,
    inherit: Inherit,
}

fn main() {}
