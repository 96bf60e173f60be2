use mmd_formats::Mmd;

#[derive(Mmd)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
