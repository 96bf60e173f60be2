//! The bone tree as data: topological order, local positions, deform order, and the bones
//! physics drives.
//!
//! A PMX bone stores its position in model space (absolute) and the index of its parent
//! (-1 = none). Three traps decide how a tool must walk them:
//!
//! * A parent may come *after* its child in the file (seed 000 found one in a real model).
//!   A single pass in file order reads a parent that has not been computed yet; walk
//!   [`Skeleton::order`] instead, which puts every parent before its children.
//! * The parent links come from the file, so they can be wrong: an index past the last
//!   bone, a negative index other than -1, a bone that is its own parent or a longer cycle.
//!   None of these is an error here: each is reported as a [`SkeletonProblem`] and the
//!   link concerned is ignored, so the rest of the tree is still usable.
//! * The order in which bones are *deformed* (IK and inherits solved) is a separate rule,
//!   set by the layer field and the deform-after-physics flag (0x1000), not by the tree:
//!   see [`deform_order`].
//!
//! Bones with a rigid body in a physics mode (mode 1 or 2) are moved by the physics engine
//! every frame, so a pose taken from a running scene holds values for them that a motion
//! should not keep (seed 000: a standing pose of 63 bones came down to 10): see
//! [`PhysicsBones`].
//!
//! ```
//! use mmd_formats::pmx::skeleton::Skeleton;
//! use mmd_formats::BoneIndex;
//!
//! // Bone 0's parent is bone 1, which comes after it; bone 1 is a root.
//! let parents = [BoneIndex::from_raw(1), BoneIndex::NONE];
//! let skeleton = Skeleton::from_parents(parents);
//! assert_eq!(skeleton.order(), &[1, 0]);
//! assert_eq!(skeleton.parent(0), Some(1));
//! assert!(skeleton.problems().is_empty());
//! ```

use std::fmt;

use super::{Bone, BoneFlags, Pmx};
use crate::index::BoneIndex;

/// Something wrong with the parent links, found while ordering the bones. The link
/// concerned is ignored (the bone is treated as a root) so that the order still exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkeletonProblem {
    /// The parent index is neither -1 (none) nor the index of a bone of the model: past
    /// the last bone, or another negative value.
    ParentOutOfRange {
        /// The bone whose parent link is bad.
        bone: usize,
        /// The parent index as stored.
        parent: i32,
    },
    /// Following the parent links from `bones[0]` leads back to it. `bones` lists the
    /// cycle in link order: the parent of each bone is the next one, the parent of the
    /// last is the first. The first is the cycle's lowest index; its link to its parent is
    /// the one ignored. A bone that is its own parent is a cycle of one.
    Cycle {
        /// The bones of the cycle, lowest index first.
        bones: Vec<usize>,
    },
}

impl fmt::Display for SkeletonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkeletonProblem::ParentOutOfRange { bone, parent } => write!(
                f,
                "bones[{bone}]: parent index {parent} is not a bone (treated as a root)"
            ),
            SkeletonProblem::Cycle { bones } => match bones.as_slice() {
                [] => write!(f, "an empty parent cycle"),
                [one] => write!(f, "bones[{one}] is its own parent (treated as a root)"),
                [first, ..] => {
                    let list: Vec<String> = bones.iter().map(usize::to_string).collect();
                    write!(
                        f,
                        "parent cycle through bones {} (bones[{first}] treated as a root)",
                        list.join(" -> ")
                    )
                }
            },
        }
    }
}

/// The bone tree: each bone's usable parent, an order with parents first, and the
/// problems found in the links.
///
/// Built from the parent indices only; it does not keep the bones. Every method that
/// takes a bone index returns `None` (or nothing) for an index that is not a bone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skeleton {
    /// The parent of each bone after bad links are dropped.
    parents: Vec<Option<usize>>,
    /// Every bone once, each after its parent.
    order: Vec<usize>,
    /// The number of links from each bone up to its root.
    depth: Vec<usize>,
    /// Bad links, out-of-range ones first (by bone), then cycles (by lowest bone).
    problems: Vec<SkeletonProblem>,
}

impl Skeleton {
    /// The tree of `bones`.
    pub fn new(bones: &[Bone]) -> Self {
        Self::from_parents(bones.iter().map(|b| b.parent))
    }

