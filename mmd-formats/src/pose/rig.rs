//! The model as pose evaluation sees it: bones with their parent, rest position, deform
//! order, append (付与) and IK, and the morphs that move bones or drive other morphs. One
//! view for PMX and PMD, checked once when it is built.

use std::fmt;

use glam::{Quat, Vec3};

use crate::pmd::{BoneKind, Pmd};
use crate::pmx::skeleton::{Skeleton, SkeletonProblem};
use crate::pmx::{BoneFlags, MorphOffsets, Pmx};
use crate::BoneIndex;

/// The most IK iterations one chain runs per evaluation, whatever the model says (a
/// model may say 2^31). babylon-mmd caps the count at the same value; the fixture models
/// ask for 3 to 255.
pub const MAX_IK_LOOPS: u32 = 256;

/// PMD knee limits (MMD applies them to bones named 左ひざ and 右ひざ, which PMD cannot
/// store): the knee turns about its X axis only, from −180° to −0.5°, here **in radians**
/// (babylon-mmd reads the two numbers as radians, forcing a knee to bend at least 0.5 rad).
pub const PMD_KNEE_MIN: [f32; 3] = [-std::f32::consts::PI, 0.0, 0.0];
/// The upper PMD knee limit: −0.5° about X, in radians (see [`PMD_KNEE_MIN`]).
pub const PMD_KNEE_MAX: [f32; 3] = [-0.5 * std::f32::consts::PI / 180.0, 0.0, 0.0];

/// How a PMD IK chain's control weight becomes a per-iteration unit angle in radians:
/// multiplied by 4. PMX Editor's conversion of the standard PMD models gives exactly this
/// (足IK 0.5 → 114.5916° = 2 rad, つま先IK 1.0 → 229.1831° = 4 rad, the values the
/// standard PMX models carry); MMDAgent multiplies by π instead.
pub const PMD_UNIT_ANGLE_SCALE: f32 = 4.0;

/// One bone of a [`Rig`].
#[derive(Debug, Clone, PartialEq)]
pub struct RigBone {
    /// The bone's name as text (VPD poses bind by it).
    pub name: String,
    /// The name as Shift_JIS bytes, the form VMD tracks use; `None` when the name has no
    /// Shift_JIS form (then no VMD track can bind to it).
    pub sjis: Option<Vec<u8>>,
    /// Rest (bind) position in model space.
    pub rest: Vec3,
    /// The parent after bad links are dropped (see [`Rig::problems`]).
    pub parent: Option<usize>,
    /// The deform layer (変形階層); PMD bones have none: 0.
    pub layer: i32,
    /// Deformed in the second pass, after physics (PMX flag 0x1000).
    pub after_physics: bool,
    /// The append (付与) this bone takes, if any.
    pub append: Option<Append>,
    /// The IK chain this bone is the goal of, if any.
    pub ik: Option<IkChain>,
}

/// An append (付与, "inherit" in English tools): a bone takes a share of another bone's
/// rotation and/or movement.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Append {
    /// The bone appended from (付与親).
    pub source: usize,
    /// The share; any value, negative and above 1 included.
    pub ratio: f32,
    /// Rotation is appended (PMX 0x0100).
    pub rotation: bool,
    /// Movement is appended (PMX 0x0200).
    pub translation: bool,
    /// Local append (PMX 0x0080): the source's whole local transform, not its motion.
    pub local: bool,
}

/// An IK chain: the links turn so that the effector reaches the goal (the bone that owns
/// the chain).
#[derive(Debug, Clone, PartialEq)]
pub struct IkChain {
    /// The effector (IK ターゲット): the bone brought to the goal.
    pub effector: usize,
    /// Iterations, as the model says, capped at [`MAX_IK_LOOPS`].
    pub loops: u32,
    /// The per-iteration unit angle in radians (PMX 単位角).
    pub unit_angle: f32,
    /// The links, from the effector's parent upwards.
    pub links: Vec<IkLink>,
}

/// One link of an [`IkChain`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkLink {
    /// The link bone.
    pub bone: usize,
    /// Euler angle limits (lower, upper) in radians, X, Y, Z, each lower ≤ upper and
    /// neither NaN.
    pub limits: Option<(Vec3, Vec3)>,
}

