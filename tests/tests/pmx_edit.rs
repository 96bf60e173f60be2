//! PMX edits and bone-tree views: topological bone order (a parent after its child, cycles,
//! bad parent indices), local positions, deform order, physics bones, recolouring (12 bytes,
//! alpha kept) and renames (lengths change, everything else stays, renaming back is the
//! identity). Synthetic models are built byte by byte from the seed layouts
//! (`mmd_tests::pmx_bytes`), so offsets are known by construction; every test over the
//! fixture corpus runs too when it is present.
//!
//! Seeds: 000 = `000_f2e3f77f1f809299.txt` (PMX structure and editing traps), 001/002 (bone
//! flag 0x1000, rigid-body physics modes), 003 = `003_d2f1a0b9a90d623c.txt` (deform layers).

use mmd_formats::pmx::edit::*;
use mmd_formats::pmx::skeleton::*;
use mmd_formats::pmx::*;
use mmd_formats::{BoneIndex, Encode, PmxText, TextEncoding};
use mmd_tests::pmx_bytes::*;
use mmd_tests::{assert_bytes_eq, corpus_files};

// ---------------------------------------------------------------------------------------
// Record writers for this suite (seed layouts).
// ---------------------------------------------------------------------------------------

/// A rigid body record (seed 000: names, bone, group 1, mask 2, shape 1, size 12, position
/// 12, rotation 12, five floats, mode 1) on `bone` with physics mode `mode`.
fn rigid_body(b: &mut B, name: &str, bone: i64, mode: u8) {
    b.text(name)
        .text("")
        .bi(bone)
        .u8(0)
        .u16(0)
        .u8(0)
        .f32s(&[1.0; 3])
        .f32s(&[0.0; 3])
        .f32s(&[0.0; 3])
        .f32s(&[1.0, 0.5, 0.5, 0.0, 0.5])
        .u8(mode);
}

/// A vertex morph record with no offsets (names, panel, type 1, count 0).
fn morph(b: &mut B, name: &str, name_en: &str) {
    b.text(name).text(name_en).u8(4).u8(1).i32(0);
}

/// Reads `bytes` and panics with the error when they do not read.
fn read(bytes: &[u8]) -> Pmx {
    Pmx::from_bytes(bytes).unwrap_or_else(|e| panic!("read failed: {e}"))
}

/// Asserts that `order` holds every bone once and each bone after its usable parent.
#[track_caller]
fn assert_parents_first(s: &Skeleton, what: &str) {
    let n = s.len();
    let mut at = vec![usize::MAX; n];
    for (k, &i) in s.order().iter().enumerate() {
        assert!(i < n, "{what}: order holds {i}, not a bone");
        assert_eq!(at[i], usize::MAX, "{what}: bone {i} twice in the order");
        at[i] = k;
    }
    assert_eq!(s.order().len(), n, "{what}: order misses bones");
    for i in 0..n {
        if let Some(p) = s.parent(i) {
            assert!(at[p] < at[i], "{what}: bone {i} before its parent {p}");
            assert_eq!(
                s.depth(i),
                Some(s.depth(p).unwrap() + 1),
                "{what}: depth of {i}"
            );
        } else {
            assert_eq!(s.depth(i), Some(0), "{what}: depth of root {i}");
        }
    }
}

fn parents(raw: &[i32]) -> Skeleton {
    Skeleton::from_parents(raw.iter().map(|&r| BoneIndex::from_raw(r)))
}

// ---------------------------------------------------------------------------------------
// Bone order and local positions.
// ---------------------------------------------------------------------------------------

/// Four bones: child (parent 2), root, mid (parent 1), tip (parent 0). Positions are
/// dyadic, so every difference and sum below is exact in f32.
fn parent_after_child_model() -> (F, Vec<[f32; 3]>) {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    let pos = vec![
        [2.0, 6.0, 2.5],
        [1.0, 2.0, 3.0],
        [1.5, 4.0, 3.0],
        [2.0, 7.0, 2.5],
    ];
    plain_bone(&mut b, "child", pos[0], 2);
    plain_bone(&mut b, "root", pos[1], -1);
    plain_bone(&mut b, "mid", pos[2], 1);
    plain_bone(&mut b, "tip", pos[3], 0);
    f.set(BONES, 4, &b);
    (f, pos)
}

