use mmd_formats::Mmd;

#[derive(Mmd)]
struct Other {
    n: u8,
}

/// The root of a file format is read inside no other record.
#[derive(Mmd)]
#[mmd(parent = Other, file(id = "x", title = "X", application = "none"))]
struct Root {
    n: u8,
}

fn main() {}
