use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(len = values.len())]
    values: Vec<u32>,
}

fn main() {}
