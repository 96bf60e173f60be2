use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(count)]
    values: Vec<u32>,
}

fn main() {}
