use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    flags: u8,
    #[mmd(rest, if = *flags != 0)]
    trailing: Vec<u8>,
}

fn main() {}
