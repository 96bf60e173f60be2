//! The compact vertex store (`pmx::Vertices`) against a plain `Vec<Vertex>`: the same
//! vertices in the same order through every way in and out (read, push, collect, edit
//! through `get_mut`, `set`, `for_each_mut`, truncate), the same walk, the same debug
//! output, and the same bytes when written; edits that change a weight's type or the
//! number of additional UVs are kept exactly, however often they happen.

use mmd_formats::pmx::{Pmx, PmxContext, Vertex, Vertices, Weight};
use mmd_formats::walk::Value;
use mmd_formats::{BoneIndex, TextEncoding};

fn bone(i: i32) -> BoneIndex {
    BoneIndex::from_raw(i)
}

/// Vertex `i` with weight type `i % 5` and `uvs` additional UVs; every value distinct.
fn vertex(i: usize, uvs: usize) -> Vertex {
    let f = i as f32;
    let b = i as i32;
    let weight = match i % 5 {
        0 => Weight::Bdef1 { bone: bone(b) },
        1 => Weight::Bdef2 {
            bones: [bone(b), bone(b + 1)],
            weight: f / 7.0,
        },
        2 => Weight::Bdef4 {
            bones: [bone(b), bone(-1), bone(b + 2), bone(3)],
            weights: [0.1, 0.2, 0.3, f],
        },
        3 => Weight::Sdef {
            bones: [bone(b), bone(b + 3)],
            weight: 0.5,
            c: [f, 1.0, 2.0],
            r0: [3.0, f, 4.0],
            r1: [5.0, 6.0, f],
        },
        _ => Weight::Qdef {
            bones: [bone(1), bone(b), bone(2), bone(-1)],
            weights: [f, 0.0, 0.25, 0.75],
        },
    };
    Vertex {
        position: [f, -f, 0.5],
        normal: [0.0, 1.0, f],
        uv: [f / 100.0, 0.25],
        additional_uv: (0..uvs).map(|k| [f, k as f32, 0.0, 1.0]).collect(),
        weight,
        edge_scale: f * 2.0,
    }
}

fn list(n: usize, uvs: usize) -> Vec<Vertex> {
    (0..n).map(|i| vertex(i, uvs)).collect()
}

/// The store holds exactly `want`: element by element, by iteration both ways, walked,
/// debug-printed.
#[track_caller]
fn same(store: &Vertices, want: &[Vertex]) {
    assert_eq!(store.len(), want.len());
    assert_eq!(store.is_empty(), want.is_empty());
    for (i, v) in want.iter().enumerate() {
        assert_eq!(store.get(i).as_ref(), Some(v), "vertex {i}");
    }
    assert_eq!(store.get(want.len()), None);
    assert_eq!(store.iter().collect::<Vec<_>>(), want);
    assert_eq!(
        store.iter().rev().collect::<Vec<_>>(),
        want.iter().rev().cloned().collect::<Vec<_>>()
    );
    assert_eq!(store.iter().len(), want.len());
    assert!(*store == *want);
    assert_eq!(Value::of(store), Value::of(&want.to_vec()));
    assert_eq!(format!("{store:?}"), format!("{want:?}"));
}

#[test]
fn built_every_way_it_holds_the_same_vertices() {
    for uvs in [0, 1, 4] {
        let want = list(23, uvs);
        same(&Vertices::from(want.clone()), &want);
        same(&want.iter().cloned().collect(), &want);
        let mut pushed = Vertices::new();
        for v in &want {
            pushed.push(v.clone());
        }
        same(&pushed, &want);
        assert_eq!(Vec::from(pushed.clone()), want);
        assert_eq!(pushed.clone().into_iter().collect::<Vec<_>>(), want);
    }
    same(&Vertices::new(), &[]);
}

