use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(endian = if order.starts_with(b"MM") { big } else { little })]
struct Header {
    version: u16,
    order: [u8; 2],
    offset: u32,
}

fn main() {}
