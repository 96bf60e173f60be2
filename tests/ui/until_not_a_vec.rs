use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    kind: u8,
    #[mmd(until = |k| *k == 0)]
    last: u8,
}

fn main() {}
