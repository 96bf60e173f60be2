use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(len = ctx.additional_uv)]
    uvs: Vec<[f32; 4]>,
}

fn main() {}
