use mmd_formats::Mmd;

#[derive(Mmd)]
struct Section {
    #[mmd(with_parent)]
    row: Row,
    item_count: u8,
}

/// Names a field its enclosing record reads after it.
#[derive(Mmd)]
#[mmd(parent = Section)]
struct Row {
    #[mmd(len = parent.item_count)]
    values: Vec<u16>,
}

fn main() {}
