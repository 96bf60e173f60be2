//! The CCD IK solver (see the module docs for the rules and where they come from).

use glam::{EulerRot, Quat, Vec3};

use super::eval::{unit, Evaluator};
use super::rig::{IkChain, IkLink};

/// Below this angle (radians) a link is not turned: saba's 1e-3 degrees.
const MIN_TURN: f32 = 1.0e-3 * std::f32::consts::PI / 180.0;

/// A first solve ending farther than this from the goal is tried again from half bent.
const RETRY: f32 = 1.0e-4;

/// The most bone re-posings one solve of one chain runs (links × path × iterations):
/// 2^22, about 40,000 times what a leg of 40 iterations needs; only a hostile chain of
/// thousands of links reaches it, and runs fewer iterations.
pub const IK_BUDGET: u64 = 1 << 22;

/// The effector is at the goal: no iteration is needed.
const REACHED: f32 = 1.0e-6;

/// The one axis a link's limits leave free, if exactly one: 0 = X, 1 = Y, 2 = Z.
fn free_axis(lo: Vec3, hi: Vec3) -> Option<usize> {
    let free = |k: usize| lo[k] != 0.0 || hi[k] != 0.0;
    match (free(0), free(1), free(2)) {
        (true, false, false) => Some(0),
        (false, true, false) => Some(1),
        (false, false, true) => Some(2),
        _ => None,
    }
}

fn unit_axis(k: usize) -> Vec3 {
    match k {
        0 => Vec3::X,
        1 => Vec3::Y,
        _ => Vec3::Z,
    }
}

