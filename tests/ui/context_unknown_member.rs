use mmd_formats::pmx::{Header, PmxContext};
use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(ctx = PmxContext)]
struct Body {
    #[mmd(if = ctx.is_v22)]
    extra: Option<u8>,
}

#[derive(Mmd)]
#[mmd(ctx = ())]
struct File {
    #[mmd(context = PmxContext(header))]
    header: Header,
    body: Body,
}

fn main() {}
