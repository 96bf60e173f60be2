//! Hostile input must not blow up memory: reading from a slice allocates at most
//! `32 * len + 64 KiB` at its peak, whatever the bytes say, and a count that cannot fit
//! fails at once with `CountTooLarge` before anything is allocated for it.
//!
//! The bound: a decoded record is at most a few times larger than its bytes (a PMX vertex
//! of 1-byte indices is 22 bytes in the file and about 100 in memory, a 4-byte text length
//! prefix becomes a 32-byte `PmxText`), and the largest ratio is a PMX IK link's: 2 bytes
//! in a file of 1-byte bone indices when it has no limits, 40 bytes in memory, so a file
//! made of IK links takes 20 bytes a byte (the coverage-guided fuzzer found such inputs
//! over the 16x this test used to allow; `ik_links` below is one, built by hand). 32x covers
//! that with room for `Vec` growth; 64 KiB covers fixed overhead (error values, small
//! tables). The fuzz targets (`tests/fuzz`) check the same bound on every input they make.
//!
//! Building a file from JSON (`mmd build`, `Format::build`) allocates at most
//! `64 * len + 64 KiB` for `len` bytes of JSON text. The parsed tree is most of it: a node
//! is 32 bytes and an array element can be 2 bytes of text (`0,`), 16 bytes a byte, which
//! a `Vec` grown by doubling can hold twice over; an array of one element has room for 4,
//! so `[[0],[0],..` takes 48 bytes a byte. The values built are smaller than their JSON,
//! whose every field is named, as long as room is made for the elements of an array as
//! they are built: reserved for the array's length up front, `"bones": [0, 0, ..]` took
//! 104 bytes a byte (a PMX bone is 208 bytes) before failing at `bones[0]` (found by the
//! fuzz target `build_json`; `json_arrays_of_zeros` below are such inputs).
//!
//! One `#[test]` does everything in sequence, so no other test thread allocates while a
//! peak is measured.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use mmd_formats::error::ErrorKind;
use mmd_formats::inspect::Format;
use mmd_formats::json::{self, JsonError};
use mmd_formats::{pmd::Pmd, pmx::Pmx, samples, vmd::Vmd, vpd::Vpd};