// Seed 000 (「親は必ず自分より前にある」は成り立ちません ... トポロジカル順に並べ直してから処理してください).
#[test]
fn order_puts_a_parent_that_comes_after_its_child_first() {
    let (f, pos) = parent_after_child_model();
    let p = f.read();
    let s = p.skeleton();
    assert!(s.problems().is_empty(), "{:?}", s.problems());
    // By hand: bone 0 needs 2, which needs 1 (a root): 1, 2, 0; then 3 after 0.
    assert_eq!(s.order(), &[1, 2, 0, 3]);
    assert_eq!(
        (0..4).map(|i| s.depth(i).unwrap()).collect::<Vec<_>>(),
        vec![2, 0, 1, 3]
    );
    assert_eq!(s.roots().collect::<Vec<_>>(), vec![1]);
    assert_eq!(s.children(2).collect::<Vec<_>>(), vec![0]);
    assert_parents_first(&s, "synthetic");

    // Seed 000: local = own position - parent's position; the root keeps its own.
    let local = s.local_positions(&p.bones);
    assert_eq!(
        local,
        vec![
            [0.5, 2.0, -0.5], // child - mid
            [1.0, 2.0, 3.0],  // root
            [0.5, 2.0, 0.0],  // mid - root
            [0.0, 1.0, 0.0],  // tip - child
        ]
    );
    // Summing back in topological order gives the absolute positions exactly ...
    assert_eq!(s.absolute_positions(&local), pos);
    // ... and one pass in file order does not (bone 0 reads mid before mid is summed):
    // this model really exercises the trap.
    let mut naive = local.clone();
    for i in 0..4 {
        if let Some(q) = s.parent(i) {
            naive[i] = [0, 1, 2].map(|k| naive[q][k] + local[i][k]);
        }
    }
    assert_ne!(naive, pos);
}

#[test]
fn order_of_every_builtin_sample_puts_parents_first() {
    let mut saw_late_parent = false;
    for (name, bytes) in mmd_formats::samples::pmx_samples() {
        let p = read(&bytes);
        let s = p.skeleton();
        assert_parents_first(&s, &name);
        saw_late_parent |= p
            .bones
            .iter()
            .enumerate()
            .any(|(i, b)| b.parent.get().is_some_and(|q| q > i && q < p.bones.len()));
    }
    assert!(saw_late_parent, "no sample has a parent after its child");
}

#[test]
fn cycles_and_bad_parent_indices_are_reported_not_fatal() {
    // 0 <-> 1 is a cycle; 2 is its own parent; 3 points past the last bone; 4 holds -2;
    // 5's parent is 3.
    let s = parents(&[1, 0, 2, 9, -2, 3]);
    assert_eq!(
        s.problems(),
        &[
            SkeletonProblem::ParentOutOfRange { bone: 3, parent: 9 },
            SkeletonProblem::ParentOutOfRange {
                bone: 4,
                parent: -2
            },
            SkeletonProblem::Cycle { bones: vec![0, 1] },
            SkeletonProblem::Cycle { bones: vec![2] },
        ]
    );
    // The cycle's lowest bone loses its link; the others keep theirs.
    assert_eq!(s.parent(0), None);
    assert_eq!(s.parent(1), Some(0));
    assert_eq!(s.parent(2), None);
    assert_eq!(s.parent(3), None);
    assert_eq!(s.parent(5), Some(3));
    assert_eq!(s.order(), &[0, 1, 2, 3, 4, 5]);
    assert_parents_first(&s, "cycles");
    for p in s.problems() {
        assert!(p.to_string().contains("bones"), "{p}");
    }

    // A walk that enters a cycle from a tail: 0 -> 1 -> 2 -> 1. The cycle is {1, 2}, led
    // by its lowest bone; 0 is not part of it.
    let s = parents(&[1, 2, 1]);
    assert_eq!(
        s.problems(),
        &[SkeletonProblem::Cycle { bones: vec![1, 2] }]
    );
    assert_eq!(s.order(), &[1, 0, 2]);
    assert_parents_first(&s, "tail");

    // A cycle met first at its highest bone is still listed from its lowest, in link order:
    // 1 -> 3 -> 2 -> 1.
    let s = parents(&[-1, 3, 1, 2]);
    assert_eq!(
        s.problems(),
        &[SkeletonProblem::Cycle {
            bones: vec![1, 3, 2]
        }]
    );
    assert_parents_first(&s, "cycle of three");
}

#[test]
fn a_cycle_in_a_file_reads_and_orders() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    plain_bone(&mut b, "a", [0.0; 3], 1);
    plain_bone(&mut b, "b", [0.0; 3], 0);
    plain_bone(&mut b, "c", [1.0; 3], 100);
    f.set(BONES, 3, &b);
    let p = f.read();
    let s = p.skeleton();
    assert_eq!(s.problems().len(), 2);
    assert_parents_first(&s, "file");
    // A bone whose link is ignored keeps its absolute position as its local one.
    assert_eq!(s.local_positions(&p.bones)[2], [1.0; 3]);
    assert_eq!(s.local_positions(&p.bones)[0], [0.0; 3]);
}

