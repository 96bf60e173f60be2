//! The evaluator: one frame's pose, computed into buffers made once.

use glam::{Mat4, Quat, Vec3};

use super::bind::Binding;
use super::rig::{MorphKind, Rig};

/// Evaluates poses of one rig. Every buffer is sized by [`Evaluator::new`]; evaluating a
/// frame reuses them and allocates nothing.
#[derive(Debug, Clone)]
pub struct Evaluator<'r> {
    pub(super) rig: &'r Rig,
    ik_allowed: bool,
    /// Rest offset from the parent (the rest position for a root).
    pub(super) offset: Vec<Vec3>,
    /// The motion's value plus the morphs', per bone.
    pub(super) anim_t: Vec<Vec3>,
    pub(super) anim_r: Vec<Quat>,
    /// The appended value, per bone (none for a bone without append).
    pub(super) append_t: Vec<Vec3>,
    pub(super) append_r: Vec<Quat>,
    /// The IK rotation, per bone (none for a bone in no solved chain).
    pub(super) ik_r: Vec<Quat>,
    /// Local transform: translation from the parent, rotation.
    pub(super) local_t: Vec<Vec3>,
    pub(super) local_r: Vec<Quat>,
    /// World transform.
    pub(super) world_t: Vec<Vec3>,
    pub(super) world_r: Vec<Quat>,
    /// The IK of each bone was on in this frame.
    ik_on: Vec<bool>,
    /// Scratch of the IK solver, per bone: the best IK rotation so far, and the angle of
    /// a link turning about one axis.
    pub(super) saved_ik: Vec<Quat>,
    pub(super) plane_angle: Vec<f32>,
    /// Some local transform changed since the world transforms were last posed.
    stale: bool,
    /// Scratch of the IK solver: the effector's ancestors from the highest link on that
    /// line down to the effector, and each bone's place in it (`usize::MAX`: none).
    pub(super) path: Vec<usize>,
    pub(super) path_pos: Vec<usize>,
    /// The first solve's IK rotations while the second runs.
    pub(super) alt_ik: Vec<Quat>,
    /// Per IK bone solved in this frame: the effector's distance to the goal before and
    /// after the solve.
    pub(super) ik_distance: Vec<(f32, f32)>,
    morph_weights: Vec<f32>,
    skinning: Vec<Mat4>,
}

impl<'r> Evaluator<'r> {
    /// An evaluator of `rig`, every bone at rest until the first [`evaluate`](Self::evaluate).
    pub fn new(rig: &'r Rig) -> Self {
        let n = rig.bones.len();
        let offset = rig
            .bones
            .iter()
            .map(|b| match b.parent {
                Some(p) => b.rest - rig.bones[p].rest,
                None => b.rest,
            })
            .collect::<Vec<_>>();
        let mut e = Evaluator {
            rig,
            ik_allowed: true,
            local_t: offset.clone(),
            offset,
            anim_t: vec![Vec3::ZERO; n],
            anim_r: vec![Quat::IDENTITY; n],
            append_t: vec![Vec3::ZERO; n],
            append_r: vec![Quat::IDENTITY; n],
            ik_r: vec![Quat::IDENTITY; n],
            local_r: vec![Quat::IDENTITY; n],
            world_t: rig.bones.iter().map(|b| b.rest).collect(),
            world_r: vec![Quat::IDENTITY; n],
            ik_on: vec![false; n],
            saved_ik: vec![Quat::IDENTITY; n],
            plane_angle: vec![0.0; n],
            alt_ik: vec![Quat::IDENTITY; n],
            stale: false,
            path: Vec::with_capacity(n),
            path_pos: vec![usize::MAX; n],
            ik_distance: vec![(0.0, 0.0); n],
            morph_weights: vec![0.0; rig.morphs.len()],
            skinning: vec![Mat4::IDENTITY; n],
        };
        e.write_skinning();
        e
    }