#[test]
fn edits_change_exactly_the_vertex_edited() {
    let mut want = list(40, 2);
    let mut store = Vertices::from(want.clone());
    // Every vertex through every weight type in turn (the weight tables fill with entries
    // no vertex uses, and are rebuilt), through `set`, `get_mut` and `for_each_mut`.
    for round in 0..7 {
        for (i, w) in want.iter_mut().enumerate() {
            let new = vertex(i + round + 1, 2);
            match (i + round) % 3 {
                0 => {
                    assert_eq!(store.set(i, new.clone()), Some(w.clone()));
                    *w = new;
                }
                1 => {
                    let mut g = store.get_mut(i).unwrap();
                    assert_eq!(*g, *w);
                    *g = new.clone();
                    *w = new;
                }
                _ => {
                    store.get_mut(i).unwrap().weight = new.weight.clone();
                    w.weight = new.weight;
                }
            }
        }
        same(&store, &want);
    }
    store.for_each_mut(|v| v.position[2] += 1.0);
    want.iter_mut().for_each(|v| v.position[2] += 1.0);
    same(&store, &want);
    assert_eq!(store.set(40, vertex(0, 2)), None);
    assert!(store.get_mut(40).is_none());
    same(&store, &want);
}

#[test]
fn truncate_pop_and_clear() {
    let mut want = list(30, 1);
    let mut store = Vertices::from(want.clone());
    assert_eq!(store.pop(), want.pop());
    store.truncate(17);
    want.truncate(17);
    same(&store, &want);
    store.truncate(99);
    same(&store, &want);
    store.push(vertex(5, 1));
    want.push(vertex(5, 1));
    same(&store, &want);
    store.clear();
    same(&store, &[]);
    assert_eq!(store.pop(), None);
}

#[test]
fn additional_uv_counts_that_differ_are_kept() {
    // Vertices with another number of additional UVs than the rest (an edit on the way
    // to a new count), then every vertex given the new count.
    let mut want = list(12, 1);
    let mut store = Vertices::from(want.clone());
    store.get_mut(3).unwrap().additional_uv.push([9.0; 4]);
    want[3].additional_uv.push([9.0; 4]);
    store.get_mut(5).unwrap().additional_uv.clear();
    want[5].additional_uv.clear();
    same(&store, &want);
    store.for_each_mut(|v| v.additional_uv = vec![[1.0, 2.0, 3.0, 4.0]; 3]);
    want.iter_mut()
        .for_each(|v| v.additional_uv = vec![[1.0, 2.0, 3.0, 4.0]; 3]);
    same(&store, &want);
    let mut mixed = Vertices::new();
    for (i, uvs) in [2, 0, 4, 2, 1].into_iter().enumerate() {
        mixed.push(vertex(i, uvs));
    }
    same(
        &mixed,
        &[2, 0, 4, 2, 1]
            .into_iter()
            .enumerate()
            .map(|(i, u)| vertex(i, u))
            .collect::<Vec<_>>(),
    );
}

/// A model holding `vertices`, with additional UVs as they have them (4-byte indices).
fn model(vertices: Vec<Vertex>, uvs: u8) -> Pmx {
    let ctx = PmxContext::new(2.0, TextEncoding::Utf8, uvs, [4; 6]);
    let mut p = Pmx::new("v", &ctx);
    p.vertices = vertices.into();
    p
}

#[test]
fn a_model_writes_its_vertices_as_read() {
    for uvs in [0u8, 3] {
        let p = model(list(57, uvs.into()), uvs);
        let bytes = p.to_bytes().unwrap();
        let back = Pmx::from_bytes(&bytes).unwrap();
        same(&back.vertices, &list(57, uvs.into()));
        // Rebuilt from the values it hands out, the store writes the same bytes.
        let mut again = back.clone();
        again.vertices = back.vertices.to_vec().into();
        assert_eq!(again.to_bytes().unwrap(), bytes);
    }
    // A vertex whose additional UVs disagree with the header is refused where it is.
    let mut p = model(list(9, 2), 2);
    p.vertices.get_mut(6).unwrap().additional_uv.pop();
    assert_eq!(
        p.to_bytes().unwrap_err().path_string(),
        "vertices[6].additional_uv"
    );
}

#[test]
fn every_real_model_rebuilds_to_its_bytes() {
    let files = mmd_tests::corpus_files("pmx", "pmx").unwrap_or_default();
    if mmd_tests::corpus_required() {
        assert!(!files.is_empty(), "no PMX fixtures");
    }
    for f in files {
        let bytes = std::fs::read(&f).unwrap();
        let mut p = Pmx::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let vertices = p.vertices.to_vec();
        p.vertices = Vertices::new();
        p.vertices.extend(vertices);
        mmd_tests::assert_bytes_eq(&p.to_bytes().unwrap(), &bytes, &f.display().to_string());
    }
}
