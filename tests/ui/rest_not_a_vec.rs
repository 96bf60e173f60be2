use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    frame: u32,
    #[mmd(rest)]
    trailing: u32,
}

fn main() {}