/// A global allocator that counts the bytes currently allocated and their peak.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn add(n: usize) {
    let now = CURRENT.fetch_add(n, SeqCst) + n;
    PEAK.fetch_max(now, SeqCst);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            add(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            add(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        CURRENT.fetch_sub(layout.size(), SeqCst);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                add(new_size - layout.size());
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, SeqCst);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Reads `bytes` as `format` and returns the peak bytes allocated above what was live
/// before, and whether the read failed with `CountTooLarge` (`None` when it succeeded).
fn measure(format: Format, bytes: &[u8]) -> (usize, Option<bool>) {
    let base = CURRENT.load(SeqCst);
    PEAK.store(base, SeqCst);
    let err = match format {
        Format::Pmx => Pmx::from_bytes(bytes).err(),
        Format::Pmd => Pmd::from_bytes(bytes).err(),
        Format::Vmd => Vmd::from_bytes(bytes).err(),
        _ => Vpd::from_bytes(bytes).err(),
    };
    // The value (or error) is dropped above; its size is in the peak.
    let peak = PEAK.load(SeqCst).saturating_sub(base);
    (
        peak,
        err.map(|e| matches!(e.kind(), ErrorKind::CountTooLarge { .. })),
    )
}

/// The allowed peak for an input of `len` bytes.
fn bound(len: usize) -> usize {
    32 * len + 64 * 1024
}

/// Builds `text` as `format` and returns the peak bytes allocated above what was live
/// before, and the result.
fn measure_build(format: Format, text: &str) -> (usize, Result<Vec<u8>, JsonError>) {
    let base = CURRENT.load(SeqCst);
    PEAK.store(base, SeqCst);
    let built = format.build(text);
    (PEAK.load(SeqCst).saturating_sub(base), built)
}

/// The allowed peak for building `len` bytes of JSON text.
fn json_bound(len: usize) -> usize {
    64 * len + 64 * 1024
}

/// The dump of each sample with no elements in some array, that array given 20,000
/// zeros instead, once for every empty array of the dump (`"bones":[]` becomes
/// `"bones":[0,0,..]`): each fails at the array's first element, with nothing built for
/// the rest. With the `bones` of `pmx/zero_counts_v20.pmx` it is the fuzz target's
/// regression input `regressions/build_json/pmx-bones-20000-zeros.json`.
fn json_arrays_of_zeros() -> Vec<(String, Format, String)> {
    let zeros = format!("[{}0]", "0,".repeat(19_999));
    let mut out = Vec::new();
    for s in samples::all() {
        let format = Format::detect(&s.bytes).unwrap();
        let dump = json::value_to_string(&format.json_tree(&s.bytes).unwrap());
        for (at, _) in dump.match_indices(":[]") {
            let member = &dump[dump[..at - 1].rfind('"').unwrap() + 1..at - 1];
            let text = format!("{}:{zeros}{}", &dump[..at], &dump[at + 3..]);
            out.push((format!("{} with {member} of zeros", s.name), format, text));
        }
    }
    out
}

/// A PMX 2.0 file (1-byte indices, UTF-16LE) of one bone whose IK block has `n` links of
/// 2 bytes each (link bone 0, limit flag 0), every other section empty. Layout: the 33-byte
/// prefix and 4 empty counts (vertices, faces, textures, materials), a bone count of 1;
/// the bone: two empty names (8), position (12), parent -1 (1), layer (4), flags 0x0021
/// (tail is a bone, IK) (2), tail bone -1 (1), IK target 0 (1), loop count (4), limit
/// angle (4), link count (4), links; then 4 empty counts (morphs, frames, rigid bodies,
/// joints).
fn ik_links(n: usize) -> Vec<u8> {
    let mut b = pmx_prefix();
    for _ in 0..4 {
        b.extend(0i32.to_le_bytes());
    }
    b.extend(1i32.to_le_bytes());
    b.extend([0u8; 8 + 12]);
    b.push(0xFF);
    b.extend(0i32.to_le_bytes());
    b.extend(0x0021u16.to_le_bytes());
    b.push(0xFF);
    b.push(0);
    b.extend(40i32.to_le_bytes());
    b.extend(0.5f32.to_le_bytes());
    b.extend(i32::try_from(n).unwrap().to_le_bytes());
    for _ in 0..n {
        b.extend([0, 0]);
    }
    for _ in 0..4 {
        b.extend(0i32.to_le_bytes());
    }
    b
}

/// A smaller set of mutants than `hostile_mutations`: cuts at 16 offsets, 0xFF/0x7F/0x00
/// at 16 offsets, and huge counts at 4-byte positions holding small values.
fn mutants(b: &[u8]) -> Vec<Vec<u8>> {
    let n = b.len();
    let step = (n / 16).max(1);
    let mut out: Vec<Vec<u8>> = (0..n).step_by(step).map(|p| b[..p].to_vec()).collect();
    for p in (step / 2..n).step_by(step) {
        for v in [0xff, 0x7f, 0x00] {
            let mut m = b.to_vec();
            m[p] = v;
            out.push(m);
        }
    }
    let small: Vec<usize> = (0..n.saturating_sub(3))
        .filter(|&p| {
            let v = u32::from_le_bytes([b[p], b[p + 1], b[p + 2], b[p + 3]]);
            (1..=4096).contains(&v)
        })
        .collect();
    for &p in small.iter().step_by((small.len() / 8).max(1)) {
        for v in [0xffff_ffffu32, 0x7fff_ffff] {
            let mut m = b.to_vec();
            m[p..p + 4].copy_from_slice(&v.to_le_bytes());
            out.push(m);
        }
    }
    out
}

/// A PMX 2.0 header (UTF-16LE, no additional UV, 1-byte indices) and four empty texts:
/// 4 + 4 + 1 + 8 + 4 * 4 = 33 bytes; the vertex count follows.
fn pmx_prefix() -> Vec<u8> {
    let mut b = b"PMX ".to_vec();
    b.extend(2.0f32.to_le_bytes());
    b.push(8);
    b.extend([0, 0, 1, 1, 1, 1, 1, 1]);
    b.extend([0u8; 16]);
    b
}

#[test]
fn peak_allocation_is_bounded() {
    let mut inputs: Vec<(String, Format, Vec<u8>)> = samples::all()
        .into_iter()
        .map(|s| (s.name, Format::detect(&s.bytes).unwrap(), s.bytes))
        .collect();
    let mut fixtures = 0;
    for sub in ["pmx", "pmd", "vmd", "vpd"] {
        if let Some(files) = mmd_tests::corpus_files(sub, sub) {
            for p in files {
                let b = std::fs::read(&p).unwrap();
                let f = Format::detect(&b).unwrap_or(Format::Vpd);
                inputs.push((p.display().to_string(), f, b));
                fixtures += 1;
            }
        }
    }
    if mmd_tests::corpus_dir().is_some() {
        assert!(fixtures >= 70, "only {fixtures} fixtures");
    }
    // 20000 links: 40 KB in the file, 800 KB of links in memory (over 16x, under 32x).
    let ik = ik_links(20_000);
    assert!(Pmx::from_bytes(&ik).is_ok(), "the IK-link file reads");
    inputs.push(("built: PMX of 20000 IK links".into(), Format::Pmx, ik));
    let mut worst = (0.0f64, String::new());
    let mut measured = 0;
    let mut over = Vec::new();
    for (name, format, bytes) in &inputs {
        // Large files: the file itself only (their mutants cost a whole parse each).
        let mut all = vec![bytes.clone()];
        if bytes.len() <= 64 * 1024 {
            all.extend(mutants(bytes));
        }
        for m in &all {
            let (peak, _) = measure(*format, m);
            measured += 1;
            let ratio = peak as f64 / m.len().max(1) as f64;
            if ratio > worst.0 && m.len() >= 1024 {
                worst = (ratio, format!("{name} ({} bytes, peak {peak})", m.len()));
            }
            if peak > bound(m.len()) {
                over.push(format!("{name}: {} bytes, peak {peak}", m.len()));
            }
        }
    }
    eprintln!(
        "hostile alloc: {measured} inputs; largest peak/len ratio (inputs >= 1 KiB) {:.2} for {}",
        worst.0, worst.1
    );
    assert!(measured > 2_000, "only {measured} inputs measured");
    assert!(
        over.is_empty(),
        "peak over 32 * len + 64 KiB:\n{}",
        over.join("\n")
    );

    // Counts that cannot fit: each fails at once, before allocating for them.
    let mut pmx = pmx_prefix();
    pmx.extend(0x7fff_ffffu32.to_le_bytes());
    pmx.extend([0u8; 100]);
    // 30-byte signature, 20-byte model name, then the bone key count.
    let mut vmd = b"Vocaloid Motion Data 0002\0\0\0\0\0".to_vec();
    vmd.extend([0u8; 20]);
    vmd.extend(u32::MAX.to_le_bytes());
    vmd.extend([0u8; 100]);
    // "Pmd", version 1.0, 20-byte name, 256-byte comment, then the vertex count.
    let mut pmd = b"Pmd".to_vec();
    pmd.extend(1.0f32.to_le_bytes());
    pmd.extend([0u8; 276]);
    pmd.extend(u32::MAX.to_le_bytes());
    pmd.extend([0u8; 100]);
    for (what, format, b) in [
        ("PMX vertex count 0x7fffffff", Format::Pmx, pmx),
        ("VMD bone count 0xffffffff", Format::Vmd, vmd),
        ("PMD vertex count 0xffffffff", Format::Pmd, pmd),
    ] {
        let (peak, too_large) = measure(format, &b);
        eprintln!("hostile alloc: {what}: peak {peak} bytes");
        assert_eq!(too_large, Some(true), "{what}: not CountTooLarge");
        assert!(peak < 64 * 1024, "{what}: peak {peak}");
    }

    // JSON: every sample's dump builds within the bound, and so do arrays of zeros.
    let mut over = Vec::new();
    let mut worst = (0.0f64, String::new());
    let mut zero_arrays = 0;
    for s in samples::all() {
        let format = Format::detect(&s.bytes).unwrap();
        let dump = json::value_to_string(&format.json_tree(&s.bytes).unwrap());
        let (peak, built) = measure_build(format, &dump);
        assert_eq!(built.as_deref().ok(), Some(&s.bytes[..]), "{}", s.name);
        if peak > json_bound(dump.len()) {
            over.push(format!(
                "{}: {} bytes of JSON, peak {peak}",
                s.name,
                dump.len()
            ));
        }
    }
    let mut failed_at_first = Vec::new();
    for (name, format, text) in json_arrays_of_zeros() {
        let (peak, built) = measure_build(format, &text);
        // Arrays of numbers build; arrays of records fail at their first zero.
        if let Err(e) = built {
            if e.path_string().ends_with("[0]") {
                failed_at_first.push(format!("{name}: {}", e.path_string()));
            }
        }
        zero_arrays += 1;
        let ratio = peak as f64 / text.len() as f64;
        if ratio > worst.0 {
            worst = (ratio, format!("{name} ({} bytes, peak {peak})", text.len()));
        }
        if peak > json_bound(text.len()) {
            over.push(format!("{name}: {} bytes of JSON, peak {peak}", text.len()));
        }
    }
    eprintln!(
        "hostile alloc: {zero_arrays} JSON arrays of zeros; largest peak/len ratio {:.2} for {}",
        worst.0, worst.1
    );
    assert!(zero_arrays >= 30, "only {zero_arrays} arrays of zeros");
    let bones = "pmx/zero_counts_v20.pmx with bones of zeros: $.bones[0]".to_string();
    assert!(
        failed_at_first.contains(&bones),
        "{bones} is not among the failures:\n{}",
        failed_at_first.join("\n")
    );
    assert!(
        over.is_empty(),
        "JSON build peak over 64 * len + 64 KiB:\n{}",
        over.join("\n")
    );
}
