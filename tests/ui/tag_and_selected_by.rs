use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(tag = u8, selected_by = bool)]
enum Tail {
    #[mmd(tag = 0)]
    Offset([f32; 3]),
    #[mmd(tag = 1)]
    Bone(i32),
}

fn main() {}