    /// The tree given each bone's parent index, in bone order.
    pub fn from_parents(parents: impl IntoIterator<Item = BoneIndex>) -> Self {
        let raw: Vec<BoneIndex> = parents.into_iter().collect();
        let n = raw.len();
        let mut problems = Vec::new();
        let mut parents: Vec<Option<usize>> = Vec::with_capacity(n);
        for (bone, p) in raw.iter().enumerate() {
            match p.get() {
                Some(i) if i < n => parents.push(Some(i)),
                _ if p.is_none() => parents.push(None),
                _ => {
                    problems.push(SkeletonProblem::ParentOutOfRange {
                        bone,
                        parent: p.raw(),
                    });
                    parents.push(None);
                }
            }
        }
        break_cycles(&mut parents, &mut problems);
        let (order, depth) = order_parents_first(&parents);
        Skeleton {
            parents,
            order,
            depth,
            problems,
        }
    }

    /// The number of bones.
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// True when the model has no bones.
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// Every bone index once, each parent before its children.
    ///
    /// File order is kept except where a parent comes after its child: then the parent
    /// (with any of its own ancestors not yet placed) moves to just before that child.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The bone's parent, `None` for a root, for a bone whose link is one of the
    /// [`problems`](Self::problems), and for an index that is not a bone.
    pub fn parent(&self, bone: usize) -> Option<usize> {
        self.parents.get(bone).copied().flatten()
    }

    /// The number of links from the bone up to its root (0 for a root); `None` for an
    /// index that is not a bone.
    pub fn depth(&self, bone: usize) -> Option<usize> {
        self.depth.get(bone).copied()
    }

    /// The bones whose parent is `bone`, in file order.
    pub fn children(&self, bone: usize) -> impl Iterator<Item = usize> + '_ {
        self.parents
            .iter()
            .enumerate()
            .filter(move |(_, p)| **p == Some(bone))
            .map(|(i, _)| i)
    }

    /// The bones with no (usable) parent, in file order.
    pub fn roots(&self) -> impl Iterator<Item = usize> + '_ {
        self.parents
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_none())
            .map(|(i, _)| i)
    }

    /// The bad parent links found (each one ignored in the tree).
    pub fn problems(&self) -> &[SkeletonProblem] {
        &self.problems
    }

    /// Each bone's position relative to its parent: its own model-space position minus
    /// its parent's (seed 000). A root keeps its absolute position, and so does a bone
    /// whose parent link is one of the [`problems`](Self::problems).
    ///
    /// `bones` should be the bones the skeleton was built from; where it is not, entries
    /// without a parent among `bones` keep their absolute position.
    pub fn local_positions(&self, bones: &[Bone]) -> Vec<[f32; 3]> {
        bones
            .iter()
            .enumerate()
            .map(|(i, b)| match self.parent(i).and_then(|p| bones.get(p)) {
                Some(parent) => sub(b.position, parent.position),
                None => b.position,
            })
            .collect()
    }

    /// The inverse of [`local_positions`](Self::local_positions): model-space positions
    /// from positions relative to the parent, summed from the roots down in
    /// [`order`](Self::order). Entries beyond the skeleton's bones are kept as they are.
    pub fn absolute_positions(&self, local: &[[f32; 3]]) -> Vec<[f32; 3]> {
        let mut out = local.to_vec();
        for &i in &self.order {
            let Some(p) = self.parent(i) else { continue };
            if let (Some(&base), Some(&own)) = (out.get(p), local.get(i)) {
                if let Some(slot) = out.get_mut(i) {
                    *slot = add(base, own);
                }
            }
        }
        out
    }
}

/// Drops one link of every parent cycle (the link of the cycle's lowest bone) and reports
/// the cycle. Iterative: each bone is visited once.
fn break_cycles(parents: &mut [Option<usize>], problems: &mut Vec<SkeletonProblem>) {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; parents.len()];
    let mut path = Vec::new();
    for start in 0..parents.len() {
        path.clear();
        let mut cur = Some(start);
        while let Some(c) = cur {
            match state.get(c) {
                Some(&NEW) => {
                    state[c] = ON_PATH;
                    path.push(c);
                    cur = parents[c];
                }
                Some(&ON_PATH) => {
                    // `c` is on the current path: the path from `c` on is a cycle.
                    let at = path.iter().position(|&x| x == c).unwrap_or(0);
                    let mut cycle = path[at..].to_vec();
                    let lowest = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap_or(0);
                    cycle.rotate_left(lowest);
                    if let Some(&first) = cycle.first() {
                        parents[first] = None;
                    }
                    problems.push(SkeletonProblem::Cycle { bones: cycle });
                    break;
                }
                _ => break,
            }
        }
        for &p in &path {
            state[p] = DONE;
        }
    }
    // Cycles are found in order of the first bone that reaches them; report them by their
    // lowest bone so the list does not depend on how the walk entered them.
    problems.sort_by_key(|p| match p {
        SkeletonProblem::ParentOutOfRange { bone, .. } => (0, *bone),
        SkeletonProblem::Cycle { bones } => (1, bones.first().copied().unwrap_or(0)),
    });
}

