//! Byte-exact round trips of every VMD fixture and every built-in VMD sample, and the bad
//! fixtures: an error with an offset inside the file, read without allocating from the
//! bogus count.

use mmd_formats::inspect::{field_at, Format};
use mmd_formats::samples;
use mmd_formats::vmd::Vmd;
use mmd_formats::ErrorKind;
use mmd_tests::{assert_bytes_eq, corpus_dir, corpus_files};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the bytes each thread allocates, so a test can bound what a read allocates.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

fn count(n: usize) {
    let _ = ALLOCATED.try_with(|c| c.set(c.get().saturating_add(n as u64)));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// const-initialised thread-local `Cell`, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its value and the bytes this thread allocated meanwhile.
fn allocated_by<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATED.with(Cell::get);
    let value = f();
    let after = ALLOCATED.with(Cell::get);
    (value, after - before)
}

/// The number of MANIFEST.tsv rows whose file is in `sub/` and ends in `.ext`.
fn manifest_rows(sub: &str, ext: &str) -> Option<usize> {
    let manifest = corpus_dir()?.join("MANIFEST.tsv");
    let text = std::fs::read_to_string(&manifest)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", manifest.display()));
    let prefix = format!("{sub}/");
    let suffix = format!(".{ext}");
    Some(
        text.lines()
            .filter_map(|l| l.split('\t').next())
            .filter(|f| f.starts_with(&prefix) && f.ends_with(&suffix))
            .count(),
    )
}

#[test]
fn vmd_fixtures_round_trip_byte_exactly() {
    let Some(files) = corpus_files("vmd", "vmd") else {
        return;
    };
    let listed = manifest_rows("vmd", "vmd").expect("corpus present");
    assert_eq!(
        files.len(),
        listed,
        "fixtures/vmd vs MANIFEST.tsv vmd/ rows"
    );
    assert_eq!(files.len(), 26, "the corpus this suite was checked against");
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let vmd = Vmd::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let out = vmd
            .to_bytes()
            .unwrap_or_else(|e| panic!("{}: write: {e}", path.display()));
        assert_bytes_eq(&out, &bytes, &path.display().to_string());
        // The same through the path API (atomic write to a temporary directory).
        let tmp = std::env::temp_dir().join(format!(
            "mmd_vmd_rt_{}_{}",
            std::process::id(),
            path.file_name().unwrap().to_string_lossy()
        ));
        vmd.write_path(&tmp).unwrap();
        assert_eq!(Vmd::read_path(&tmp).unwrap(), vmd);
        assert_eq!(std::fs::read(&tmp).unwrap(), bytes);
        std::fs::remove_file(&tmp).unwrap();
    }
}

#[test]
fn bad_vmd_fixtures_are_errors_inside_the_file_without_big_allocations() {
    let Some(files) = corpus_files("bad", "vmd") else {
        return;
    };
    let listed = manifest_rows("bad", "vmd").expect("corpus present");
    assert_eq!(
        files.len(),
        listed,
        "fixtures/bad/*.vmd vs MANIFEST.tsv rows"
    );
    assert_eq!(files.len(), 1);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let (result, allocated) = allocated_by(|| Vmd::from_bytes(&bytes));
        let err = result.expect_err(&path.display().to_string());
        assert!(
            err.offset() < bytes.len() as u64,
            "{}: error offset {} outside the file of {} bytes ({err})",
            path.display(),
            err.offset(),
            bytes.len()
        );
        assert!(
            allocated < 64 * 1024,
            "{}: reading allocated {allocated} bytes",
            path.display()
        );
    }
}

#[test]
fn bad_miu_truncated_result_names_the_bone_count() {
    // Checked with xxd: offset 50 holds 8c 9a 00 00 = 39564 bone keys, 20 bytes follow.
    let Some(bytes) = mmd_tests::fixture("bad/bad_miu_truncated_result.vmd") else {
        return;
    };
    assert_eq!(bytes.len(), 74);
    let err = Vmd::from_bytes(&bytes).unwrap_err();
    assert_eq!(err.offset(), 50, "{err}");
    assert_eq!(err.path_string(), "bone_keys");
    match err.kind() {
        ErrorKind::CountTooLarge {
            count,
            min_record_size,
            remaining,
        } => assert_eq!((*count, *min_record_size, *remaining), (39564, 111, 20)),
        other => panic!("expected CountTooLarge, got {other:?}"),
    }
}

#[test]
fn bogus_counts_in_synthetic_files_allocate_nothing_big() {
    // Each block in turn announces u32::MAX records with nothing after the count.
    let base = Vmd::new_v2("x").unwrap().to_bytes().unwrap();
    for (block, name) in [
        "bone_keys",
        "morph_keys",
        "camera_keys",
        "light_keys",
        "self_shadow_keys",
        "show_ik_keys",
    ]
    .iter()
    .enumerate()
    {
        let at = 50 + 4 * block;
        let mut bytes = base[..at].to_vec();
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        let (result, allocated) = allocated_by(|| Vmd::from_bytes(&bytes));
        let err = result.unwrap_err();
        assert_eq!(err.offset(), at as u64, "{err}");
        assert_eq!(err.path_string(), *name);
        assert!(
            matches!(err.kind(), ErrorKind::CountTooLarge { .. }),
            "{err}"
        );
        assert!(allocated < 64 * 1024, "{name}: allocated {allocated} bytes");
    }
    // An IK / show record whose own IK count is bogus.
    let mut bytes = base[..70].to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes()); // one IK / show key
    bytes.extend_from_slice(&0u32.to_le_bytes()); // frame
    bytes.push(1); // show
    bytes.extend_from_slice(&u32::MAX.to_le_bytes()); // IK count
    bytes.extend_from_slice(&[0; 21]);
    let (result, allocated) = allocated_by(|| Vmd::from_bytes(&bytes));
    let err = result.unwrap_err();
    assert_eq!(err.offset(), 79, "{err}");
    assert_eq!(err.path_string(), "show_ik_keys[0].ik");
    assert!(allocated < 64 * 1024, "allocated {allocated} bytes");
}

