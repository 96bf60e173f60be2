use mmd_formats::{Mmd, ShiftJis};

#[derive(Mmd)]
struct Record {
    #[mmd(endian = big)]
    name: ShiftJis<4>,
}

fn main() {}