/// A morph as pose evaluation sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct RigMorph {
    /// The morph's name as text.
    pub name: String,
    /// The name as Shift_JIS bytes (VMD morph tracks bind by them).
    pub sjis: Option<Vec<u8>>,
    /// What the morph does to the pose.
    pub kind: MorphKind,
}

/// What a morph does to the pose.
#[derive(Debug, Clone, PartialEq)]
pub enum MorphKind {
    /// Moves and turns bones (PMX type 2): per bone, a translation scaled by the weight
    /// and a rotation interpolated from none by the weight, added to the motion's.
    Bone(Vec<BoneMorphOffset>),
    /// Drives other morphs (PMX type 0), each at this morph's weight times its own. A
    /// group that reaches itself is refused: its offsets are empty here and a
    /// [`RigProblem::GroupCycle`] says so.
    Group(Vec<(usize, f32)>),
    /// Changes no bone (vertex, UV, material, flip, impulse; every PMD morph): only its
    /// weight is reported.
    Other,
}

/// One bone offset of a bone morph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneMorphOffset {
    /// The bone moved.
    pub bone: usize,
    /// Its translation at weight 1.
    pub translation: Vec3,
    /// Its rotation at weight 1 (normalised; a zero or non-finite quaternion is none).
    pub rotation: Quat,
}

/// Something wrong in the model, found when the rig is built. Each is repaired as it
/// says, so evaluation always ends and never panics.
#[derive(Debug, Clone, PartialEq)]
pub enum RigProblem {
    /// A bad parent link (out of range, or a cycle): the link is dropped.
    Parent(SkeletonProblem),
    /// An append source that is not a bone: the append is dropped.
    AppendOutOfRange {
        /// The bone.
        bone: usize,
        /// The source index as stored.
        source: i32,
    },
    /// An append ratio that is NaN or infinite: the ratio becomes 0 (the append does
    /// nothing).
    AppendRatio {
        /// The bone.
        bone: usize,
    },
    /// Appends that lead back to the first bone (`bones[0]` from `bones[1]`, ... the last
    /// from the first). Kept: each bone reads its source's value as it stands when the
    /// bone is deformed, so a cycle cannot loop; its values depend on the deform order.
    AppendCycle {
        /// The bones of the cycle, lowest index first.
        bones: Vec<usize>,
    },
    /// An IK effector or link that is not a bone: the chain (effector) or the link is
    /// dropped.
    IkBoneOutOfRange {
        /// The IK bone.
        bone: usize,
        /// The index as stored.
        index: i32,
    },
    /// A loop count above [`MAX_IK_LOOPS`] (or negative): capped (negative: 0).
    IkLoopsCapped {
        /// The IK bone.
        bone: usize,
        /// The count as stored.
        loops: i64,
    },
    /// A unit angle that is NaN or infinite: the chain turns by at most π per step.
    IkUnitAngle {
        /// The IK bone.
        bone: usize,
    },
    /// A link limit that is NaN, or a lower bound above the upper: a NaN bound becomes
    /// unbounded (±π on that axis), crossed bounds are swapped.
    IkLimit {
        /// The IK bone.
        bone: usize,
        /// The link's position in the chain.
        link: usize,
    },
    /// A group morph offset naming a morph that does not exist: the offset is dropped.
    MorphOutOfRange {
        /// The morph.
        morph: usize,
        /// The index as stored.
        index: i32,
    },
    /// A bone morph offset naming a bone that does not exist: the offset is dropped.
    MorphBoneOutOfRange {
        /// The morph.
        morph: usize,
        /// The index as stored.
        index: i32,
    },
    /// Group morphs that reach themselves (`morphs[0]` drives `morphs[1]`, ... the last
    /// drives the first): every group of the cycle is refused (drives nothing).
    GroupCycle {
        /// The groups of the cycle, lowest index first.
        morphs: Vec<usize>,
    },
}

