//! The vertices of a model, held compactly.
//!
//! A [`Vertex`] as a value is large: its [`Weight`] is as big as the SDEF variant and its
//! additional UVs are a `Vec`. Most vertices are BDEF1 or BDEF2 and most models have no
//! additional UV, so [`Vertices`] keeps, per vertex, only the fixed part (position,
//! normal, UV, edge scale) and a small slot for the weight: a BDEF1 bone in the slot
//! itself, other weights in a table per weight type, additional UVs in one flat table.
//! Nothing is normalised: every value is kept as read, and the vertices write back
//! exactly.
//!
//! Each vertex is handed out as a [`Vertex`] value (built on demand); edits go through
//! [`Vertices::get_mut`], [`Vertices::set`], [`Vertices::for_each_mut`] and the `Vec`-like
//! methods.

mod codec;
mod views;

pub use views::{VertexIter, VertexMut};

use super::{Vertex, Weight};
use crate::index::BoneIndex;
use std::collections::BTreeMap;

/// The fixed part of a vertex, and where its weight is.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Base {
    position: [f32; 3],
    normal: [f32; 3],
    uv: [f32; 2],
    edge_scale: f32,
    weight: Slot,
}

/// A vertex's weight: a BDEF1 bone itself, or the position of the weight in its table.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Slot {
    Bdef1(BoneIndex),
    Bdef2(u32),
    Bdef4(u32),
    Sdef(u32),
    Qdef(u32),
}

/// BDEF2: the two bones and the first bone's weight.
type Two = ([BoneIndex; 2], f32);
/// BDEF4 and QDEF: four bones and four weights.
type Four = ([BoneIndex; 4], [f32; 4]);
/// SDEF: the two bones, the first bone's weight, then C, R0 and R1.
type Spherical = ([BoneIndex; 2], f32, [[f32; 3]; 3]);

/// The vertices of a PMX model (the `vertices` section), held compactly.
///
/// It reads, writes, walks and is described exactly as a `Vec<Vertex>` would be; what
/// differs is the memory: about 44 bytes a vertex plus its weight beyond BDEF1 (12 bytes
/// for BDEF2, 32 for BDEF4 and QDEF, 48 for SDEF) and 16 bytes per additional UV, against
/// 112 for a [`Vertex`] value, so that a parsed model holds little more than its file.
///
/// Vertices come out as [`Vertex`] values, built on demand:
///
/// ```
/// use mmd_formats::pmx::{Pmx, PmxContext, Vertex, Vertices, Weight};
/// use mmd_formats::BoneIndex;
///
/// let v = Vertex {
///     position: [0.0, 1.0, 0.0],
///     normal: [0.0, 0.0, -1.0],
///     uv: [0.5, 0.5],
///     additional_uv: vec![],
///     weight: Weight::Bdef1 { bone: BoneIndex::from_raw(0) },
///     edge_scale: 1.0,
/// };
/// let mut model = Pmx::new("model", &PmxContext::default());
/// model.vertices.push(v.clone());
/// assert_eq!(model.vertices.get(0), Some(v));
///
/// // An edit through `get_mut` is stored back when the guard goes away.
/// model.vertices.get_mut(0).unwrap().position[1] = 2.0;
/// model.vertices.for_each_mut(|v| v.position[0] = -v.position[0]);
/// assert_eq!(model.vertices.get(0).unwrap().position, [-0.0, 2.0, 0.0]);
/// for v in &model.vertices {
///     assert!(matches!(v.weight, Weight::Bdef1 { .. }));
/// }
/// ```
#[derive(Clone, Default)]
pub struct Vertices {
    /// One record per vertex, in order.
    base: Vec<Base>,
    /// BDEF2 weights.
    two: Vec<Two>,
    /// BDEF4 and QDEF weights.
    four: Vec<Four>,
    /// SDEF weights.
    spherical: Vec<Spherical>,
    /// The number of additional UVs of the vertices in `uvs` (the header's count, for a
    /// model that was read).
    stride: usize,
    /// `stride` additional UVs per vertex, in vertex order.
    uvs: Vec<[f32; 4]>,
    /// The additional UVs of vertices with another number of them than `stride` (after
    /// an edit); their place in `uvs` is unused.
    odd_uvs: BTreeMap<usize, Vec<[f32; 4]>>,
    /// Table entries no vertex refers to any more (left by edits that changed a weight's
    /// type); the tables are rebuilt when they outnumber the vertices.
    unused: usize,
}

/// A placeholder vertex (a guard's value after it has been stored back).
const EMPTY: Vertex = Vertex {
    position: [0.0; 3],
    normal: [0.0; 3],
    uv: [0.0; 2],
    additional_uv: Vec::new(),
    weight: Weight::Bdef1 {
        bone: BoneIndex::NONE,
    },
    edge_scale: 0.0,
};

