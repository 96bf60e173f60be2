use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(rest)]
    trailing: Vec<u8>,
    frame: u32,
}

fn main() {}