impl fmt::Display for RigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[usize]| {
            v.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" -> ")
        };
        match self {
            RigProblem::Parent(p) => p.fmt(f),
            RigProblem::AppendOutOfRange { bone, source } => write!(
                f,
                "bones[{bone}]: append source {source} is not a bone (append dropped)"
            ),
            RigProblem::AppendRatio { bone } => {
                write!(f, "bones[{bone}]: append ratio is not finite (0 used)")
            }
            RigProblem::AppendCycle { bones } => write!(
                f,
                "append cycle through bones {} (each reads its source as it stands)",
                list(bones)
            ),
            RigProblem::IkBoneOutOfRange { bone, index } => write!(
                f,
                "bones[{bone}]: IK bone index {index} is not a bone (dropped)"
            ),
            RigProblem::IkLoopsCapped { bone, loops } => write!(
                f,
                "bones[{bone}]: IK loop count {loops} capped to 0..={MAX_IK_LOOPS}"
            ),
            RigProblem::IkUnitAngle { bone } => {
                write!(f, "bones[{bone}]: IK unit angle is not finite (π used)")
            }
            RigProblem::IkLimit { bone, link } => write!(
                f,
                "bones[{bone}]: IK link {link} has a NaN or crossed angle limit (repaired)"
            ),
            RigProblem::MorphOutOfRange { morph, index } => write!(
                f,
                "morphs[{morph}]: group offset morph {index} is not a morph (dropped)"
            ),
            RigProblem::MorphBoneOutOfRange { morph, index } => write!(
                f,
                "morphs[{morph}]: bone offset bone {index} is not a bone (dropped)"
            ),
            RigProblem::GroupCycle { morphs } => write!(
                f,
                "group morphs reach themselves: {} (refused: they drive nothing)",
                list(morphs)
            ),
        }
    }
}

/// The model's bones and morphs as pose evaluation needs them, and the order to deform
/// them in. Built once per model ([`Rig::from_pmx`], [`Rig::from_pmd`]); evaluating a
/// pose reads it and never changes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Rig {
    pub(crate) bones: Vec<RigBone>,
    pub(crate) morphs: Vec<RigMorph>,
    /// Every bone once, parents before children (depth first).
    pub(crate) preorder: Vec<usize>,
    /// The deform order: the first pass, then the after-physics pass.
    pub(crate) deform: Vec<usize>,
    /// Group morphs ordered so that every group comes after each group driving it.
    pub(crate) group_order: Vec<usize>,
    pub(crate) problems: Vec<RigProblem>,
}