#[test]
fn a_long_chain_in_reverse_order_needs_no_recursion() {
    // Bone i's parent is i + 1: the last bone is the root and the order runs backwards.
    let n = 200_000;
    let raw: Vec<i32> = (0..n)
        .map(|i| if i + 1 == n { -1 } else { i + 1 })
        .collect();
    let s = parents(&raw);
    assert!(s.problems().is_empty());
    let expected: Vec<usize> = (0..n as usize).rev().collect();
    assert_eq!(s.order(), expected.as_slice());
    assert_eq!(s.depth(0), Some(n as usize - 1));
    // The same chain closed into one cycle.
    let mut raw = raw;
    raw[n as usize - 1] = 0;
    let s = parents(&raw);
    assert_eq!(s.problems().len(), 1);
    assert_parents_first(&s, "closed chain");
}

#[test]
fn empty_and_out_of_range_queries_answer_none() {
    let s = parents(&[]);
    assert!(s.is_empty() && s.order().is_empty() && s.problems().is_empty());
    assert_eq!((s.parent(0), s.depth(0)), (None, None));
    assert!(s.local_positions(&[]).is_empty());
    // More local positions than bones: the extra ones are kept as they are.
    assert_eq!(s.absolute_positions(&[[1.0; 3]]), vec![[1.0; 3]]);
    // A user-built empty cycle still displays.
    assert!(!SkeletonProblem::Cycle { bones: vec![] }
        .to_string()
        .is_empty());
}

// Seed 003 (MMDは階層の小さい順、同じ階層ならボーンの番号順に、IKと付与を解きます); seeds 001/002
// (0x1000 物理後変形 / deform after physics).
#[test]
fn deform_order_is_by_physics_pass_then_layer_then_index() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    for i in 0..6 {
        plain_bone(&mut b, &format!("b{i}"), [0.0; 3], -1);
    }
    f.set(BONES, 6, &b);
    let mut p = f.read();
    // (layer, after physics) per bone.
    let spec = [
        (0, true),
        (1, false),
        (0, false),
        (-1, false),
        (1, true),
        (0, false),
    ];
    for (bone, (layer, after)) in p.bones.iter_mut().zip(spec) {
        bone.layer = layer;
        if after {
            bone.flags = bone.flags | BoneFlags::PHYSICS_AFTER_DEFORM;
        }
    }
    // By hand: the first pass (3 at -1; 2, 5 at 0; 1 at 1), then the after-physics pass
    // (0 at 0, 4 at 1).
    assert_eq!(deform_order(&p.bones), vec![3, 2, 5, 1, 0, 4]);
    // The flag adds no block: the edited model writes and reads back the same.
    let bytes = p.to_bytes().unwrap();
    assert_eq!(read(&bytes), p);
}

// ---------------------------------------------------------------------------------------
// Physics bones.
// ---------------------------------------------------------------------------------------

// Seed 000 (物理演算の種類 0 = ボーン追従、1 = 物理演算、2 = 物理+ボーン位置合わせ ... 0以外のボーンは
// ... 除外するのが正解), 002 (Physics Modes).
#[test]
fn physics_bones_are_those_of_bodies_in_mode_1_or_2() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    for i in 0..6 {
        plain_bone(&mut b, &format!("b{i}"), [0.0; 3], -1);
    }
    f.set(BONES, 6, &b);
    let mut r = f.b();
    rigid_body(&mut r, "follow", 0, 0);
    rigid_body(&mut r, "physics", 1, 1);
    rigid_body(&mut r, "physics+bone", 2, 2);
    rigid_body(&mut r, "follow too", 2, 0);
    rigid_body(&mut r, "follow first", 3, 0);
    rigid_body(&mut r, "then physics", 3, 1);
    rigid_body(&mut r, "no bone", -1, 1);
    rigid_body(&mut r, "bad bone", 9, 1);
    rigid_body(&mut r, "unknown mode", 4, 7);
    f.set(RIGIDS, 9, &r);
    let p = f.read();
    let ph = p.physics_bones();
    // By hand: bone 0 follows only; 1 and 2 by bodies 1 and 2; 3 by body 5 (after a mode-0
    // body); 4 by body 8 (mode 7 is not 0); 5 has no body.
    assert_eq!(ph.bones().collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    assert_eq!(ph.len(), 4);
    assert_eq!(
        (0..6).map(|i| ph.driven_by(i)).collect::<Vec<_>>(),
        vec![None, Some(1), Some(2), Some(5), Some(8), None]
    );
    assert!(!ph.contains(0) && ph.contains(3) && !ph.contains(99));
    assert_eq!(ph.unresolved(), &[(7, 9)]);
    // No rigid bodies: no physics bones.
    let (g, _) = parent_after_child_model();
    assert!(g.read().physics_bones().is_empty());
}

