use mmd_formats::Mmd;

/// A type of the user's own that does not derive `Mmd`.
struct Plain;

#[derive(Mmd)]
struct Record {
    frame: u32,
    extra: Plain,
}

fn main() {}