impl Rig {
    /// The rig of a PMX model.
    ///
    /// Deform order (seed 003): the bones without flag 0x1000 first, then those with it;
    /// within each pass by ascending deform layer, equal layers by bone index.
    pub fn from_pmx(pmx: &Pmx) -> Rig {
        let n = pmx.bones.len();
        let mut problems = Vec::new();
        let skeleton = pmx.skeleton();
        let mut bones: Vec<RigBone> = Vec::with_capacity(n);
        for (i, b) in pmx.bones.iter().enumerate() {
            let append = b.inherit.and_then(|inh| {
                let rotation = b.flags.contains(BoneFlags::INHERIT_ROTATION);
                let translation = b.flags.contains(BoneFlags::INHERIT_TRANSLATION);
                match bone_index(inh.parent, n) {
                    Some(source) => Some(Append {
                        source,
                        ratio: if inh.weight.is_finite() {
                            inh.weight
                        } else {
                            problems.push(RigProblem::AppendRatio { bone: i });
                            0.0
                        },
                        rotation,
                        translation,
                        local: b.flags.contains(BoneFlags::INHERIT_LOCAL),
                    }),
                    None => {
                        problems.push(RigProblem::AppendOutOfRange {
                            bone: i,
                            source: inh.parent.raw(),
                        });
                        None
                    }
                }
            });
            let ik = if b.flags.contains(BoneFlags::IK) {
                b.ik.as_ref().and_then(|ik| {
                    let Some(effector) = bone_index(ik.target, n) else {
                        problems.push(RigProblem::IkBoneOutOfRange {
                            bone: i,
                            index: ik.target.raw(),
                        });
                        return None;
                    };
                    let mut links = Vec::with_capacity(ik.links.len());
                    for (k, l) in ik.links.iter().enumerate() {
                        let Some(bone) = bone_index(l.bone, n) else {
                            problems.push(RigProblem::IkBoneOutOfRange {
                                bone: i,
                                index: l.bone.raw(),
                            });
                            continue;
                        };
                        let limits = match (l.has_limit, l.limit_min, l.limit_max) {
                            (0, _, _) => None,
                            (_, Some(lo), Some(hi)) => {
                                Some(sane_limits(lo, hi, i, k, &mut problems))
                            }
                            _ => None,
                        };
                        links.push(IkLink { bone, limits });
                    }
                    Some(IkChain {
                        effector,
                        loops: loops(i64::from(ik.loop_count), i, &mut problems),
                        unit_angle: unit_angle(ik.limit_angle, i, &mut problems),
                        links,
                    })
                })
            } else {
                None
            };
            bones.push(RigBone {
                name: b.name.to_string_lossy().into_owned(),
                sjis: sjis(&b.name.to_string_lossy()),
                rest: Vec3::from(b.position),
                parent: skeleton.parent(i),
                layer: b.layer,
                after_physics: b.flags.contains(BoneFlags::PHYSICS_AFTER_DEFORM),
                append,
                ik,
            });
        }
        let mut morphs = Vec::with_capacity(pmx.morphs.len());
        let m = pmx.morphs.len();
        for (mi, morph) in pmx.morphs.iter().enumerate() {
            let kind = match &morph.offsets {
                MorphOffsets::Group(offsets) => MorphKind::Group(
                    offsets
                        .iter()
                        .filter_map(|o| match o.morph.get().filter(|&x| x < m) {
                            Some(x) => Some((x, o.weight)),
                            None => {
                                problems.push(RigProblem::MorphOutOfRange {
                                    morph: mi,
                                    index: o.morph.raw(),
                                });
                                None
                            }
                        })
                        .collect(),
                ),
                MorphOffsets::Bone(offsets) => MorphKind::Bone(
                    offsets
                        .iter()
                        .filter_map(|o| match bone_index(o.bone, n) {
                            Some(bone) => Some(BoneMorphOffset {
                                bone,
                                translation: Vec3::from(o.translation),
                                rotation: unit_quat(o.rotation),
                            }),
                            None => {
                                problems.push(RigProblem::MorphBoneOutOfRange {
                                    morph: mi,
                                    index: o.bone.raw(),
                                });
                                None
                            }
                        })
                        .collect(),
                ),
                _ => MorphKind::Other,
            };
            let name = morph.name.to_string_lossy().into_owned();
            morphs.push(RigMorph {
                sjis: sjis(&name),
                name,
                kind,
            });
        }
        let mut deform: Vec<usize> = (0..n).collect();
        deform.sort_by_key(|&i| (bones[i].after_physics, bones[i].layer));
        Rig::finish(bones, morphs, deform, &skeleton, problems)
    }

