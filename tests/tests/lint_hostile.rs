//! The lint checks on hostile files (issue 24; "no input makes any public function panic"):
//! every built-in sample (whose indices run to the widths' limits: past every record) and
//! thousands of byte mutations of them that still read, each alone and bound to every
//! sample model, finish without panicking, with findings in proportion to the file.

use mmd_formats::inspect::Format;
use mmd_formats::lint::{self, Finding, Model};
use mmd_formats::pmd::Pmd;
use mmd_formats::pmx::Pmx;
use mmd_formats::vmd::Vmd;
use mmd_formats::vpd::Vpd;

enum Read {
    Pmx(Box<Pmx>),
    Pmd(Box<Pmd>),
    Vmd(Box<Vmd>),
    Vpd(Box<Vpd>),
}

fn read(bytes: &[u8]) -> Option<Read> {
    Some(match Format::detect(bytes)? {
        Format::Pmx => Read::Pmx(Box::new(Pmx::from_bytes(bytes).ok()?)),
        Format::Pmd => Read::Pmd(Box::new(Pmd::from_bytes(bytes).ok()?)),
        Format::Vmd => Read::Vmd(Box::new(Vmd::from_bytes(bytes).ok()?)),
        Format::Vpd => Read::Vpd(Box::new(Vpd::from_bytes(bytes).ok()?)),
        _ => return None,
    })
}

fn lint(file: &Read, model: Option<Model<'_>>) -> Vec<Finding> {
    match file {
        Read::Pmx(m) => lint::check_model(Model::Pmx(m)),
        Read::Pmd(m) => lint::check_model(Model::Pmd(m)),
        Read::Vmd(v) => lint::check_motion(v, model),
        Read::Vpd(v) => lint::check_pose(v, model),
    }
}

fn model(file: &Read) -> Option<Model<'_>> {
    match file {
        Read::Pmx(m) => Some(Model::Pmx(m)),
        Read::Pmd(m) => Some(Model::Pmd(m)),
        _ => None,
    }
}

#[test]
fn samples_and_their_mutations_lint_without_panicking() {
    let samples: Vec<Vec<u8>> = mmd_formats::samples::all()
        .into_iter()
        .map(|s| s.bytes)
        .collect();
    let read_all: Vec<Read> = samples.iter().filter_map(|b| read(b)).collect();
    assert_eq!(read_all.len(), samples.len(), "every sample reads");
    let all_models: Vec<Model<'_>> = read_all.iter().filter_map(model).collect();
    assert!(all_models.len() >= 4, "{} sample models", all_models.len());
    // Every sample alone is bound to every model; mutations to the first PMX and PMD.
    let first = |pmx: bool| {
        all_models
            .iter()
            .find(|m| matches!(m, Model::Pmx(_)) == pmx)
            .copied()
    };
    let few: Vec<Model<'_>> = [first(true), first(false)].into_iter().flatten().collect();
    let mut linted = 0usize;
    let dir = std::env::temp_dir().join(format!("mmd-lint-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut check = |bytes: &[u8], models: &[Model<'_>]| {
        let Some(file) = read(bytes) else { return };
        let found = lint(&file, None);
        // Findings are per record at most (and repeated bad indices are summed up).
        assert!(found.len() <= bytes.len(), "{} findings", found.len());
        for m in models {
            lint(&file, Some(*m));
        }
        if let Some(m) = model(&file) {
            lint::check_texture_files(m, &dir);
        }
        linted += 1;
    };
    for bytes in &samples {
        check(bytes, &all_models);
        let mut mutated = bytes.clone();
        // About 100 positions spread over each sample.
        for at in (0..bytes.len()).step_by(bytes.len().div_ceil(100).max(1)) {
            for value in [0x00, 0x7F, 0x80, 0xFF] {
                let was = mutated[at];
                mutated[at] = value;
                check(&mutated, &few);
                mutated[at] = was;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(linted > 1_000, "only {linted} files read and linted");
}
