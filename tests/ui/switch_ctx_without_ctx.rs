use mmd_formats::pmx::Header;
use mmd_formats::Mmd;

#[derive(Mmd)]
struct File {
    #[mmd(switch_ctx = header.context())]
    header: Header,
    frame: u32,
}

fn main() {}
