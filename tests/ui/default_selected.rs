use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(selected_by = u8)]
enum Body {
    #[mmd(tag = 1)]
    Num(u16),
    #[mmd(default)]
    Other(u8),
}

fn main() {}
