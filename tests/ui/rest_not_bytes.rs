use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    frame: u32,
    #[mmd(rest)]
    trailing: Vec<u32>,
}

fn main() {}