impl Evaluator<'_> {
    /// Solves the chain `goal` owns and re-poses the links' subtrees.
    ///
    /// CCD from the links' own rotations (IK none); when that does not reach the goal and
    /// the chain has a one-axis link (a knee), CCD again with those links starting half
    /// way through their range, as saba's solver starts them, keeping the closer result.
    /// From straight, CCD bends a leg whose goal is just closer than its reach by a few
    /// thousandths of a radian an iteration (miku_v2 + wavefile_v2 frame 300: 0.42 → 0.22
    /// after 40 iterations); from half bent it can settle on the far side of a two-way
    /// choice. Neither start wins on every fixture pair; the better of the two does.
    pub(super) fn solve_ik(&mut self, goal: usize) {
        let rig = self.rig;
        let Some(chain) = rig.bones[goal].ik.as_ref() else {
            return;
        };
        let target = self.world_t[goal];
        self.build_path(chain);
        self.solve_path(goal, chain, target);
        self.clear_path();
    }

    /// [`solve_ik`](Self::solve_ik) once the path is built.
    fn solve_path(&mut self, goal: usize, chain: &IkChain, target: Vec3) {
        let start = self.reset_chain(&chain.links, false, chain.effector, target);
        self.ik_distance[goal] = (start, start);
        if start.is_nan() || start <= REACHED {
            return;
        }
        let first = self.run_ccd(chain, target, start);
        let one_axis = chain
            .links
            .iter()
            .any(|l| l.limits.is_some_and(|(lo, hi)| free_axis(lo, hi).is_some()));
        if one_axis && first > RETRY {
            for link in &chain.links {
                self.alt_ik[link.bone] = self.ik_r[link.bone];
            }
            let from = self.reset_chain(&chain.links, true, chain.effector, target);
            let second = self.run_ccd(chain, target, from);
            if second >= first || second.is_nan() {
                for link in &chain.links {
                    self.ik_r[link.bone] = self.alt_ik[link.bone];
                }
                self.repose(&chain.links);
            }
        }
        self.ik_distance[goal] = (start, (self.world_t[chain.effector] - target).length());
    }

    /// Sets the links' IK rotations to none (or, with `mid`, the one-axis links to the
    /// middle of their range), re-poses them, and gives the effector's distance.
    fn reset_chain(&mut self, links: &[IkLink], mid: bool, effector: usize, target: Vec3) -> f32 {
        for link in links {
            self.ik_r[link.bone] = Quat::IDENTITY;
            self.plane_angle[link.bone] = 0.0;
            if let (true, Some((lo, hi, axis))) = (
                mid,
                link.limits
                    .and_then(|(lo, hi)| Some((lo, hi, free_axis(lo, hi)?))),
            ) {
                let half = 0.5 * (lo[axis] + hi[axis]);
                self.plane_angle[link.bone] = half;
                let base = self.anim_r[link.bone] * self.append_r[link.bone];
                self.ik_r[link.bone] =
                    unit(Quat::from_axis_angle(unit_axis(axis), half) * base.conjugate());
            }
        }
        self.repose(links);
        (self.world_t[effector] - target).length()
    }

    /// Composes the links' local transforms and re-poses the path to the effector (the
    /// links off it, only themselves).
    fn repose(&mut self, links: &[IkLink]) {
        for link in links {
            self.compose_local(link.bone);
            if self.path_pos[link.bone] == usize::MAX {
                self.compose_world(link.bone);
            }
        }
        for k in 0..self.path.len() {
            self.compose_world(self.path[k]);
        }
    }

    /// Re-poses `bone` and, when it is on the path, the path below it to the effector.
    fn repose_from(&mut self, bone: usize) {
        let at = self.path_pos[bone];
        if at == usize::MAX {
            self.compose_world(bone);
            return;
        }
        for k in at..self.path.len() {
            self.compose_world(self.path[k]);
        }
    }

    /// Fills the path: the effector's ancestors, from the highest link among them down to
    /// the effector. Bounded by the tree's depth (the parents have no cycle).
    fn build_path(&mut self, chain: &IkChain) {
        let rig = self.rig;
        self.path.clear();
        let mut cur = Some(chain.effector);
        while let Some(b) = cur {
            // At most every bone once: `path` never outgrows its capacity.
            if self.path.len() == rig.bones.len() {
                break;
            }
            self.path.push(b);
            cur = rig.bones[b].parent;
        }
        let is_link = |b: usize| chain.links.iter().any(|l| l.bone == b);
        let top = (0..self.path.len()).rev().find(|&k| is_link(self.path[k]));
        self.path.truncate(top.map_or(1, |k| k + 1));
        self.path.reverse();
        for k in 0..self.path.len() {
            self.path_pos[self.path[k]] = k;
        }
    }

    fn clear_path(&mut self) {
        for k in 0..self.path.len() {
            self.path_pos[self.path[k]] = usize::MAX;
        }
        self.path.clear();
    }

    /// CCD iterations from the current state, whose distance is `from`; leaves the chain
    /// at its closest state (the current one included) and gives that distance.
    fn run_ccd(&mut self, chain: &IkChain, target: Vec3, from: f32) -> f32 {
        let mut best = from;
        self.save(&chain.links);
        if best.is_nan() || best <= REACHED {
            return best;
        }
        // Work budget: a step re-poses at most the path, so an iteration costs at most
        // links × path; a hostile chain gets fewer iterations (at least one).
        let per_iteration = (chain.links.len() as u64).saturating_mul(self.path.len() as u64);
        let loops = u64::from(chain.loops).min((IK_BUDGET / per_iteration.max(1)).max(1));
        for iteration in 0..loops as u32 {
            for (k, link) in chain.links.iter().enumerate() {
                if link.bone == chain.effector {
                    continue;
                }
                // k < links.len() ≤ i32::MAX in a file, so the product is finite.
                let limit = chain.unit_angle * (k as f32 + 1.0);
                self.turn(link, chain.effector, target, limit, iteration);
            }
            let d = (self.world_t[chain.effector] - target).length();
            if d < best {
                best = d;
                self.save(&chain.links);
                if best <= REACHED {
                    break;
                }
            }
        }
        // The last iteration was not the closest (or gave NaN): back to the best one.
        let last = (self.world_t[chain.effector] - target).length();
        if last.is_nan() || last > best {
            for link in &chain.links {
                self.ik_r[link.bone] = self.saved_ik[link.bone];
            }
            self.repose(&chain.links);
        }
        best
    }

    fn save(&mut self, links: &[IkLink]) {
        for link in links {
            self.saved_ik[link.bone] = self.ik_r[link.bone];
        }
    }

    /// One CCD step of one link.
    fn turn(&mut self, link: &IkLink, effector: usize, target: Vec3, limit: f32, iteration: u32) {
        let b = link.bone;
        let inv = self.world_r[b].conjugate();
        let to_effector = (inv * (self.world_t[effector] - self.world_t[b])).normalize_or_zero();
        let to_target = (inv * (target - self.world_t[b])).normalize_or_zero();
        if to_effector == Vec3::ZERO || to_target == Vec3::ZERO {
            return;
        }
        // atan2 of sine and cosine, not acos of the cosine: in f32, acos loses every
        // angle below about 3e-4 rad (cos rounds to 1), which stalls a nearly straight
        // leg whose goal is just out of reach.
        let angle = to_effector
            .cross(to_target)
            .length()
            .atan2(to_effector.dot(to_target));
        let angle = angle.min(limit.abs());
        // The rotation that is not the IK's: motion, morph and append.
        let base = self.anim_r[b] * self.append_r[b];
        let full = match link
            .limits
            .and_then(|(lo, hi)| Some((lo, hi, free_axis(lo, hi)?)))
        {
            Some((lo, hi, axis)) => {
                // One free axis: turn about it, the way that brings the effector closer.
                let a = unit_axis(axis);
                let closer = (Quat::from_axis_angle(a, angle) * to_effector).dot(to_target)
                    > (Quat::from_axis_angle(a, -angle) * to_effector).dot(to_target);
                let mut value = self.plane_angle[b] + if closer { angle } else { -angle };
                let (min, max) = (lo[axis], hi[axis]);
                if iteration == 0 && !(min..=max).contains(&value) {
                    if -value > min && -value < max {
                        value = -value;
                    } else {
                        let half = (min + max) * 0.5;
                        if (half - value).abs() > (half + value).abs() {
                            value = -value;
                        }
                    }
                }
                let value = value.clamp(min, max);
                self.plane_angle[b] = value;
                Quat::from_axis_angle(a, value)
            }
            None => {
                if angle.is_nan() || angle < MIN_TURN {
                    return;
                }
                let axis = to_effector.cross(to_target).normalize_or_zero();
                if axis == Vec3::ZERO {
                    return;
                }
                let full = self.local_r[b] * Quat::from_axis_angle(axis, angle);
                match link.limits {
                    Some((lo, hi)) => {
                        let (x, y, z) = full.to_euler(EulerRot::XYZ);
                        let c = Vec3::new(x, y, z).clamp(lo, hi);
                        Quat::from_euler(EulerRot::XYZ, c.x, c.y, c.z)
                    }
                    None => full,
                }
            }
        };
        self.ik_r[b] = unit(full * base.conjugate());
        self.compose_local(b);
        self.repose_from(b);
    }
}
