use mmd_formats::pmx::Header;
use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(ctx = ())]
struct File {
    #[mmd(context = header.context())]
    header: Header,
}

fn main() {}