// ---------------------------------------------------------------------------------------
// Recolouring.
// ---------------------------------------------------------------------------------------

/// Two materials ("skin", "髪") with [`MaterialRecord::new`]'s colours; returns the file and
/// the offset of the second material's diffuse colour.
fn two_material_model(enc: u8) -> (F, usize) {
    let mut f = F::new(2.0, enc, 0, [1; 6]);
    let mut b = f.b();
    MaterialRecord::new("skin", T::S(0), 0).write(&mut b);
    let second = b.len();
    MaterialRecord::new("髪", T::S(1), 0).write(&mut b);
    f.set(MATERIALS, 2, &b);
    // The second record starts with its name and (empty) English name.
    let name_len = encode_text(enc, "髪").len();
    let diffuse = f.offset_of(MATERIALS) + 4 + second + 4 + name_len + 4;
    (f, diffuse)
}

/// The positions where `a` and `b` differ (same length).
fn diff_positions(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len(), "lengths differ");
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

// Seed 000 (色を差し替えるときは拡散色のRGB 12バイトだけを書き換え、4つ目の不透明度は触らないこと).
#[test]
fn recolouring_diffuse_changes_exactly_its_12_rgb_bytes() {
    for enc in [0, 1] {
        let (f, at) = two_material_model(enc);
        let before = f.bytes();
        let mut p = read(&before);
        let m = p.find_name(Item::Material, "髪").unwrap().unwrap();
        assert_eq!(m, 1);
        // The old values are 0.8, 0.6, 0.4 (0x3f4ccccd, 0x3f19999a, 0x3ecccccd); the new
        // 0.25, 0.125, 0.0625 (0x3e800000, 0x3e000000, 0x3d800000) differ in every byte.
        let r = p
            .recolor(m, ColorTarget::Diffuse, [0.25, 0.125, 0.0625])
            .unwrap();
        assert_eq!(r.old, [0.8, 0.6, 0.4]);
        assert_eq!(r.alpha, Some(0.5));
        assert!(r.changed());
        assert!(r.to_string().contains("alpha 0.5 kept"), "{r}");
        let after = p.to_bytes().unwrap();
        assert_eq!(
            diff_positions(&before, &after),
            (at..at + 12).collect::<Vec<_>>()
        );
        assert_eq!(&after[at..at + 4], &0.25f32.to_le_bytes());
        assert_eq!(&after[at + 12..at + 16], &0.5f32.to_le_bytes(), "alpha");

        // Specular follows the 16 diffuse bytes; ambient follows specular and its strength.
        for (target, off, old) in [
            (ColorTarget::Specular, 16, [0.1, 0.2, 0.3]),
            (ColorTarget::Ambient, 32, [0.3, 0.2, 0.1]),
        ] {
            let mut q = read(&before);
            let rgb = old.map(all_bytes_differ);
            let r = q.recolor(1, target, rgb).unwrap();
            assert_eq!((r.old, r.alpha), (old, None));
            let out = q.to_bytes().unwrap();
            assert_eq!(
                diff_positions(&before, &out),
                (at + off..at + off + 12).collect::<Vec<_>>(),
                "{target:?}"
            );
        }

        // Putting the old colour back gives the original bytes.
        p.recolor(m, ColorTarget::Diffuse, r.old).unwrap();
        assert_bytes_eq(&p.to_bytes().unwrap(), &before, "recolour back");
    }
}

#[test]
fn recolouring_to_the_same_colour_changes_nothing_and_bad_indices_fail() {
    let (f, _) = two_material_model(0);
    let before = f.bytes();
    let mut p = read(&before);
    let r = p.recolor(0, ColorTarget::Diffuse, [0.8, 0.6, 0.4]).unwrap();
    assert!(!r.changed());
    assert_eq!(p.to_bytes().unwrap(), before);
    let e = p.recolor(2, ColorTarget::Diffuse, [0.0; 3]).unwrap_err();
    assert!(matches!(
        e,
        EditError::OutOfRange {
            item: Item::Material,
            index: 2,
            count: 2
        }
    ));
    assert_eq!(
        p.to_bytes().unwrap(),
        before,
        "a failed edit changes nothing"
    );
}

// ---------------------------------------------------------------------------------------
// Lookups.
// ---------------------------------------------------------------------------------------