    /// The rig of a PMD model, through the same view as PMX:
    ///
    /// * bone type 5 (回転影響下) appends the rotation of the bone in its `ik_parent` field
    ///   at ratio 1; type 9 (回転連動) appends the rotation of its tail bone at the ratio
    ///   its `ik_parent` field holds in percent (PMX Editor's conversion of the two);
    /// * IK chains become IK bones with the chain's iterations and a unit angle of 4 ×
    ///   the control weight ([`PMD_UNIT_ANGLE_SCALE`]); links named 左ひざ or 右ひざ get
    ///   the knee limits MMD gives them, [`PMD_KNEE_MIN`] to [`PMD_KNEE_MAX`] (radians);
    /// * deform order: every bone that owns no IK chain by index, then the IK bones in
    ///   the order of the chain list (PMD has no layers; MMD solves the chains in list
    ///   order after the rest).
    pub fn from_pmd(pmd: &Pmd) -> Rig {
        let n = pmd.bones.len();
        let mut problems = Vec::new();
        let parents = pmd.bones.iter().map(|b| match b.parent_index() {
            Some(p) => BoneIndex::from_raw(i32::from(p)),
            None => BoneIndex::NONE,
        });
        let skeleton = Skeleton::from_parents(parents);
        let mut bones: Vec<RigBone> = Vec::with_capacity(n);
        for (i, b) in pmd.bones.iter().enumerate() {
            let append = match b.kind() {
                BoneKind::UnderRotate => Some((i32::from(b.ik_parent), 1.0)),
                BoneKind::FollowRotate => Some((
                    i32::from(b.tail),
                    f32::from(b.co_rotation_percent().unwrap_or(0)) / 100.0,
                )),
                _ => None,
            }
            .and_then(|(source, ratio)| {
                match usize::try_from(source).ok().filter(|&s| s < n) {
                    Some(source) => Some(Append {
                        source,
                        ratio,
                        rotation: true,
                        translation: false,
                        local: false,
                    }),
                    None => {
                        problems.push(RigProblem::AppendOutOfRange { bone: i, source });
                        None
                    }
                }
            });
            let name = b.name.decode().into_owned();
            bones.push(RigBone {
                name,
                sjis: Some(b.name.name_bytes().to_vec()),
                rest: Vec3::from(b.position),
                parent: skeleton.parent(i),
                layer: 0,
                after_physics: false,
                append,
                ik: None,
            });
        }
        let mut ik_bones = Vec::new();
        for chain in &pmd.ik_chains {
            let goal = usize::from(chain.ik_bone);
            if goal >= n {
                problems.push(RigProblem::IkBoneOutOfRange {
                    bone: goal,
                    index: i32::from(chain.ik_bone),
                });
                continue;
            }
            let effector = usize::from(chain.effector);
            if effector >= n {
                problems.push(RigProblem::IkBoneOutOfRange {
                    bone: goal,
                    index: i32::from(chain.effector),
                });
                continue;
            }
            let mut links = Vec::with_capacity(chain.links.len());
            for &l in &chain.links {
                let bone = usize::from(l);
                if bone >= n {
                    problems.push(RigProblem::IkBoneOutOfRange {
                        bone: goal,
                        index: i32::from(l),
                    });
                    continue;
                }
                let knee = matches!(bones[bone].name.as_str(), "左ひざ" | "右ひざ");
                links.push(IkLink {
                    bone,
                    limits: knee.then(|| (Vec3::from(PMD_KNEE_MIN), Vec3::from(PMD_KNEE_MAX))),
                });
            }
            let unit = chain.control_weight * PMD_UNIT_ANGLE_SCALE;
            // A second chain on the same goal bone replaces the first (one chain per bone,
            // as in PMX); it is solved once, in the place of the first.
            if bones[goal].ik.is_none() {
                ik_bones.push(goal);
            }
            bones[goal].ik = Some(IkChain {
                effector,
                loops: loops(i64::from(chain.iterations), goal, &mut problems),
                unit_angle: unit_angle(unit, goal, &mut problems),
                links,
            });
        }
        let mut deform: Vec<usize> = (0..n).filter(|&i| bones[i].ik.is_none()).collect();
        deform.extend(ik_bones);
        let morphs = pmd
            .morphs
            .iter()
            .map(|m| RigMorph {
                name: m.name.decode().into_owned(),
                sjis: Some(m.name.name_bytes().to_vec()),
                kind: MorphKind::Other,
            })
            .collect();
        Rig::finish(bones, morphs, deform, &skeleton, problems)
    }

