use mmd_formats::Mmd;

#[derive(Mmd)]
struct Section {
    item_count: u8,
    // `with_parent` is missing: `Row` is read without the section's fields.
    row: Row,
}

#[derive(Mmd)]
#[mmd(parent = Section)]
struct Row {
    #[mmd(len = parent.item_count)]
    values: Vec<u16>,
}

fn main() {}