#[test]
fn find_name_takes_the_local_name_then_the_english_name() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    morph(&mut b, "あ", "a");
    morph(&mut b, "1", "one");
    morph(&mut b, "い", "あ");
    morph(&mut b, "dup", "");
    morph(&mut b, "dup", "");
    f.set(MORPHS, 5, &b);
    let p = f.read();
    assert_eq!(p.count(Item::Morph), 5);
    assert_eq!(p.count(Item::Bone), 0);
    let find = |name: &str| p.find_name(Item::Morph, name);
    assert_eq!(find("あ").unwrap(), Some(0), "local name first");
    assert_eq!(find("one").unwrap(), Some(1), "then English");
    assert_eq!(
        find("1").unwrap(),
        Some(1),
        "a name that is a number is a name"
    );
    // An index is not a name: reading one is the caller's choice (`mmd pmx` does).
    assert_eq!(find("2").unwrap(), None);
    assert_eq!(find("nope").unwrap(), None);
    match find("dup").unwrap_err() {
        EditError::Ambiguous { indices, lang, .. } => {
            assert_eq!((indices, lang), (vec![3, 4], Lang::Local))
        }
        e => panic!("{e}"),
    }
}

// ---------------------------------------------------------------------------------------
// Renames.
// ---------------------------------------------------------------------------------------

/// A model with every named kind: model info, two materials, three bones, two morphs.
fn named_model(enc: u8) -> F {
    let mut f = F::new(2.1, enc, 0, [2; 6]);
    f.set_info_texts(["モデル", "Model", "comment\r\n", "comment"]);
    let mut m = f.b();
    MaterialRecord::new("肌", T::S(0), 0).write(&mut m);
    MaterialRecord::new("髪", T::X(-1), 0).write(&mut m);
    f.set(MATERIALS, 2, &m);
    let mut b = f.b();
    plain_bone(&mut b, "センター", [0.0, 8.0, 0.0], -1);
    plain_bone(&mut b, "左腕", [1.0, 15.0, 0.0], 0);
    plain_bone(&mut b, "右腕", [-1.0, 15.0, 0.0], 0);
    f.set(BONES, 3, &b);
    let mut mo = f.b();
    morph(&mut mo, "まばたき", "blink");
    morph(&mut mo, "あ", "a");
    f.set(MORPHS, 2, &mo);
    let mut r = f.b();
    rigid_body(&mut r, "body", 1, 1);
    f.set(RIGIDS, 1, &r);
    f
}

