use mmd_formats::Mmd;

#[derive(Mmd)]
struct Section {
    item_count: u8,
    #[mmd(with_parent)]
    row: Row,
}

/// Names a field its enclosing record does not have.
#[derive(Mmd)]
#[mmd(parent = Section)]
struct Row {
    #[mmd(len = parent.item_cuont)]
    values: Vec<u16>,
}

fn main() {}
