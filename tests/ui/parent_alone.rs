use mmd_formats::Mmd;

#[derive(Mmd)]
struct Section {
    n: u8,
    #[mmd(with_parent)]
    row: Row,
}

/// `parent` is a record, not a number; and a field may not take its name (one mistake
/// each).
#[derive(Mmd)]
#[mmd(parent = Section)]
struct Row {
    #[mmd(len = parent)]
    values: Vec<u16>,
    parent: u8,
}

fn main() {}