/// A vertex taken apart: its fixed part (its weight slot still to be filled in), its
/// weight and its additional UVs.
#[inline(always)]
fn split(vertex: Vertex) -> (Base, Weight, Vec<[f32; 4]>) {
    let Vertex {
        position,
        normal,
        uv,
        additional_uv,
        weight,
        edge_scale,
    } = vertex;
    let base = Base {
        position,
        normal,
        uv,
        edge_scale,
        weight: Slot::Bdef1(BoneIndex::NONE),
    };
    (base, weight, additional_uv)
}

/// The position a new table entry will have.
fn next(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

impl Vertices {
    /// No vertices.
    pub fn new() -> Self {
        Self::default()
    }

    /// No vertices, with room for `n` before the vertex records grow.
    pub fn with_capacity(n: usize) -> Self {
        Vertices {
            base: Vec::with_capacity(n),
            ..Self::default()
        }
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    /// Vertex `i`, or `None` past the end.
    pub fn get(&self, i: usize) -> Option<Vertex> {
        let mut v = EMPTY;
        self.fill(i, &mut v).then_some(v)
    }

    /// Vertex `i`, to edit in place: the guard derefs to a [`Vertex`] and stores it back
    /// when it goes away. `None` past the end.
    pub fn get_mut(&mut self, i: usize) -> Option<VertexMut<'_>> {
        let vertex = self.get(i)?;
        Some(VertexMut {
            store: self,
            index: i,
            vertex,
        })
    }

    /// Replaces vertex `i` with `vertex`, returning the one it held; `None` (and no
    /// change) past the end.
    pub fn set(&mut self, i: usize, vertex: Vertex) -> Option<Vertex> {
        let old = self.get(i)?;
        self.put(i, vertex);
        Some(old)
    }

    /// Calls `f` on every vertex in order, storing each back after the call.
    pub fn for_each_mut(&mut self, mut f: impl FnMut(&mut Vertex)) {
        let mut v = EMPTY;
        for i in 0..self.len() {
            self.fill(i, &mut v);
            f(&mut v);
            self.put(i, std::mem::replace(&mut v, EMPTY));
        }
    }

    /// Every vertex, in order.
    pub fn iter(&self) -> VertexIter<'_> {
        VertexIter {
            store: self,
            front: 0,
            back: self.len(),
        }
    }

    /// Appends a vertex.
    pub fn push(&mut self, vertex: Vertex) {
        self.append(vertex);
    }

    /// [`Vertices::push`], inlined where vertices are read.
    #[inline(always)]
    fn append(&mut self, vertex: Vertex) {
        let i = self.base.len();
        if i == 0 && self.odd_uvs.is_empty() {
            self.stride = vertex.additional_uv.len();
        }
        let (mut base, weight, additional_uv) = split(vertex);
        base.weight = self.new_slot(weight);
        self.base.push(base);
        if additional_uv.len() == self.stride {
            self.uvs.extend_from_slice(&additional_uv);
        } else {
            self.uvs.resize(self.uvs.len() + self.stride, [0.0; 4]);
            self.odd_uvs.insert(i, additional_uv);
        }
    }

    /// Removes the last vertex and returns it (`None` when there are none).
    pub fn pop(&mut self) -> Option<Vertex> {
        let last = self.len().checked_sub(1)?;
        let v = self.get(last);
        self.truncate(last);
        v
    }

    /// Keeps the first `len` vertices (no change when there are no more than that).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        for b in &self.base[len..] {
            match b.weight {
                Slot::Bdef1(_) => {}
                _ => self.unused += 1,
            }
        }
        self.base.truncate(len);
        self.uvs.truncate(len * self.stride);
        self.odd_uvs.split_off(&len);
        self.tidy();
    }

    /// Removes every vertex.
    pub fn clear(&mut self) {
        *self = Vertices {
            stride: self.stride,
            ..Self::default()
        };
    }

    /// The vertices as `Vertex` values.
    pub fn to_vec(&self) -> Vec<Vertex> {
        self.iter().collect()
    }

    /// Writes vertex `i` into `v` (reusing its additional-UV vector); false past the end.
    #[inline(always)]
    fn fill(&self, i: usize, v: &mut Vertex) -> bool {
        let Some(b) = self.base.get(i) else {
            return false;
        };
        v.position = b.position;
        v.normal = b.normal;
        v.uv = b.uv;
        v.edge_scale = b.edge_scale;
        v.weight = self.weight(b.weight);
        v.additional_uv.clear();
        let odd = match self.odd_uvs.is_empty() {
            true => None,
            false => self.odd_uvs.get(&i),
        };
        match odd {
            Some(uvs) => v.additional_uv.extend_from_slice(uvs),
            None if self.stride == 0 => {}
            None => v
                .additional_uv
                .extend_from_slice(&self.uvs[i * self.stride..(i + 1) * self.stride]),
        }
        true
    }

    /// The weight a slot holds (slots always point inside their table).
    #[inline(always)]
    fn weight(&self, slot: Slot) -> Weight {
        let at = |j: u32| j as usize;
        match slot {
            Slot::Bdef1(bone) => Weight::Bdef1 { bone },
            Slot::Bdef2(j) => {
                let (bones, weight) = self.two[at(j)];
                Weight::Bdef2 { bones, weight }
            }
            Slot::Bdef4(j) => {
                let (bones, weights) = self.four[at(j)];
                Weight::Bdef4 { bones, weights }
            }
            Slot::Qdef(j) => {
                let (bones, weights) = self.four[at(j)];
                Weight::Qdef { bones, weights }
            }
            Slot::Sdef(j) => {
                let (bones, weight, [c, r0, r1]) = self.spherical[at(j)];
                Weight::Sdef {
                    bones,
                    weight,
                    c,
                    r0,
                    r1,
                }
            }
        }
    }

    /// A slot for a new weight, appended to its table.
    #[inline(always)]
    fn new_slot(&mut self, weight: Weight) -> Slot {
        match weight {
            Weight::Bdef1 { bone } => Slot::Bdef1(bone),
            Weight::Bdef2 { bones, weight } => {
                self.two.push((bones, weight));
                Slot::Bdef2(next(self.two.len() - 1))
            }
            Weight::Bdef4 { bones, weights } => {
                self.four.push((bones, weights));
                Slot::Bdef4(next(self.four.len() - 1))
            }
            Weight::Qdef { bones, weights } => {
                self.four.push((bones, weights));
                Slot::Qdef(next(self.four.len() - 1))
            }
            Weight::Sdef {
                bones,
                weight,
                c,
                r0,
                r1,
            } => {
                self.spherical.push((bones, weight, [c, r0, r1]));
                Slot::Sdef(next(self.spherical.len() - 1))
            }
        }
    }

    /// Stores `vertex` as vertex `i` (which exists).
    fn put(&mut self, i: usize, vertex: Vertex) {
        let (mut base, weight, additional_uv) = split(vertex);
        let old = self.base[i].weight;
        // The same table keeps the weight in its old place; another type takes a new one.
        let slot = match (old, weight) {
            (Slot::Bdef2(j), Weight::Bdef2 { bones, weight }) => {
                self.two[j as usize] = (bones, weight);
                old
            }
            (Slot::Bdef4(j) | Slot::Qdef(j), Weight::Bdef4 { bones, weights }) => {
                self.four[j as usize] = (bones, weights);
                Slot::Bdef4(j)
            }
            (Slot::Bdef4(j) | Slot::Qdef(j), Weight::Qdef { bones, weights }) => {
                self.four[j as usize] = (bones, weights);
                Slot::Qdef(j)
            }
            (
                Slot::Sdef(j),
                Weight::Sdef {
                    bones,
                    weight,
                    c,
                    r0,
                    r1,
                },
            ) => {
                self.spherical[j as usize] = (bones, weight, [c, r0, r1]);
                old
            }
            (old, weight) => {
                if !matches!(old, Slot::Bdef1(_)) {
                    self.unused += 1;
                }
                self.new_slot(weight)
            }
        };
        base.weight = slot;
        self.base[i] = base;
        if additional_uv.len() == self.stride {
            self.uvs[i * self.stride..(i + 1) * self.stride].copy_from_slice(&additional_uv);
            self.odd_uvs.remove(&i);
        } else {
            self.odd_uvs.insert(i, additional_uv);
        }
        self.tidy();
    }

    /// Rebuilds the tables when unused entries outnumber the vertices, and takes the
    /// number of additional UVs that every vertex has (after edits that changed it for
    /// all of them) as the stride.
    fn tidy(&mut self) {
        let n = self.len();
        let mut counts = self.odd_uvs.values().map(Vec::len);
        let first = counts.next();
        let restride =
            first.is_some() && self.odd_uvs.len() == n && counts.all(|c| Some(c) == first);
        if self.unused > n.max(64) || restride {
            let all = self.to_vec();
            *self = all.into_iter().collect();
        }
    }

    /// Gives back the spare capacity of the weight tables (after a read).
    fn shrink(&mut self) {
        self.two.shrink_to_fit();
        self.four.shrink_to_fit();
        self.spherical.shrink_to_fit();
    }
}
