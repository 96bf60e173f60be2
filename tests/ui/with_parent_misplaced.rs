use mmd_formats::Mmd;

#[derive(Mmd)]
struct Section {
    n: u8,
    /// Numbers hold no fields.
    #[mmd(with_parent)]
    count: u16,
    /// A counted list absent at the end of the file.
    #[mmd(count = u8, unless_eof, with_parent)]
    rows: Option<Vec<Row>>,
}

#[derive(Mmd)]
#[mmd(parent = Section)]
struct Row {
    values: u16,
}

/// A tuple struct has no field names for `parent.field`.
#[derive(Mmd)]
struct Pair(u8, #[mmd(with_parent)] Row);

fn main() {}