/// Asserts `after` is `before` with one length-prefixed text replaced: a common prefix,
/// then a differing middle of at most the new text's prefix and bytes, then the rest of
/// `before` moved by the change in length.
#[track_caller]
fn assert_one_text_replaced(before: &[u8], after: &[u8], old_len: usize, new_len: usize) {
    assert_eq!(
        after.len() as i64 - before.len() as i64,
        new_len as i64 - old_len as i64,
        "length change"
    );
    let prefix = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let max_suffix = before.len().min(after.len()) - prefix;
    let suffix = before
        .iter()
        .rev()
        .zip(after.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    assert!(
        after.len() - prefix - suffix <= 4 + new_len,
        "more than one text changed: {} bytes differ",
        after.len() - prefix - suffix
    );
    assert!(before.len() - prefix - suffix <= 4 + old_len);
}

// Seed 000 (文字列を差し替えると長さが変わる ... 前後を切って繋ぎ直す必要があります).
#[test]
fn renaming_the_model_moves_the_rest_and_keeps_it() {
    for enc in [0, 1] {
        let f = named_model(enc);
        let before = f.bytes();
        let mut p = read(&before);
        let r = p
            .rename(NameTarget::Model, Lang::Local, "新しいモデル名")
            .unwrap();
        assert!(r.changed());
        let old = encode_text(enc, "モデル");
        let new = encode_text(enc, "新しいモデル名");
        assert_eq!(r.old.as_bytes(), old.as_slice());
        assert_eq!(r.length_change(), new.len() as i64 - old.len() as i64);
        let after = p.to_bytes().unwrap();
        // The name's length prefix is right after the header (seed 000: 17 bytes with 8
        // globals): before it nothing changes, then the new text, then the rest as it was.
        let at = f.header_len();
        assert_eq!(at, 17);
        assert_eq!(&after[..at], &before[..at]);
        assert_eq!(&after[at..at + 4], &(new.len() as i32).to_le_bytes());
        assert_eq!(&after[at + 4..at + 4 + new.len()], new.as_slice());
        assert_eq!(&after[at + 4 + new.len()..], &before[at + 4 + old.len()..]);
        // It reads back equal to the original except for the name.
        let mut expected = read(&before);
        expected.model.name = PmxText::new("新しいモデル名", p.context().unwrap().encoding);
        assert_eq!(read(&after), expected);
        // Renaming back, by string, gives the original bytes.
        p.rename(NameTarget::Model, Lang::Local, "モデル").unwrap();
        assert_bytes_eq(&p.to_bytes().unwrap(), &before, "rename back");
    }
}

#[test]
fn renaming_each_name_changes_only_that_text_and_renaming_back_restores_the_bytes() {
    for enc in [0, 1] {
        let f = named_model(enc);
        let before = f.bytes();
        let original = read(&before);
        let targets = [
            NameTarget::Model,
            NameTarget::Material(0),
            NameTarget::Material(1),
            NameTarget::Bone(0),
            NameTarget::Bone(1),
            NameTarget::Bone(2),
            NameTarget::Morph(0),
            NameTarget::Morph(1),
        ];
        for target in targets {
            for lang in [Lang::Local, Lang::English] {
                for new_name in ["", "x", "とても長い新しい名前です"] {
                    let mut p = original.clone();
                    let old = p.name_of(target, lang).unwrap().clone();
                    let old_str = old.to_str().unwrap().into_owned();
                    let r = p.rename(target, lang, new_name).unwrap();
                    assert_eq!(r.old, old);
                    let after = p.to_bytes().unwrap();
                    let new_len = encode_text(enc, new_name).len();
                    assert_one_text_replaced(&before, &after, old.as_bytes().len(), new_len);
                    assert_eq!(read(&after), p, "{target} {lang:?} re-reads as edited");
                    assert_eq!(p.name_of(target, lang).unwrap().to_str().unwrap(), new_name);
                    // Everything else reads back equal: put the old name in the re-read
                    // model and it is the original.
                    let mut back = read(&after);
                    back.rename(target, lang, &old_str).unwrap();
                    assert_eq!(back, original);
                    assert_bytes_eq(&back.to_bytes().unwrap(), &before, "rename back");
                }
            }
        }
    }
}

#[test]
fn set_name_restores_text_that_does_not_decode() {
    let mut f = F::v20([1; 6]);
    let mut b = f.b();
    bone_head(&mut b, "", [0.0; 3], -1, 0x001e);
    b.f32s(&[0.0, 1.0, 0.0]);
    // Replace the empty local name by raw bytes with an unpaired surrogate (0xd800).
    let mut raw = f.b();
    raw.raw_text(&[0x00, 0xd8]).text("");
    raw.raw(&b.buf[8..]);
    f.set(BONES, 1, &raw);
    let before = f.bytes();
    let mut p = read(&before);
    assert!(p.bones[0].name.to_str().is_none());
    let r = p.rename(NameTarget::Bone(0), Lang::Local, "ok").unwrap();
    assert_ne!(p.to_bytes().unwrap(), before);
    p.set_name(NameTarget::Bone(0), Lang::Local, r.old).unwrap();
    assert_bytes_eq(&p.to_bytes().unwrap(), &before, "raw name restored");
}

#[test]
fn rename_rejects_bad_targets_and_foreign_encodings_without_changing_anything() {
    let f = named_model(0);
    let before = f.bytes();
    let mut p = read(&before);
    assert!(matches!(
        p.rename(NameTarget::Bone(3), Lang::Local, "x").unwrap_err(),
        EditError::OutOfRange {
            item: Item::Bone,
            index: 3,
            count: 3
        }
    ));
    let utf8 = PmxText::new("x", TextEncoding::Utf8);
    let e = p
        .set_name(NameTarget::Morph(0), Lang::Local, utf8)
        .unwrap_err();
    assert!(matches!(
        e,
        EditError::EncodingMismatch {
            expected: TextEncoding::Utf16Le,
            found: TextEncoding::Utf8
        }
    ));
    assert_eq!(p.to_bytes().unwrap(), before);
}

#[test]
fn rename_warns_about_names_vmd_cannot_hold_and_duplicates() {
    let f = named_model(1);
    let mut p = f.read();
    // 8 kana: 16 bytes in Shift_JIS, one more than a VMD bone name holds.
    let r = p
        .rename(NameTarget::Bone(0), Lang::Local, "あいうえおかきく")
        .unwrap();
    assert_eq!(
        r.warnings,
        vec![RenameWarning::TooLongForVmd {
            bytes: 16,
            limit: 15
        }]
    );
    let r = p.rename(NameTarget::Morph(1), Lang::Local, "😀").unwrap();
    assert_eq!(r.warnings, vec![RenameWarning::NotShiftJis]);
    let r = p.rename(NameTarget::Bone(2), Lang::Local, "左腕").unwrap();
    assert_eq!(r.warnings, vec![RenameWarning::SameNameAs { index: 1 }]);
    // 10 kana fit the model name's 20 bytes.
    let r = p
        .rename(NameTarget::Model, Lang::Local, "あいうえおかきくけこ")
        .unwrap();
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    // English names are not VMD names.
    let r = p
        .rename(
            NameTarget::Bone(0),
            Lang::English,
            "a very long english name",
        )
        .unwrap();
    assert!(r.warnings.is_empty());
}

// ---------------------------------------------------------------------------------------
// The fixture corpus.
// ---------------------------------------------------------------------------------------

/// The encoded size of `v` with `ctx`.
fn size<T: Encode<PmxContext>>(v: &T, ctx: &PmxContext) -> usize {
    let mut out = Vec::new();
    v.encode(&mut out, ctx).unwrap();
    out.len()
}

/// The offset of material `m`'s diffuse colour, summed from the encoded sizes of what
/// comes before it (header, model info, vertices, faces, textures, earlier materials).
fn diffuse_offset(p: &Pmx, m: usize) -> usize {
    let ctx = p.context().unwrap();
    let mut at = 9 + p.header.globals.len() + size(&p.model, &ctx);
    at += 4 + p.vertices.iter().map(|v| size(&v, &ctx)).sum::<usize>();
    at += 4 + p.faces.len() * ctx.widths()[0] as usize;
    at += 4 + p.textures.iter().map(|t| size(t, &ctx)).sum::<usize>();
    at += 4 + p.materials[..m]
        .iter()
        .map(|x| size(x, &ctx))
        .sum::<usize>();
    let mat = &p.materials[m];
    at + size(&mat.name, &ctx) + size(&mat.name_en, &ctx)
}

/// A colour value whose four bytes all differ from those of `old`.
fn all_bytes_differ(old: f32) -> f32 {
    let o = old.to_le_bytes();
    [0.25f32, 0.125, 0.0625, 0.3, 0.7, 0.9, 0.55]
        .into_iter()
        .find(|c| c.to_le_bytes().iter().zip(&o).all(|(a, b)| a != b))
        .expect("a candidate differs in every byte")
}

#[test]
fn fixtures_bone_order_local_positions_and_physics_bones() {
    let Some(files) = corpus_files("pmx", "pmx") else {
        return;
    };
    let mut late_parent_files = Vec::new();
    let mut physics_bones = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let p = read(&std::fs::read(path).unwrap());
        let s = p.skeleton();
        assert_parents_first(&s, &name);
        if p.bones
            .iter()
            .enumerate()
            .any(|(i, b)| b.parent.get().is_some_and(|q| q > i && q < p.bones.len()))
        {
            late_parent_files.push(name.clone());
        }
        // Local positions sum back to the absolute ones (to float rounding).
        let local = s.local_positions(&p.bones);
        let abs = s.absolute_positions(&local);
        for (i, (a, b)) in abs.iter().zip(&p.bones).enumerate() {
            for (&x, &y) in a.iter().zip(&b.position) {
                let tol = 1e-4 * (1.0 + y.abs());
                assert!(
                    (x - y).abs() <= tol || (x.is_nan() && y.is_nan()),
                    "{name}: bones[{i}] {x} vs {y}"
                );
            }
        }
        // Physics bones are exactly the bones of bodies with mode != 0.
        let ph = p.physics_bones();
        for (i, _) in p.bones.iter().enumerate() {
            let by_hand = p
                .rigid_bodies
                .iter()
                .any(|rb| rb.mode != 0 && rb.bone.get() == Some(i));
            assert_eq!(ph.contains(i), by_hand, "{name}: bones[{i}]");
        }
        assert_eq!(deform_order(&p.bones).len(), p.bones.len());
        physics_bones += ph.len();
        eprintln!(
            "{name}: {} bones, {} physics, {} problems",
            p.bones.len(),
            ph.len(),
            s.problems().len()
        );
    }
    // Seed 000 (親の添字が自分より後ろのボーン): the corpus has two such files, and the
    // physics-bone check above ran on bones that have bodies, not only on empty sets.
    assert_eq!(
        late_parent_files,
        ["bmmd_bone_hierarchy_test2.pmx", "uml_hair_physics.pmx"],
        "fixtures with a parent after its child"
    );
    assert!(physics_bones > 0, "no fixture has a physics bone");
}

