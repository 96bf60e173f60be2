use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    code: u8,
    #[mmd(if = *code as char == 'A')]
    extra: Option<u8>,
}

fn main() {}
