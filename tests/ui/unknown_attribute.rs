use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(bogus = 1)]
    frame: u32,
}

fn main() {}