#[test]
fn fixtures_recolour_changes_only_rgb_bytes() {
    let Some(files) = corpus_files("pmx", "pmx") else {
        return;
    };
    let mut recoloured = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let before = std::fs::read(path).unwrap();
        let original = read(&before);
        let n = original.materials.len();
        // Up to eight materials spread over the list (first and last included).
        let picks: Vec<usize> = match n {
            0 => vec![],
            1..=8 => (0..n).collect(),
            _ => (0..8).map(|k| k * (n - 1) / 7).collect(),
        };
        for m in picks {
            let mut p = original.clone();
            let old = p.materials[m].diffuse;
            let rgb = [0, 1, 2].map(|k| all_bytes_differ(old[k]));
            let r = p.recolor(m, ColorTarget::Diffuse, rgb).unwrap();
            assert_eq!(r.alpha.map(f32::to_bits), Some(old[3].to_bits()));
            let after = p.to_bytes().unwrap();
            let at = diffuse_offset(&original, m);
            assert_eq!(
                diff_positions(&before, &after),
                (at..at + 12).collect::<Vec<_>>(),
                "{name}: materials[{m}]"
            );
            p.recolor(m, ColorTarget::Diffuse, r.old).unwrap();
            assert_bytes_eq(&p.to_bytes().unwrap(), &before, &name);
            recoloured += 1;
        }
    }
    assert!(recoloured > 0, "no material recoloured");
    eprintln!("{recoloured} materials recoloured");
}

