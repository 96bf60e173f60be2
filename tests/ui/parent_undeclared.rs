use mmd_formats::Mmd;

/// Uses `parent` without naming an enclosing record.
#[derive(Mmd)]
struct Row {
    #[mmd(len = parent.item_count)]
    values: Vec<u16>,
}

fn main() {}