    /// The tree layout, the append cycles and the group order, shared by both formats.
    fn finish(
        bones: Vec<RigBone>,
        mut morphs: Vec<RigMorph>,
        deform: Vec<usize>,
        skeleton: &Skeleton,
        mut problems: Vec<RigProblem>,
    ) -> Rig {
        let n = bones.len();
        let mut parent_problems: Vec<RigProblem> = skeleton
            .problems()
            .iter()
            .cloned()
            .map(RigProblem::Parent)
            .collect();
        parent_problems.append(&mut problems);
        let mut problems = parent_problems;
        // Depth-first preorder: every parent before its children.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, b) in bones.iter().enumerate() {
            if let Some(p) = b.parent {
                children[p].push(i);
            }
        }
        let mut preorder = Vec::with_capacity(n);
        let mut stack: Vec<usize> = Vec::new();
        for root in (0..n).filter(|&i| bones[i].parent.is_none()) {
            stack.push(root);
            while let Some(b) = stack.pop() {
                preorder.push(b);
                stack.extend(children[b].iter().rev());
            }
        }
        problems.extend(append_cycles(&bones));
        let (group_order, cycles) = order_groups(&morphs);
        for cycle in &cycles {
            for &g in cycle {
                if let MorphKind::Group(offsets) = &mut morphs[g].kind {
                    offsets.clear();
                }
            }
        }
        problems.extend(
            cycles
                .into_iter()
                .map(|morphs| RigProblem::GroupCycle { morphs }),
        );
        Rig {
            bones,
            morphs,
            preorder,
            deform,
            group_order,
            problems,
        }
    }

    /// The bones, in file order.
    pub fn bones(&self) -> &[RigBone] {
        &self.bones
    }

    /// The morphs, in file order.
    pub fn morphs(&self) -> &[RigMorph] {
        &self.morphs
    }

    /// The order bones are deformed in (append and IK solved): the first pass, then the
    /// after-physics pass.
    pub fn deform_order(&self) -> &[usize] {
        &self.deform
    }

    /// Replaces the deform order, to compare MMD's with another player's (three.js's
    /// helper solves every IK, then every append: see [`Rig::three_js_order`]). `order`
    /// must list every bone once; otherwise the rig is left as it is and `false` returned.
    pub fn set_deform_order(&mut self, order: Vec<usize>) -> bool {
        let mut seen = vec![false; self.bones.len()];
        if order.len() != self.bones.len()
            || !order
                .iter()
                .all(|&b| b < seen.len() && !std::mem::replace(&mut seen[b], true))
        {
            return false;
        }
        self.deform = order;
        true
    }

    /// The fixed order of three.js's `MMDAnimationHelper` (seed 003): every IK bone by
    /// index, then every append bone with each source before the bones appending from it
    /// (by index otherwise), then the rest; layers and the after-physics flag are not
    /// looked at.
    pub fn three_js_order(&self) -> Vec<usize> {
        let n = self.bones.len();
        let mut order: Vec<usize> = (0..n).filter(|&i| self.bones[i].ik.is_some()).collect();
        let mut placed: Vec<bool> = self.bones.iter().map(|b| b.ik.is_some()).collect();
        let mut chain = Vec::new();
        for start in (0..n).filter(|&i| self.bones[i].append.is_some()) {
            // Place the sources first, walking up the append links (a cycle stops the walk).
            chain.clear();
            let mut cur = Some(start);
            while let Some(b) = cur {
                if placed[b] || chain.contains(&b) || self.bones[b].append.is_none() {
                    break;
                }
                chain.push(b);
                cur = self.bones[b].append.map(|a| a.source);
            }
            for &b in chain.iter().rev() {
                placed[b] = true;
                order.push(b);
            }
        }
        order.extend((0..n).filter(|&i| !placed[i]));
        order
    }

    /// What was wrong in the model, and how each was repaired.
    pub fn problems(&self) -> &[RigProblem] {
        &self.problems
    }

    /// The index of the first bone named `name`, if any.
    pub fn bone(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    /// The index of the first morph named `name`, if any.
    pub fn morph(&self, name: &str) -> Option<usize> {
        self.morphs.iter().position(|m| m.name == name)
    }
}

/// A bone index that names a bone of `n`.
fn bone_index(i: BoneIndex, n: usize) -> Option<usize> {
    i.get().filter(|&x| x < n)
}

/// The Shift_JIS bytes of a name, if it has them.
fn sjis(name: &str) -> Option<Vec<u8>> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(name);
    (!unmappable && !name.contains('\0')).then(|| bytes.into_owned())
}

/// A quaternion normalised; zero or non-finite length gives none (identity).
pub(crate) fn unit_quat(q: [f32; 4]) -> Quat {
    let q = Quat::from_array(q);
    let len = q.length();
    if len.is_finite() && len > 0.0 {
        q / len
    } else {
        Quat::IDENTITY
    }
}

