//! `cargo run -p mmd-spec` writes the reference of every file format of `mmd-formats` into
//! `mmd-spec/reference/` and the Kaitai Struct grammars into `mmd-spec/kaitai/`;
//! `cargo run -p mmd-spec -- --check` reports drift and exits 1. Exit code 2: a document
//! cannot be rendered or written.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = std::env::args().skip(1).any(|a| a == "--check");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = match mmd_spec::documents() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut drift = 0;
    for doc in docs {
        let path = dir.join(&doc.file);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == doc.text {
            println!("up to date  {}", path.display());
            continue;
        }
        if check {
            println!(
                "DRIFT       {} (run `cargo run -p mmd-spec`)",
                path.display()
            );
            drift += 1;
            continue;
        }
        if let Some(parent) = path.parent() {
            if let Err(e) = std::fs::create_dir_all(parent) {
                eprintln!("cannot create {}: {e}", parent.display());
                return ExitCode::from(2);
            }
        }
        if let Err(e) = std::fs::write(&path, &doc.text) {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("wrote       {}", path.display());
    }
    if drift > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
