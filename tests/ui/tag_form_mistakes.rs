use mmd_formats::Mmd;

// A FourCC is four bytes: a `u16` tag cannot hold one.
#[derive(Mmd)]
#[mmd(tag = u16, tag_form = fourcc)]
enum Chunk {
    #[mmd(tag = 1)]
    A,
}

// `tag_form` takes `fourcc` only.
#[derive(Mmd)]
#[mmd(tag = u32, tag_form = hex)]
enum Other {
    #[mmd(tag = 1)]
    A,
}

// A byte-string tag needs `tag_form = fourcc`, and then exactly four bytes.
#[derive(Mmd)]
#[mmd(tag = u32)]
enum Plain {
    #[mmd(tag = b"fmt ")]
    A,
}

#[derive(Mmd)]
#[mmd(tag = u32, tag_form = fourcc)]
enum Short {
    #[mmd(tag = b"fmt")]
    A,
}

fn main() {}