/// An order with parents first, and each bone's depth, for an acyclic parent array.
fn order_parents_first(parents: &[Option<usize>]) -> (Vec<usize>, Vec<usize>) {
    let n = parents.len();
    let mut placed = vec![false; n];
    let mut depth = vec![0usize; n];
    let mut order = Vec::with_capacity(n);
    let mut chain = Vec::new();
    for start in 0..n {
        // Walk up to the first placed ancestor (or a root), then place the chain top down.
        chain.clear();
        let mut cur = Some(start);
        while let Some(c) = cur {
            if placed[c] {
                break;
            }
            // The array is acyclic, so the walk ends; `placed` guards it all the same.
            placed[c] = true;
            chain.push(c);
            cur = parents[c];
        }
        for &c in chain.iter().rev() {
            depth[c] = parents[c].map_or(0, |p| depth[p] + 1);
            order.push(c);
        }
    }
    (order, depth)
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// The order in which bones are deformed, as the layer field and the deform-after-physics
/// flag (0x1000) set it. Seed 003: MMD solves IK and inherits by ascending layer, and bones
/// of the same layer by bone index (a real model has 62 bones on layer 1 and 4 on layer 2);
/// seeds 001 and 002 name 0x1000 "deform after physics". So: first every bone without the
/// flag, then every bone with it (transformed after the physics step); within each pass by
/// ascending layer, and bones of the same layer in file order.
///
/// This is not the tree order: a child can have a lower layer than its parent, or come
/// first in the file. Positions follow [`Skeleton::order`]; this order is for the passes
/// that solve IK and inherits.
pub fn deform_order(bones: &[Bone]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..bones.len()).collect();
    // A stable sort keeps file order among equal keys.
    order.sort_by_key(|&i| {
        let b = &bones[i];
        (b.flags.contains(BoneFlags::PHYSICS_AFTER_DEFORM), b.layer)
    });
    order
}

/// The bones driven by physics: every bone that a rigid body with a physics mode other
/// than 0 (1 = physics, 2 = physics with bone position; any other value is counted too)
/// is attached to. Mode 0 bodies follow their bone and do not move it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PhysicsBones {
    /// For each bone, the first rigid body that drives it (`None` for bones physics does
    /// not move).
    driven_by: Vec<Option<usize>>,
    /// Rigid bodies whose bone index is neither -1 nor a bone: (body, bone index as stored).
    unresolved: Vec<(usize, i32)>,
}

impl PhysicsBones {
    /// The physics bones of `pmx`.
    pub fn new(pmx: &Pmx) -> Self {
        let n = pmx.bones.len();
        let mut driven_by = vec![None; n];
        let mut unresolved = Vec::new();
        for (body, rb) in pmx.rigid_bodies.iter().enumerate() {
            match rb.bone.get() {
                Some(b) if b < n => {
                    if rb.mode != 0 && driven_by[b].is_none() {
                        driven_by[b] = Some(body);
                    }
                }
                _ if rb.bone.is_none() => {}
                _ => unresolved.push((body, rb.bone.raw())),
            }
        }
        PhysicsBones {
            driven_by,
            unresolved,
        }
    }

    /// True when physics drives `bone` (false for an index that is not a bone).
    pub fn contains(&self, bone: usize) -> bool {
        self.driven_by(bone).is_some()
    }

    /// The first rigid body (by index) in a physics mode attached to `bone`.
    pub fn driven_by(&self, bone: usize) -> Option<usize> {
        self.driven_by.get(bone).copied().flatten()
    }

    /// The physics bones, in ascending order.
    pub fn bones(&self) -> impl Iterator<Item = usize> + '_ {
        self.driven_by
            .iter()
            .enumerate()
            .filter(|(_, d)| d.is_some())
            .map(|(i, _)| i)
    }

    /// How many bones physics drives.
    pub fn len(&self) -> usize {
        self.driven_by.iter().filter(|d| d.is_some()).count()
    }

    /// True when physics drives no bone.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Rigid bodies whose bone index is neither -1 nor a bone of the model, as
    /// (rigid body, bone index as stored), whatever their mode. They drive nothing.
    pub fn unresolved(&self) -> &[(usize, i32)] {
        &self.unresolved
    }
}

impl Pmx {
    /// The bone tree (see [`Skeleton`]).
    pub fn skeleton(&self) -> Skeleton {
        Skeleton::new(&self.bones)
    }

    /// The bones physics drives (see [`PhysicsBones`]).
    pub fn physics_bones(&self) -> PhysicsBones {
        PhysicsBones::new(self)
    }
}
