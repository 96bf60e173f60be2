use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record<T> {
    value: T,
}

fn main() {}