fn loops(stored: i64, bone: usize, problems: &mut Vec<RigProblem>) -> u32 {
    match u32::try_from(stored) {
        Ok(v) if v <= MAX_IK_LOOPS => v,
        _ => {
            problems.push(RigProblem::IkLoopsCapped {
                bone,
                loops: stored,
            });
            if stored < 0 {
                0
            } else {
                MAX_IK_LOOPS
            }
        }
    }
}

fn unit_angle(stored: f32, bone: usize, problems: &mut Vec<RigProblem>) -> f32 {
    if stored.is_finite() {
        stored
    } else {
        problems.push(RigProblem::IkUnitAngle { bone });
        std::f32::consts::PI
    }
}

fn sane_limits(
    lo: [f32; 3],
    hi: [f32; 3],
    bone: usize,
    link: usize,
    problems: &mut Vec<RigProblem>,
) -> (Vec3, Vec3) {
    use std::f32::consts::PI;
    let mut bad = false;
    let mut out_lo = [0.0; 3];
    let mut out_hi = [0.0; 3];
    for k in 0..3 {
        let (mut a, mut b) = (lo[k], hi[k]);
        if a.is_nan() {
            a = -PI;
            bad = true;
        }
        if b.is_nan() {
            b = PI;
            bad = true;
        }
        if a > b {
            std::mem::swap(&mut a, &mut b);
            bad = true;
        }
        out_lo[k] = a;
        out_hi[k] = b;
    }
    if bad {
        problems.push(RigProblem::IkLimit { bone, link });
    }
    (Vec3::from(out_lo), Vec3::from(out_hi))
}

/// Every cycle of append sources, lowest bone first, each reported once.
fn append_cycles(bones: &[RigBone]) -> Vec<RigProblem> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; bones.len()];
    let mut path = Vec::new();
    let mut out = Vec::new();
    for start in 0..bones.len() {
        path.clear();
        let mut cur = Some(start);
        while let Some(c) = cur {
            match state[c] {
                NEW => {
                    state[c] = ON_PATH;
                    path.push(c);
                    cur = bones[c].append.map(|a| a.source);
                }
                ON_PATH => {
                    let at = path.iter().position(|&x| x == c).unwrap_or(0);
                    let mut cycle = path[at..].to_vec();
                    let lowest = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap_or(0);
                    cycle.rotate_left(lowest);
                    out.push(RigProblem::AppendCycle { bones: cycle });
                    break;
                }
                _ => break,
            }
        }
        for &p in &path {
            state[p] = DONE;
        }
    }
    out
}

/// The group morphs in an order where each comes after every group driving it, and the
/// groups on cycles (strongly connected components with a cycle), each lowest first.
///
/// Iterative Tarjan: bounded by morphs + offsets, whatever the nesting.
fn order_groups(morphs: &[RigMorph]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let n = morphs.len();
    let edges = |m: usize| -> &[(usize, f32)] {
        match &morphs[m].kind {
            MorphKind::Group(o) => o,
            _ => &[],
        }
    };
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut sccs: Vec<Vec<usize>> = Vec::new();
    let mut call: Vec<(usize, usize)> = Vec::new();
    for start in 0..n {
        if index[start] != UNSEEN || !matches!(morphs[start].kind, MorphKind::Group(_)) {
            continue;
        }
        call.push((start, 0));
        index[start] = next;
        low[start] = next;
        next += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut k)) = call.last_mut() {
            let out = edges(v);
            if let Some(&(w, _)) = out.get(*k) {
                *k += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(u, _)) = call.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                sccs.push(scc);
            }
        }
    }
    // Tarjan emits components children first: reversed, drivers come first.
    let mut order = Vec::new();
    let mut cycles = Vec::new();
    for mut scc in sccs.into_iter().rev() {
        let looped = scc.len() > 1 || edges(scc[0]).iter().any(|&(w, _)| w == scc[0]);
        if looped {
            scc.sort_unstable();
            cycles.push(scc);
        } else if matches!(morphs[scc[0]].kind, MorphKind::Group(_)) {
            order.push(scc[0]);
        }
    }
    cycles.sort();
    (order, cycles)
}
