use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    size: u8,
    #[mmd(rest, size = size)]
    trailing: Vec<u8>,
}

fn main() {}
