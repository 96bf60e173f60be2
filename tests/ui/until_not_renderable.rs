use mmd_formats::Mmd;

#[derive(Mmd)]
struct Item {
    kind: u8,
}

#[derive(Mmd)]
struct Record {
    #[mmd(until = |i| i.kind.is_power_of_two())]
    items: Vec<Item>,
}

fn main() {}
