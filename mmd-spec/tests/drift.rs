//! The committed reference and Kaitai grammars must equal what the descriptors render now.
//! Refresh with `MMD_SPEC_BLESS=1 cargo test -p mmd-spec` (or `cargo run -p mmd-spec`).

use std::path::Path;

fn documents() -> Vec<mmd_spec::Document> {
    mmd_spec::documents().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn reference_documents_are_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bless = std::env::var_os("MMD_SPEC_BLESS").is_some();
    let docs = documents();
    assert!(!docs.is_empty(), "no documents rendered");
    for ext in ["md", "ksy", "schema.json"] {
        for id in ["pmx", "pmd", "vmd"] {
            assert!(
                docs.iter()
                    .any(|d| d.file.ends_with(&format!("/{id}.{ext}"))),
                "no {id}.{ext} rendered"
            );
        }
    }
    for file in ["reference/lint.md", "schema/lint.schema.json"] {
        assert!(docs.iter().any(|d| d.file == file), "no {file} rendered");
    }
    for doc in docs {
        let path = dir.join(&doc.file);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &doc.text).unwrap();
            continue;
        }
        let current = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{} is missing ({e}): run `cargo run -p mmd-spec`",
                path.display()
            )
        });
        assert!(
            current == doc.text,
            "{} is out of date: run `cargo run -p mmd-spec` (or MMD_SPEC_BLESS=1) and review the diff",
            path.display()
        );
    }
}

#[test]
fn no_empty_description_cell() {
    for doc in documents().into_iter().filter(|d| d.file.ends_with(".md")) {
        for (n, line) in doc.text.lines().enumerate() {
            if line.starts_with('|') && !line.starts_with("|---") {
                assert!(
                    !line.trim_end().ends_with("|  |") && !line.contains("| |"),
                    "{} line {}: empty cell: {line}",
                    doc.file,
                    n + 1
                );
            }
        }
    }
}
