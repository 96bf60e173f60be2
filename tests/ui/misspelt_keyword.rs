use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(cuont = i32)]
    values: Vec<u32>,
}

fn main() {}