    /// The rig evaluated.
    pub fn rig(&self) -> &'r Rig {
        self.rig
    }

    /// Allows IK (the default), or turns every chain off whatever the motion says (the
    /// pose a player shows with IK off).
    pub fn set_ik_allowed(&mut self, allowed: bool) {
        self.ik_allowed = allowed;
    }

    /// Computes the pose of `animation` at `frame` (fractional frames allowed; 30 a
    /// second) in the order the [module docs](super) give.
    pub fn evaluate(&mut self, animation: &Binding<'_>, frame: f64) {
        let rig = self.rig;
        let n = rig.bones.len();
        for i in 0..n {
            // A value that is not finite counts as none: every rotation stays a unit
            // quaternion, so nothing downstream meets NaN (glam's debug assertions, which
            // a dependency may switch on, would panic on it).
            let s = animation.bone(i, frame);
            self.anim_t[i] = if s.translation.is_finite() {
                s.translation
            } else {
                Vec3::ZERO
            };
            self.anim_r[i] = unit(s.rotation);
            self.append_t[i] = Vec3::ZERO;
            self.append_r[i] = Quat::IDENTITY;
            self.ik_r[i] = Quat::IDENTITY;
            self.ik_on[i] =
                self.ik_allowed && rig.bones[i].ik.is_some() && animation.ik_enabled(i, frame);
        }
        self.apply_morphs(animation, frame);
        for i in 0..n {
            self.compose_local(i);
        }
        for slot in 0..rig.preorder.len() {
            self.compose_world(rig.preorder[slot]);
        }
        for &bone in &rig.deform {
            if rig.bones[bone].append.is_some() {
                // Appends read local values only: the world transforms wait until IK or
                // the end needs them (one pass over the tree, not one per append).
                self.apply_append(bone);
                self.compose_local(bone);
                self.stale = true;
            }
            if self.ik_on[bone] {
                self.repose_all();
                self.solve_ik(bone);
                self.stale = true;
            }
        }
        self.repose_all();
        self.write_skinning();
    }

    /// Morph weights (groups spread) and the bone morphs' movement and rotation.
    fn apply_morphs(&mut self, animation: &Binding<'_>, frame: f64) {
        let rig = self.rig;
        for (m, w) in self.morph_weights.iter_mut().enumerate() {
            let v = animation.morph(m, frame);
            *w = if v.is_finite() { v } else { 0.0 };
        }
        for &g in &rig.group_order {
            let w = self.morph_weights[g];
            if w == 0.0 {
                continue;
            }
            if let MorphKind::Group(offsets) = &rig.morphs[g].kind {
                for &(child, k) in offsets {
                    let v = self.morph_weights[child] + w * k;
                    self.morph_weights[child] = if v.is_finite() { v } else { 0.0 };
                }
            }
        }
        for (m, morph) in rig.morphs.iter().enumerate() {
            let w = self.morph_weights[m];
            if w == 0.0 {
                continue;
            }
            if let MorphKind::Bone(offsets) = &morph.kind {
                for o in offsets {
                    self.anim_t[o.bone] += o.translation * w;
                    self.anim_r[o.bone] = unit(self.anim_r[o.bone] * power(o.rotation, w));
                }
            }
        }
    }

    /// The appended value of `bone` from its source as it stands now.
    fn apply_append(&mut self, bone: usize) {
        let Some(a) = self.rig.bones[bone].append else {
            return;
        };
        let s = a.source;
        let chained = self.rig.bones[s].append.is_some();
        if a.rotation {
            let r = if a.local {
                self.local_r[s]
            } else {
                let base = if chained {
                    self.append_r[s]
                } else {
                    self.anim_r[s]
                };
                self.ik_r[s] * base
            };
            self.append_r[bone] = power(r, a.ratio);
        }
        if a.translation {
            let t = if a.local {
                self.local_t[s] - self.offset[s]
            } else if chained {
                self.append_t[s]
            } else {
                self.anim_t[s]
            };
            self.append_t[bone] = t * a.ratio;
        }
    }

    /// The local transform of `bone` from its parts.
    pub(super) fn compose_local(&mut self, bone: usize) {
        self.local_t[bone] = self.offset[bone] + self.anim_t[bone] + self.append_t[bone];
        self.local_r[bone] = unit(self.ik_r[bone] * self.anim_r[bone] * self.append_r[bone]);
    }

    /// The world transform of `bone` from its parent's and its local one.
    pub(super) fn compose_world(&mut self, bone: usize) {
        match self.rig.bones[bone].parent {
            Some(p) => {
                self.world_r[bone] = unit(self.world_r[p] * self.local_r[bone]);
                self.world_t[bone] = self.world_t[p] + self.world_r[p] * self.local_t[bone];
            }
            None => {
                self.world_r[bone] = self.local_r[bone];
                self.world_t[bone] = self.local_t[bone];
            }
        }
    }

    /// Poses every bone again from its parent, when something changed since the last time.
    fn repose_all(&mut self) {
        if !self.stale {
            return;
        }
        let rig = self.rig;
        for slot in 0..rig.preorder.len() {
            self.compose_world(rig.preorder[slot]);
        }
        self.stale = false;
    }

    fn write_skinning(&mut self) {
        for (i, b) in self.rig.bones.iter().enumerate() {
            self.skinning[i] = Mat4::from_rotation_translation(self.world_r[i], self.world_t[i])
                * Mat4::from_translation(-b.rest);
        }
    }

    /// The bone's world position (model space).
    pub fn world_position(&self, bone: usize) -> Vec3 {
        self.world_t[bone]
    }

    /// The bone's world rotation.
    pub fn world_rotation(&self, bone: usize) -> Quat {
        self.world_r[bone]
    }

    /// The bone's world transform as a matrix (column vectors: `M · p`).
    pub fn world_matrix(&self, bone: usize) -> Mat4 {
        Mat4::from_rotation_translation(self.world_r[bone], self.world_t[bone])
    }

    /// The bone's local translation: from its parent's origin, in the parent's frame (the
    /// rest offset plus motion, morph and append movement).
    pub fn local_translation(&self, bone: usize) -> Vec3 {
        self.local_t[bone]
    }

    /// The bone's local rotation, relative to its parent (IK × motion × morph × append).
    pub fn local_rotation(&self, bone: usize) -> Quat {
        self.local_r[bone]
    }

    /// The bone's skinning matrix: world × inverse(bind), which takes a rest-pose vertex
    /// to where the bone puts it.
    pub fn skinning_matrix(&self, bone: usize) -> Mat4 {
        self.skinning[bone]
    }

    /// The rotation IK added to the bone in this frame (none for a bone in no solved
    /// chain): the local rotation is `IK × motion × morph × append`.
    pub fn ik_rotation(&self, bone: usize) -> Quat {
        self.ik_r[bone]
    }

    /// Every bone's skinning matrix, in bone order.
    pub fn skinning_matrices(&self) -> &[Mat4] {
        &self.skinning
    }

    /// Every morph's weight in this frame, group morphs spread, in morph order.
    pub fn morph_weights(&self) -> &[f32] {
        &self.morph_weights
    }

    /// For a bone whose chain was solved in this frame, the effector's distance to the
    /// goal (the IK bone) before and after the solve; the solve keeps its closest
    /// iteration, so the second is never the larger. `None` for other bones.
    pub fn ik_distance(&self, bone: usize) -> Option<(f32, f32)> {
        self.ik_on
            .get(bone)
            .copied()
            .unwrap_or(false)
            .then(|| self.ik_distance[bone])
    }

    /// True when the bone's IK chain was solved in this frame (it has one, IK is allowed
    /// and the motion has it on).
    pub fn ik_solved(&self, bone: usize) -> bool {
        self.ik_on[bone]
    }
}

/// `q` normalised without glam's assertions: a quaternion of zero or non-finite length
/// gives none (the identity).
pub(super) fn unit(q: Quat) -> Quat {
    let len = q.length();
    if len.is_finite() && len > 0.0 {
        Quat::from_xyzw(q.x / len, q.y / len, q.z / len, q.w / len)
    } else {
        Quat::IDENTITY
    }
}

/// `q` raised to `w`: the same axis, `w` times the angle (`slerp(identity, q, w)` along
/// the short way, for any `w`). A rotation of no angle, or a result that is not finite,
/// is none.
pub(super) fn power(q: Quat, w: f32) -> Quat {
    let q = unit(q);
    let q = if q.w < 0.0 { -q } else { q };
    let v = Vec3::new(q.x, q.y, q.z);
    let s = v.length();
    if s.is_nan() || s <= 1e-12 {
        return Quat::IDENTITY;
    }
    let half = s.atan2(q.w) * w;
    let (sin, cos) = half.sin_cos();
    let axis = v / s;
    unit(Quat::from_xyzw(
        axis.x * sin,
        axis.y * sin,
        axis.z * sin,
        cos,
    ))
}
