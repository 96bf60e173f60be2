use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    flag: u8,
    #[mmd(endian = if *flag != 0 { big } else { big })]
    value: u32,
}

fn main() {}
