use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    kind: u8,
    #[mmd(until = kind == 0)]
    items: Vec<u8>,
}

fn main() {}
