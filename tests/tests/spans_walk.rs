//! Spans, the walk and `explain`, over every built-in sample and every fixture.
//!
//! Spans are recorded while writing; the claim is that they are where the fields were
//! read from. Checked here without trusting the library's decoders: each leaf's bytes,
//! cut from the input, are decoded by hand (little-endian integers and floats, an `i32`
//! length before PMX text, an index of the span's width) and compared with the leaf the
//! walk gives for the same path. Leaves must tile every binary file, the walk's leaves
//! and the spans' leaves must be the same list of paths, and every byte (every byte of
//! small files; a stride and every leaf boundary of large ones) must be explained by a
//! leaf whose span holds it.

use mmd_formats::inspect::spans::explain_in;
use mmd_formats::inspect::Format;
use mmd_formats::walk::{Leaf, Path, Segment, TextKind, Value};
use mmd_formats::{IndexKind, TextEncoding};

/// Every input: the built-in samples, then the fixtures of every format when present.
fn inputs() -> Vec<(String, Vec<u8>)> {
    mmd_tests::all_inputs()
}

fn le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

fn le_signed(bytes: &[u8]) -> i64 {
    let bits = 8 * bytes.len() as u32;
    let v = le(bytes);
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

/// Does `bytes` (a binary file's leaf span) hold `leaf`? Decoded by hand.
fn holds(leaf: &Leaf, bytes: &[u8]) -> bool {
    let n = bytes.len();
    match leaf {
        Leaf::U8(v) => n == 1 && le(bytes) == u64::from(*v),
        Leaf::I8(v) => n == 1 && le_signed(bytes) == i64::from(*v),
        Leaf::U16(v) => n == 2 && le(bytes) == u64::from(*v),
        Leaf::I16(v) => n == 2 && le_signed(bytes) == i64::from(*v),
        Leaf::U32(v) => n == 4 && le(bytes) == u64::from(*v),
        Leaf::I32(v) => n == 4 && le_signed(bytes) == i64::from(*v),
        Leaf::U64(v) => n == 8 && le(bytes) == *v,
        Leaf::I64(v) => n == 8 && le_signed(bytes) == *v,
        Leaf::F32(x) => n == 4 && le(bytes) == u64::from(x.to_bits()),
        Leaf::F64(x) => n == 8 && le(bytes) == x.to_bits(),
        Leaf::Bool(_) => false,
        Leaf::Bytes(b) => b.as_slice() == bytes,
        Leaf::Magic(m) => *m == bytes,
        Leaf::Text(t) => match t.kind {
            TextKind::Pmx(_) => {
                n >= 4 && le_signed(&bytes[..4]) == (n - 4) as i64 && t.raw == bytes[4..]
            }
            TextKind::ShiftJisFixed(len) => n == len && t.raw == bytes,
            TextKind::ShiftJis => t.raw == bytes,
            // The raw bytes are the stored ones: a C string's with its NUL.
            TextKind::NulTerminated(_) => t.raw == bytes && t.raw.last() == Some(&0),
            TextKind::NulPadded(_) => t.raw == bytes,
        },
        Leaf::Index { kind, raw } => {
            matches!(n, 1 | 2 | 4)
                && if *kind == IndexKind::Vertex.name() {
                    le(bytes) as i64 == *raw
                } else {
                    le_signed(bytes) == *raw
                }
        }
        Leaf::Flags { bits, size, .. } => n == usize::from(*size) && le(bytes) == *bits,
        // A count's type is the span's width; counts are never negative.
        Leaf::Count(c) => matches!(n, 1 | 2 | 4 | 8) && le(bytes) == *c,
    }
}

/// Does `bytes` (a VPD leaf span: text) hold `leaf`?
fn holds_text(leaf: &Leaf, bytes: &[u8]) -> bool {
    let s = std::str::from_utf8(bytes).ok();
    match leaf {
        Leaf::F32(x) => {
            s.and_then(|s| s.parse::<f32>().ok()).map(f32::to_bits) == Some(x.to_bits())
        }
        Leaf::U32(v) => s.and_then(|s| s.parse::<u32>().ok()) == Some(*v),
        Leaf::Magic(m) => *m == bytes,
        Leaf::Text(t) => t.raw == bytes,
        _ => false,
    }
}

/// The leaf value at a span's path: a leaf of the tree, or the synthesized count / tag.
fn leaf_at(tree: &Value, path: &Path) -> Leaf {
    match tree.lookup(path.segments()).as_deref() {
        Some(Value::Leaf(l)) => l.clone(),
        other => panic!("{path}: expected a leaf in the walk, found {other:?}"),
    }
}

/// Offsets to explain in full: all of them for small files, else a stride (every
/// cell's first and last byte are checked separately, more cheaply).
fn offsets(len: u64) -> Vec<u64> {
    if len <= 1 << 16 {
        return (0..len).collect();
    }
    (0..len).step_by(251).collect()
}

#[test]
fn binary_spans_tile_and_hold_their_leaves() {
    let mut files = 0;
    let mut leaves_checked = 0usize;
    for (name, bytes) in inputs() {
        let format = Format::detect(&bytes).unwrap_or_else(|| panic!("{name}: no format"));
        if format == Format::Vpd {
            continue;
        }
        // Every sample and fixture (outside bad/) reads: one that does not is a failure.
        let (tree, spans) = format
            .tree_and_spans(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        files += 1;
        assert_eq!(spans.byte_len(), bytes.len() as u64, "{name}");
        // Cells (innermost spans, run by run) tile: contiguous, from 0 to the end.
        let mut at = 0u64;
        let mut cell_paths: Vec<Path> = Vec::new();
        for (s, start, end) in spans.cells() {
            let path = s.path();
            assert_eq!(start, at, "{name}: gap or overlap before {path}");
            at = end;
            let leaf = leaf_at(&tree, &path);
            // A whole leaf span, or the bytes of a counted byte sequence after its count.
            let whole = (start, end) == (s.start(), s.end());
            assert!(
                whole || matches!(leaf, Leaf::Bytes(_)),
                "{name}: {path} is split"
            );
            let cut = &bytes[start as usize..end as usize];
            assert!(
                holds(&leaf, cut),
                "{name}: {path} at {start:#x}..{end:#x} holds {cut:02x?}, the walk says {leaf:?}"
            );
            leaves_checked += 1;
            if !matches!(path.segments().last(), Some(Segment::Count | Segment::Tag)) {
                cell_paths.push(path);
            }
        }
        assert_eq!(at, bytes.len() as u64, "{name}: cells end early");
        // Every span names a value of the tree, and the innermost span at each cell's
        // first and last byte is the cell's.
        for (s, start, end) in spans.cells() {
            for off in [start, end - 1] {
                let d = spans.deepest(off).unwrap();
                assert_eq!(
                    (d.start(), d.end(), d.segment()),
                    (s.start(), s.end(), s.segment())
                );
            }
        }
        for s in spans.iter().filter(|s| !s.is_leaf()) {
            assert!(
                tree.lookup(s.path().segments()).is_some(),
                "{name}: {}",
                s.path()
            );
        }
        // The walk's leaves that take bytes are exactly the cells, in order.
        let tree_paths: Vec<Path> = tree
            .leaves()
            .into_iter()
            .filter(|(_, l)| !matches!(l, Leaf::Bytes(b) if b.is_empty()))
            .map(|(p, _)| p)
            .collect();
        if let Some(i) =
            (0..tree_paths.len().min(cell_paths.len())).find(|&i| tree_paths[i] != cell_paths[i])
        {
            panic!(
                "{name}: walk leaf {} vs span cell {}",
                tree_paths[i], cell_paths[i]
            );
        }
        assert_eq!(tree_paths.len(), cell_paths.len(), "{name}");
        // Explain: every (sampled) offset is in the leaf named.
        for off in offsets(bytes.len() as u64) {
            let e = explain_in(&spans, &tree, off).unwrap_or_else(|| panic!("{name}: {off:#x}"));
            assert!(
                e.start <= off && off < e.end,
                "{name}: {off:#x} not in {}",
                e.path
            );
            assert!(
                matches!(e.value, Some(Value::Leaf(_))),
                "{name}: {off:#x} {}",
                e.path
            );
        }
        // Looking a span up by its path finds it (a sample of them: a lookup walks
        // siblings).
        for s in spans.iter().step_by(1 + spans.len() / 200) {
            let found = spans.get(s.path().segments()).map(|f| (f.start(), f.end()));
            assert_eq!(found, Some((s.start(), s.end())), "{name}: {}", s.path());
        }
        // Past the end: nothing.
        assert!(explain_in(&spans, &tree, bytes.len() as u64).is_none());
    }
    assert!(files >= 10, "only {files} binary files checked");
    assert!(leaves_checked > 1000, "{leaves_checked}");
}

#[test]
fn explain_with_the_filtering_recorder_agrees() {
    let mut files = 0;
    for (name, bytes) in inputs() {
        let format = Format::detect(&bytes).unwrap_or_else(|| panic!("{name}: no format"));
        // Each call reads the file again: files up to 256 KiB.
        if bytes.len() > 1 << 18 {
            continue;
        }
        let (tree, spans) = format
            .tree_and_spans(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        files += 1;
        // A handful of offsets per file: the filtering recorder rebuilds everything.
        let len = bytes.len() as u64;
        for off in [0, 1, len / 3, len / 2, len.saturating_sub(1), len] {
            let whole = explain_in(&spans, &tree, off);
            let direct = format.explain(&bytes, off).unwrap();
            assert_eq!(whole, direct, "{name} at {off:#x}");
        }
    }
    // Every built-in sample is small enough.
    let samples = mmd_formats::samples::all().len();
    assert!(
        files >= samples,
        "only {files} files checked ({samples} samples)"
    );
}

#[test]
fn vpd_values_sit_in_their_spans() {
    let mut files = 0;
    let mut explained = 0;
    for (name, bytes) in inputs() {
        if Format::detect(&bytes) != Some(Format::Vpd) {
            continue;
        }
        let (tree, spans) = Format::Vpd.tree_and_spans(&bytes).unwrap();
        files += 1;
        let mut at = 0;
        let mut span_paths = Vec::new();
        for s in spans.leaves() {
            assert!(s.start() >= at, "{name}: overlap at {}", s.path());
            at = s.end();
            let leaf = leaf_at(&tree, &s.path());
            let cut = &bytes[s.start() as usize..s.end() as usize];
            assert!(
                holds_text(&leaf, cut),
                "{name}: {} {cut:?} vs {leaf:?}",
                s.path()
            );
            span_paths.push(s.path());
        }
        // Every value of the walk that has text has its span (an empty name has none).
        let tree_paths: Vec<Path> = tree
            .leaves()
            .into_iter()
            .filter(|(_, l)| !matches!(l, Leaf::Text(t) if t.raw.is_empty()))
            .map(|(p, _)| p)
            .collect();
        assert_eq!(tree_paths, span_paths, "{name}");
        // Layout text outside every value explains to nothing; the rest to its value.
        for off in 0..=bytes.len() as u64 {
            if let Some(e) = explain_in(&spans, &tree, off) {
                assert!(
                    e.start <= off && off < e.end,
                    "{name}: {off:#x} not in {}",
                    e.path
                );
                explained += 1;
            }
        }
    }
    // The six VPD samples at least (the fixtures too when the corpus is there).
    assert!(files >= 6, "only {files} VPD files");
    assert!(explained > 1000, "only {explained} offsets explained");
}

#[test]
fn a_pmx_utf16_name_is_explained_with_its_length_prefix() {
    // Built in code: the first sample, explained at the first byte of the model name.
    let bytes = mmd_formats::samples::pmx_samples().remove(0).1;
    let model = mmd_formats::pmx::Pmx::from_bytes(&bytes).unwrap();
    let spans = Format::Pmx.spans(&bytes).unwrap();
    let name = spans
        .get(&[Segment::Field("model"), Segment::Field("name")])
        .expect("model.name has a span");
    // The header is 4 (magic) + 4 (version) + 1 (count) + globals.
    let header_len = 9 + model.header.globals.len() as u64;
    assert_eq!(name.start(), header_len);
    assert_eq!(
        name.end() - name.start(),
        4 + model.model.name.as_bytes().len() as u64
    );
    let e = Format::Pmx
        .explain(&bytes, header_len + 1)
        .unwrap()
        .unwrap();
    assert_eq!(e.path.to_string(), "model.name");
    match e.value {
        Some(Value::Leaf(Leaf::Text(t))) => {
            assert_eq!(t.kind, TextKind::Pmx(model.context().unwrap().encoding));
            assert_eq!(t.raw, model.model.name.as_bytes());
        }
        other => panic!("{other:?}"),
    }
    let _ = TextEncoding::Utf8;
}

#[test]
fn counts_and_tags_are_leaves_of_their_own() {
    // A VMD built in code: header (50 bytes), then the bone count.
    let mut vmd = mmd_formats::vmd::Vmd::new_v2("m").unwrap();
    let name = mmd_formats::ShiftJis::new("a").unwrap();
    vmd.bone_keys.push(mmd_formats::vmd::BoneKey::new(
        name,
        7,
        [1.0, 2.0, 3.0],
        [0.0, 0.0, 0.0, 1.0],
    ));
    let bytes = vmd.to_bytes().unwrap();
    let e = Format::Vmd.explain(&bytes, 50).unwrap().unwrap();
    assert_eq!(e.path.to_string(), "bone_keys.count");
    assert_eq!((e.start, e.end), (50, 54));
    assert_eq!(e.value, Some(Value::Leaf(Leaf::Count(1))));
    // The key: name 15 bytes at 54, frame at 69, position at 73.
    let e = Format::Vmd.explain(&bytes, 73 + 4 + 2).unwrap().unwrap();
    assert_eq!(e.path.to_string(), "bone_keys[0].position[1]");
    assert_eq!((e.start, e.end), (77, 81));
    assert_eq!(e.value, Some(Value::Leaf(Leaf::F32(2.0))));
    // A PMX weight tag: in every sample, each vertex's weight starts with its tag.
    let mut tags = 0;
    for (name, bytes) in mmd_formats::samples::pmx_samples() {
        let spans = Format::Pmx
            .spans(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let tag = spans.get(&[
            Segment::Field("vertices"),
            Segment::Index(0),
            Segment::Field("weight"),
            Segment::Tag,
        ]);
        let has_vertices = !mmd_formats::pmx::Pmx::from_bytes(&bytes)
            .unwrap()
            .vertices
            .is_empty();
        assert_eq!(tag.is_some(), has_vertices, "{name}: a first vertex, a tag");
        let Some(tag) = tag else {
            continue;
        };
        tags += 1;
        assert_eq!(tag.end() - tag.start(), 1, "{name}");
        let e = Format::Pmx.explain(&bytes, tag.start()).unwrap().unwrap();
        assert_eq!(e.path.to_string(), "vertices[0].weight.tag");
        let tree = Format::Pmx.tree(&bytes).unwrap();
        let weight = tree
            .get(&[
                Segment::Field("vertices"),
                Segment::Index(0),
                Segment::Field("weight"),
            ])
            .unwrap();
        let Value::Variant { variant, .. } = weight else {
            panic!("{weight:?}")
        };
        assert_eq!(e.value, Some(Value::Leaf(variant.tag.clone())));
        assert_eq!(
            Some(bytes[tag.start() as usize] as i128),
            variant.tag.as_i128()
        );
    }
    // Every sample but the zero-count and text-only ones has vertices.
    assert!(tags >= 13, "only {tags} samples with a first vertex");
}
