use mmd_formats::{BoneIndex, Mmd};

#[derive(Mmd)]
struct Link {
    bone: BoneIndex,
    weight: f32,
}

fn main() {}
