use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(magic = b"REC1")]
    frame: u32,
}

fn main() {}