fn vmd_samples() -> Vec<samples::Sample> {
    samples::all()
        .into_iter()
        .filter(|s| s.name.starts_with("vmd/"))
        .collect()
}

#[test]
fn vmd_samples_round_trip_byte_exactly() {
    let all = vmd_samples();
    assert_eq!(all.len(), 21, "every sample builds: {:?}", names(&all));
    for s in &all {
        assert!(s.name.ends_with(".vmd"), "{}", s.name);
        let vmd = Vmd::from_bytes(&s.bytes).unwrap_or_else(|e| panic!("{}: {e}", s.name));
        let out = vmd.to_bytes().unwrap();
        assert_bytes_eq(&out, &s.bytes, &s.name);
    }
}

fn names(all: &[samples::Sample]) -> Vec<&str> {
    all.iter().map(|s| s.name.as_str()).collect()
}

#[test]
fn vmd_samples_end_where_each_names_says() {
    // Lengths by hand: header 50; bone block 4 + 2 × 111; morph 4 + 23; camera 4 + 61;
    // light 4 + 28; self-shadow 4 + 9; IK / show 4 + 9 + 21.
    let blocks = [4 + 2 * 111, 4 + 23, 4 + 61, 4 + 28, 4 + 9, 4 + 9 + 21];
    let all = vmd_samples();
    let len = |name: &str| {
        all.iter()
            .find(|s| s.name == format!("vmd/{name}.vmd"))
            .unwrap_or_else(|| panic!("no sample {name}"))
            .bytes
            .len()
    };
    for (keep, name) in [
        (1, "ends_after_bone"),
        (2, "ends_after_morph"),
        (3, "ends_after_camera"),
        (4, "ends_after_light"),
        (5, "ends_after_self_shadow"),
        (6, "all_six_blocks"),
    ] {
        let want: usize = 50 + blocks[..keep].iter().sum::<usize>();
        assert_eq!(len(name), want, "{name}");
    }
    assert_eq!(len("all_blocks_empty"), 50 + 6 * 4);
    assert_eq!(len("trailing_bytes"), len("all_six_blocks") + 10);
    // v1: 30 + 10 header, one bone key, then morph, camera and light counts only.
    assert_eq!(len("v1_header"), 40 + 4 + 111 + 3 * 4);
}

#[test]
fn every_cut_of_every_sample_is_an_error_or_a_shorter_file() {
    // A prefix of a valid file either reads (it ends exactly at a block boundary) or
    // fails with an offset inside the prefix; it never panics.
    for s in vmd_samples() {
        for cut in 0..s.bytes.len() {
            let head = &s.bytes[..cut];
            match Vmd::from_bytes(head) {
                Ok(v) => assert_eq!(v.to_bytes().unwrap(), head, "{} cut at {cut}", s.name),
                Err(e) => assert!(e.offset() <= cut as u64, "{} cut at {cut}: {e}", s.name),
            }
        }
    }
}

#[test]
fn field_at_names_the_value_holding_a_byte() {
    let all = vmd_samples();
    let s = all
        .iter()
        .find(|s| s.name == "vmd/all_six_blocks.vmd")
        .expect("sample");
    let at = |offset: u64| field_at(Format::Vmd, &s.bytes, offset);
    // Fixed arrays name the element, selected enums the variant.
    // Offsets by hand: signature 0..30, model name 30..50, bone count 50, bone 0 at 54
    // (name 54..69, frame 69..73), bone 1 at 165, morph count at 276.
    assert_eq!(at(0).as_deref(), Some("header.signature[0]"));
    assert_eq!(at(35).as_deref(), Some("header.model_name.V2"));
    assert_eq!(at(50).as_deref(), Some("bone_keys"));
    assert_eq!(at(54).as_deref(), Some("bone_keys[0].name"));
    assert_eq!(at(70).as_deref(), Some("bone_keys[0].frame"));
    assert_eq!(
        at(165 + 47).as_deref(),
        Some("bone_keys[1].interpolation[0]")
    );
    // The start of an optional block: a file cut there would be complete, yet the byte
    // is the block's count.
    assert_eq!(at(276).as_deref(), Some("morph_keys"));
    assert_eq!(at(280 + 16).as_deref(), Some("morph_keys[0].frame"));
    // The last byte: the IK state's `enabled` flag.
    let last = s.bytes.len() as u64 - 1;
    assert_eq!(at(last).as_deref(), Some("show_ik_keys[0].ik[0].enabled"));
    assert_eq!(at(s.bytes.len() as u64), None, "past the end");
}
