use mmd_formats::{BoneIndex, Mmd};

#[derive(Mmd)]
#[mmd(ctx = ())]
struct Link {
    bone: BoneIndex,
    weight: f32,
}

fn main() {}
