//! `cargo run -p mmd-spec` writes the reference into `mmd-spec/reference/`;
//! `cargo run -p mmd-spec -- --check` reports drift and exits 1.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let check = std::env::args().skip(1).any(|a| a == "--check");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reference");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return ExitCode::from(2);
    }
    let mut drift = 0;
    for doc in mmd_spec::documents() {
        let path = dir.join(doc.file);
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
        } else if let Err(e) = std::fs::write(&path, &doc.text) {
            eprintln!("cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        } else {
            println!("wrote       {}", path.display());
        }
    }
    if drift > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
