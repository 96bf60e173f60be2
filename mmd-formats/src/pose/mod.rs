//! Pose evaluation the way MMD computes it: where every bone of a model is at a frame of
//! a motion (or in a still pose), and the weights of its morphs.
//!
//! A module beside the formats: it reads [`pmx`](crate::pmx), [`pmd`](crate::pmd),
//! [`vmd`](crate::vmd) and [`vpd`](crate::vpd); none of them depends on it. Vectors and
//! quaternions are [`glam`]'s (pinned), in MMD's own left-handed coordinates, as stored:
//! nothing is flipped.
//!
//! ```
//! use mmd_formats::pmx::{Bone, BoneFlags, BoneTail, Pmx, PmxContext};
//! use mmd_formats::pose::{Binding, Evaluator, Rig};
//! use mmd_formats::vmd::{BoneKey, Vmd};
//! use mmd_formats::{BoneIndex, PmxText, ShiftJis, TextEncoding};
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let bone = |name: &str, position: [f32; 3], parent: i32| Bone {
//!     name: PmxText::new(name, TextEncoding::Utf16Le),
//!     name_en: PmxText::new("", TextEncoding::Utf16Le),
//!     position,
//!     parent: BoneIndex::from_raw(parent),
//!     layer: 0,
//!     flags: BoneFlags::ROTATABLE,
//!     tail: BoneTail::Offset([0.0; 3]),
//!     inherit: None,
//!     fixed_axis: None,
//!     local_axes: None,
//!     external_parent: None,
//!     ik: None,
//! };
//! let mut pmx = Pmx::new("model", &PmxContext::default());
//! pmx.bones.push(bone("センター", [0.0, 1.0, 0.0], -1));
//! pmx.bones.push(bone("腕", [1.0, 1.0, 0.0], 0));
//! let mut vmd = Vmd::new_v2("model")?;
//! // センター turns 90° about Z (q = (0, 0, sin 45°, cos 45°)) at frame 10.
//! let s = std::f32::consts::FRAC_1_SQRT_2;
//! let center = ShiftJis::new("センター")?;
//! vmd.bone_keys.push(BoneKey::new(center, 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
//! vmd.bone_keys.push(BoneKey::new(center, 10, [0.0; 3], [0.0, 0.0, s, s]));
//! let rig = Rig::from_pmx(&pmx);
//! let motion = Binding::vmd(&rig, &vmd);
//! let mut eval = Evaluator::new(&rig);
//! eval.evaluate(&motion, 10.0);
//! // The arm, 1 along +X from its parent, is carried to 1 along +Y: (0, 2, 0).
//! let p = eval.world_position(1);
//! assert!((p - glam::Vec3::new(0.0, 2.0, 0.0)).length() < 1e-6);
//! # Ok(()) }
//! ```
//!
//! # The order (seed 003, and the public players that reproduce MMD)
//!
//! For one frame, [`Evaluator::evaluate`]:
//!
//! 1. **Samples the tracks.** Bones and morphs bind to tracks by exact name
//!    ([`Binding::vmd`]); bone tracks follow [`vmd::eval`](crate::vmd::eval) (curves of the
//!    later key, slerp for rotations), morph tracks are linear, and each IK bone is on or
//!    off as the motion's IK block says at that frame (a step track, clamped at its
//!    first key; on when the block does not name it).
//! 2. **Applies morphs.** A group morph (PMX type 0) adds its weight times each offset's
//!    weight to the morphs it names, nested groups included, in an order where every
//!    group comes after the groups that drive it; a group that reaches itself is refused
//!    when the rig is built ([`RigProblem::GroupCycle`]). A bone morph (type 2) then adds
//!    `weight × translation` to its bones' movement and turns them by its rotation raised
//!    to the weight (`slerp(identity, q, weight)`), after the motion's rotation.
//! 3. **Poses every bone by forward kinematics** from its rest offset to the parent, its
//!    motion and morph movement and rotation: `world = parent world × local`, parents
//!    first.
//! 4. **Deforms the bones in deform order** ([`Rig::deform_order`]): by ascending deform
//!    layer (変形階層), equal layers by bone index, every bone without flag 0x1000 before
//!    every bone with it (the after-physics pass). For each bone, in that order:
//!    * **append** (付与): the bone takes `ratio` of its source's rotation
//!      (`slerp(identity, r, ratio)`, so any ratio works: negative turns the other way,
//!      above 1 turns further) and/or movement (`ratio × t`). The value taken is the
//!      source's motion (with its morphs) and, when the source is an IK link already
//!      solved, its IK rotation; when the source itself appends, its *appended* value
//!      instead of its motion (chained appends; this is how babylon-mmd and saba read
//!      PMX's 「多重付与」). With local append (0x0080) the source's whole local
//!      rotation and movement are taken. The source is read as it stands when the bone
//!      is reached, so a source later in the order gives its value from step 3.
//!    * its **local transform**: `translation = rest offset + motion + morph + append`,
//!      `rotation = IK × motion × morph × append`;
//!    * its **parent**: the bone and everything below it are posed again from the
//!      parent's current world transform;
//!    * **IK**, when the bone owns a chain that is on (see below).
//! 5. **Skinning matrices**: `world × inverse(bind)`, the bind transform being the rest
//!    position with no rotation.
//!
//! # A bone that deforms before its parent
//!
//! A bone whose deform layer is lower than its parent's, or a first-pass bone whose parent
//! is an after-physics bone, is reached before its parent is deformed. babylon-mmd poses
//! such a bone against an **identity** parent (gene.pmx bone 221; the PMD "先" tips of IK
//! bones), which moves it to wherever its offset from the origin puts it. Here it is
//! posed against its parent as step 3 left it (the parent's motion, morphs and the
//! deformations already done), and it still **follows** its parent when the parent is
//! deformed later (step 4 re-poses a bone's whole subtree), as saba does (its
//! `MMDNode::UpdateGlobalTransform`, benikabocha/saba `src/Saba/Model/MMD/MMDNode.cpp`,
//! sets a node's global transform from its parent's and then recurses into every child;
//! its model calls it after each append and IK step). No public source states MMD's own
//! behaviour for this case; the PMX 2.0 specification defines 変形階層 as the order of
//! *deformation* (IK and append solving) and keeps the parent as the coordinate frame,
//! which an identity parent contradicts. Test:
//! `a_bone_deformed_before_its_parent_still_follows_it`.
//!
//! # IK
//!
//! CCD, as in MMD's own solver as the public players reproduce it (saba's
//! `MMDIkSolver`, which babylon-mmd follows):
//!
//! * the links' IK rotations start at none; the chain runs the model's **loop count**
//!   (capped at [`MAX_IK_LOOPS`], the cap babylon-mmd also uses), each iteration turning
//!   every link, from the effector's parent upwards, in the order the model lists them;
//! * a link turns about the axis `effector × goal` (directions from the link, in the
//!   link's frame) by the angle between them, at most `unit angle × (link position + 1)`
//!   in one iteration (babylon-mmd's reading of the per-iteration unit angle);
//! * **angle limits**: the link's rotation as X-Y-Z Euler angles (`Rx · Ry · Rz`) is
//!   clamped to its limits; a link whose limits leave exactly one axis free (a knee)
//!   turns about that **fixed axis** only, accumulating the angle and choosing the
//!   direction that brings the effector closer, the first iteration flipping an angle
//!   outside the limits to its mirror (saba's plane mode);
//! * after each iteration the effector's distance to the goal is measured, and the chain
//!   ends in its closest state (the state before the solve included), so a solve never
//!   leaves the effector farther from the goal than it found it;
//! * angles between directions are taken as `atan2(|a × b|, a · b)`, not `acos(a · b)`: in
//!   f32, `acos` rounds every angle below about 3e-4 rad to 0 and stalls a nearly straight
//!   leg (saba and babylon-mmd use `acos`; babylon-mmd computes in f64, where the loss is
//!   far smaller);
//! * when the solve ends farther than 1e-4 from the goal and the chain has a one-axis link,
//!   it runs again with those links starting half way through their range (the start an
//!   earlier version of saba's `MMDIkSolver::Solve`, commit 01d1e87, gives its knees), and the
//!   closer of the two results is kept. From straight, CCD bends a leg whose goal is just
//!   inside its reach by thousandths of a radian an iteration, and cannot bend at all
//!   toward a goal on the line of a straight leg; at frames 0 to 999 of three
//!   fixture pairs (miku_v2.pmd + wavefile_v2.vmd, gene.pmx + mmdagent_walk.vmd,
//!   alicia_solid.pmx + nuekaze_motion.vmd; legs whose goal is at least 5% inside their reach), the better of
//!   the two starts ends within 1e-3 × the leg's length of the goal on 2,738 of 2,817 solves
//!   (straight start alone: 2,481; half-bent start alone: 2,632). Test:
//!   `a_straight_knee_whose_goal_is_below_it_is_solved_from_half_bent`.
//!
//! Where this follows babylon-mmd and where MMD's own rule is not public: the loop cap
//! (256) and the per-iteration limit growing with the link's place are babylon-mmd's; the
//! restart from half bent and the atan2 angle are this crate's, chosen because they leave
//! the effector closer; none of these is documented for MMD itself.
//!
//! PMD models have no limits in the file; MMD gives 左ひざ and 右ひざ limits of −180° to
//! −0.5° about X. Here they are in radians ([`PMD_KNEE_MIN`], [`PMD_KNEE_MAX`]), as saba
//! states them (`glm::radians(0.5f)` to `glm::radians(180.0f)` for its knees, in its
//! right-handed frame where the sign of X rotations flips: benikabocha/saba
//! `src/Saba/Model/MMD/MMDIkSolver.cpp`, `AddIKChain`), and as PMX Editor writes them when
//! it converts a PMD model (下限 −180°, 上限 −0.5° on the knees of the standard PMX
//! models); babylon-mmd's table gives the degrees and its solver reads them as radians,
//! so every PMD knee of babylon-mmd bends at least 0.5 rad (28.6°) even with the leg
//! straight. Test: `pmd_knees_get_mmds_limits_in_radians`.
//!
//! # Physics
//!
//! Out of scope: bones that rigid bodies would drive (see
//! [`PhysicsBones`](crate::pmx::skeleton::PhysicsBones)) follow the animation like every
//! other bone, and the after-physics pass runs right after the first one.
//!
//! # Untrusted models
//!
//! A rig is checked once, when it is built, and every problem is repaired and reported
//! ([`Rig::problems`]): parent cycles and out-of-range links are dropped, loop counts are
//! capped, NaN limits and unit angles replaced, append cycles kept (each bone reads its
//! source as it stands, so nothing recurses) and group cycles refused. Evaluation then
//! runs a bounded number of steps: one pass over the tree per solved IK chain (appends
//! read local values only, so the world transforms are posed again once, when IK or the
//! end needs them), and per chain at most [`IK_BUDGET`] bone re-posings (a CCD step
//! re-poses only the path from its link to the effector; a chain of thousands of links
//! runs fewer iterations, at least one). It never panics: a motion value or morph weight that is not finite counts as none,
//! and every rotation stays a unit quaternion (so glam's debug assertions, which a
//! dependency may switch on, never fire).
//!
//! # Memory
//!
//! An [`Evaluator`] holds every buffer evaluation needs, sized when it is made: evaluating
//! a frame allocates nothing.

/// The maths crate of this module, re-exported so callers use the same version.
pub use glam;

mod bake;
mod bind;
mod eval;
mod ik;
mod rig;

pub use bake::{bake_ik, BakeReport, TooManyKeys, MAX_BAKED_KEYS};
pub use bind::{BindReport, Binding, BoneSample};
pub use eval::Evaluator;
pub use ik::IK_BUDGET;
pub use rig::{
    Append, BoneMorphOffset, IkChain, IkLink, MorphKind, Rig, RigBone, RigMorph, RigProblem,
    MAX_IK_LOOPS, PMD_KNEE_MAX, PMD_KNEE_MIN, PMD_UNIT_ANGLE_SCALE,
};

#[cfg(test)]
mod tests;
