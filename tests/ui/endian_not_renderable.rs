use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    flags: u8,
    #[mmd(endian = if flags.is_power_of_two() { big } else { little })]
    value: u32,
}

fn main() {}