#[test]
fn fixtures_renaming_every_name_and_back_is_the_identity() {
    let Some(files) = corpus_files("pmx", "pmx") else {
        return;
    };
    let mut renamed_names = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let before = std::fs::read(path).unwrap();
        let original = read(&before);
        let mut p = original.clone();
        let mut targets = vec![NameTarget::Model];
        targets.extend((0..p.materials.len()).map(NameTarget::Material));
        targets.extend((0..p.bones.len()).map(NameTarget::Bone));
        targets.extend((0..p.morphs.len()).map(NameTarget::Morph));
        let unit = match p.context().unwrap().encoding {
            TextEncoding::Utf16Le => 2,
            _ => 1,
        };
        // Every name gets an "x" appended (by string when it decodes), so the file grows
        // by one character per name.
        let mut undo = Vec::new();
        let mut grown = 0i64;
        for &t in &targets {
            for lang in [Lang::Local, Lang::English] {
                let old = p.name_of(t, lang).unwrap().clone();
                let Some(s) = old.to_str().map(|s| s.into_owned()) else {
                    continue;
                };
                let r = p.rename(t, lang, &format!("{s}x")).unwrap();
                assert_eq!(r.length_change(), unit);
                grown += unit;
                undo.push((t, lang, s));
            }
        }
        let renamed = p.to_bytes().unwrap();
        assert_eq!(renamed.len() as i64, before.len() as i64 + grown, "{name}");
        assert_eq!(read(&renamed), p, "{name}: the renamed model re-reads");
        // Everything but the names is unchanged.
        let mut q = read(&renamed);
        for (t, lang, s) in &undo {
            q.rename(*t, *lang, s).unwrap();
        }
        assert_eq!(q, original, "{name}");
        assert_bytes_eq(&q.to_bytes().unwrap(), &before, &name);
        // The model name (empty or not) always decodes, so every file renames something.
        assert!(!undo.is_empty(), "{name}: no name was renamed");
        renamed_names += undo.len();
    }
    assert!(
        renamed_names > files.len(),
        "only {renamed_names} names renamed"
    );
}

// Seed 000 (親の添字が自分より後ろのボーン): two fixtures have one; the order moves the parent
// before its child, and the child's local position is taken from that later parent.
#[test]
fn fixtures_with_a_parent_after_its_child_order_it_first() {
    for name in ["bmmd_bone_hierarchy_test2.pmx", "uml_hair_physics.pmx"] {
        let Some(bytes) = mmd_tests::fixture(&format!("pmx/{name}")) else {
            return;
        };
        let p = read(&bytes);
        let s = p.skeleton();
        let late: Vec<(usize, usize)> = p
            .bones
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.parent.get().filter(|&q| q > i).map(|q| (i, q)))
            .collect();
        assert!(!late.is_empty(), "{name}: no parent after its child");
        assert_parents_first(&s, name);
        let file_order: Vec<usize> = (0..p.bones.len()).collect();
        assert_ne!(s.order(), file_order.as_slice(), "{name}");
        let local = s.local_positions(&p.bones);
        for (child, parent) in late {
            let expected =
                [0, 1, 2].map(|k| p.bones[child].position[k] - p.bones[parent].position[k]);
            assert_eq!(local[child], expected, "{name}: bones[{child}]");
        }
    }
}
