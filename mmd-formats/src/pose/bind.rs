//! Binding an animation (a VMD motion, a VPD pose, or nothing) to a rig: each bone and
//! morph finds its track by exact name, and each IK bone its on/off switch.

use std::collections::{HashMap, HashSet};

use glam::{Quat, Vec3};

use super::rig::{unit_quat, Rig};
use crate::vmd::eval::Track;
use crate::vmd::{BoneKey, MorphKey, Vmd};
use crate::vpd;

/// What an animation gives one bone at a frame: a movement from the rest position and a
/// rotation, in the bone's parent space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoneSample {
    /// Movement (x, y, z) from the rest position.
    pub translation: Vec3,
    /// Rotation.
    pub rotation: Quat,
}

impl BoneSample {
    /// No movement, no rotation.
    pub const REST: BoneSample = BoneSample {
        translation: Vec3::ZERO,
        rotation: Quat::IDENTITY,
    };
}

/// An animation bound to a rig, ready to be sampled at any frame.
#[derive(Debug, Clone)]
pub struct Binding<'a> {
    source: Source<'a>,
    report: BindReport,
}

#[derive(Debug, Clone)]
enum Source<'a> {
    /// The bind pose.
    Rest,
    /// A motion: per bone and per morph its track (or none), per bone an IK switch.
    Motion {
        bones: Vec<Option<Track<'a, BoneKey>>>,
        morphs: Vec<Option<Track<'a, MorphKey>>>,
        /// Per bone: the (frame, enabled) steps of its IK switch, in frame order.
        ik: Vec<Vec<(u32, bool)>>,
    },
    /// A still pose.
    Still {
        bones: Vec<Option<BoneSample>>,
        morphs: Vec<Option<f32>>,
    },
}

/// How the animation's tracks bound to the model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BindReport {
    /// The animation's bone tracks (distinct names).
    pub bone_tracks: usize,
    /// How many of them bind to a bone.
    pub bone_bound: usize,
    /// The names of the bone tracks that bind to no bone, in first-seen order.
    pub bone_unbound: Vec<String>,
    /// The animation's morph tracks (distinct names).
    pub morph_tracks: usize,
    /// How many of them bind to a morph.
    pub morph_bound: usize,
    /// The names of the morph tracks that bind to no morph, in first-seen order.
    pub morph_unbound: Vec<String>,
    /// IK switches (distinct IK bone names in the IK block).
    pub ik_tracks: usize,
    /// How many of them bind to a bone with an IK chain.
    pub ik_bound: usize,
    /// The names of the IK switches that bind to no IK bone.
    pub ik_unbound: Vec<String>,
}

impl<'a> Binding<'a> {
    /// No animation: every bone at rest, every morph at 0, every IK on.
    pub fn rest() -> Binding<'static> {
        Binding {
            source: Source::Rest,
            report: BindReport::default(),
        }
    }

    /// A motion bound to `rig`. Bones and morphs bind to tracks whose name bytes (up to
    /// the NUL) equal the Shift_JIS form of their name exactly; with two bones of one
    /// name, both take the track. The IK block binds by the IK bone's name the same way;
    /// an IK bone with no switch stays on.
    pub fn vmd(rig: &Rig, vmd: &'a Vmd) -> Binding<'a> {
        let mut report = BindReport::default();
        let mut by_name: HashMap<&'a [u8], Vec<&'a BoneKey>> = HashMap::new();
        let mut names: Vec<&'a [u8]> = Vec::new();
        for k in &vmd.bone_keys {
            let name = k.name.name_bytes();
            by_name
                .entry(name)
                .or_insert_with(|| {
                    names.push(name);
                    Vec::new()
                })
                .push(k);
        }
        let bones: Vec<Option<Track<'a, BoneKey>>> = rig
            .bones
            .iter()
            .map(|b| {
                let keys = by_name.get(b.sjis.as_deref()?)?;
                Some(Track::new(keys.iter().copied()))
            })
            .collect();
        // Sets and maps, not scans: a hostile motion may name 10^6 tracks.
        let bone_names: HashSet<&[u8]> =
            rig.bones.iter().filter_map(|b| b.sjis.as_deref()).collect();
        tally(
            &names,
            |n| bone_names.contains(n),
            &mut report.bone_tracks,
            &mut report.bone_bound,
            &mut report.bone_unbound,
        );
        let mut by_morph: HashMap<&'a [u8], Vec<&'a MorphKey>> = HashMap::new();
        let mut morph_names: Vec<&'a [u8]> = Vec::new();
        for k in vmd.morph_keys.iter().flatten() {
            let name = k.name.name_bytes();
            by_morph
                .entry(name)
                .or_insert_with(|| {
                    morph_names.push(name);
                    Vec::new()
                })
                .push(k);
        }
        let morphs = rig
            .morphs
            .iter()
            .map(|m| {
                let keys = by_morph.get(m.sjis.as_deref()?)?;
                Some(Track::new(keys.iter().copied()))
            })
            .collect();
        let rig_morphs: HashSet<&[u8]> = rig
            .morphs
            .iter()
            .filter_map(|m| m.sjis.as_deref())
            .collect();
        tally(
            &morph_names,
            |n| rig_morphs.contains(n),
            &mut report.morph_tracks,
            &mut report.morph_bound,
            &mut report.morph_unbound,
        );
        // IK switches: the show/IK keys in frame order, the later in the file winning at
        // one frame (the track's own rule), each naming IK bones.
        let switches = vmd.show_ik_track();
        let mut ik: Vec<Vec<(u32, bool)>> = vec![Vec::new(); rig.bones.len()];
        let mut ik_bones: HashMap<&[u8], Vec<usize>> = HashMap::new();
        for (i, b) in rig.bones.iter().enumerate() {
            if let (Some(_), Some(name)) = (&b.ik, b.sjis.as_deref()) {
                ik_bones.entry(name).or_default().push(i);
            }
        }
        let mut ik_names: Vec<&'a [u8]> = Vec::new();
        let mut seen: HashSet<&'a [u8]> = HashSet::new();
        for key in switches.keys() {
            for state in &key.ik {
                let name = state.name.name_bytes();
                if seen.insert(name) {
                    ik_names.push(name);
                }
                for &i in ik_bones.get(name).map_or(&[][..], Vec::as_slice) {
                    ik[i].push((key.frame, state.enabled != 0));
                }
            }
        }
        tally(
            &ik_names,
            |n| ik_bones.contains_key(n),
            &mut report.ik_tracks,
            &mut report.ik_bound,
            &mut report.ik_unbound,
        );
        Binding {
            source: Source::Motion { bones, morphs, ik },
            report,
        }
    }

    /// A still pose (VPD) bound to `rig` by exact bone and morph name. Every IK stays on
    /// (a pose has no IK block). A rotation of zero or non-finite length is none.
    pub fn vpd(rig: &Rig, pose: &'a vpd::Pose) -> Binding<'a> {
        let mut report = BindReport::default();
        // The last block of a name wins, as a later key does in a motion.
        let pose_bones: HashMap<&str, &vpd::BonePose> =
            pose.bones.iter().map(|p| (p.name.as_str(), p)).collect();
        let pose_morphs: HashMap<&str, f32> = pose
            .morphs
            .iter()
            .map(|p| (p.name.as_str(), p.weight))
            .collect();
        let bones = rig
            .bones
            .iter()
            .map(|b| {
                pose_bones.get(b.name.as_str()).map(|p| BoneSample {
                    translation: Vec3::from(p.translation),
                    rotation: unit_quat(p.rotation),
                })
            })
            .collect();
        let morphs = rig
            .morphs
            .iter()
            .map(|m| pose_morphs.get(m.name.as_str()).copied())
            .collect();
        let bone_names: HashSet<&str> = rig.bones.iter().map(|b| b.name.as_str()).collect();
        let morph_names: HashSet<&str> = rig.morphs.iter().map(|m| m.name.as_str()).collect();
        let mut seen: HashSet<&str> = HashSet::new();
        for p in &pose.bones {
            if !seen.insert(&p.name) {
                continue;
            }
            report.bone_tracks += 1;
            if bone_names.contains(p.name.as_str()) {
                report.bone_bound += 1;
            } else {
                report.bone_unbound.push(p.name.clone());
            }
        }
        seen.clear();
        for p in &pose.morphs {
            if !seen.insert(&p.name) {
                continue;
            }
            report.morph_tracks += 1;
            if morph_names.contains(p.name.as_str()) {
                report.morph_bound += 1;
            } else {
                report.morph_unbound.push(p.name.clone());
            }
        }
        Binding {
            source: Source::Still { bones, morphs },
            report,
        }
    }

    /// How the tracks bound.
    pub fn report(&self) -> &BindReport {
        &self.report
    }

    /// The motion's value for `bone` at `frame` (rest when it has no track).
    pub fn bone(&self, bone: usize, frame: f64) -> BoneSample {
        match &self.source {
            Source::Rest => BoneSample::REST,
            Source::Motion { bones, .. } => bones
                .get(bone)
                .and_then(Option::as_ref)
                .and_then(|t| t.sample(frame))
                .map_or(BoneSample::REST, |s| BoneSample {
                    translation: Vec3::from(s.position),
                    rotation: Quat::from_array(s.rotation),
                }),
            Source::Still { bones, .. } => bones
                .get(bone)
                .copied()
                .flatten()
                .unwrap_or(BoneSample::REST),
        }
    }

    /// The animation's own weight for `morph` at `frame` (0 when it has no track; group
    /// morphs are not applied here).
    pub fn morph(&self, morph: usize, frame: f64) -> f32 {
        match &self.source {
            Source::Rest => 0.0,
            Source::Motion { morphs, .. } => morphs
                .get(morph)
                .and_then(Option::as_ref)
                .and_then(|t| t.sample(frame))
                .unwrap_or(0.0),
            Source::Still { morphs, .. } => morphs.get(morph).copied().flatten().unwrap_or(0.0),
        }
    }

    /// Whether the IK of `bone` is on at `frame`: the last switch at or before the frame,
    /// the first switch before the first (a step track clamped at its first key), on
    /// when the bone has no switch.
    pub fn ik_enabled(&self, bone: usize, frame: f64) -> bool {
        let Source::Motion { ik, .. } = &self.source else {
            return true;
        };
        let Some(steps) = ik.get(bone) else {
            return true;
        };
        let Some(&(_, first)) = steps.first() else {
            return true;
        };
        if frame.is_nan() {
            return first;
        }
        let at = steps.partition_point(|&(f, _)| f64::from(f) <= frame);
        match at.checked_sub(1).and_then(|i| steps.get(i)) {
            Some(&(_, on)) => on,
            None => first,
        }
    }
}

/// Counts distinct track names and names the unbound ones.
fn tally(
    names: &[&[u8]],
    bound: impl Fn(&[u8]) -> bool,
    total: &mut usize,
    count: &mut usize,
    unbound: &mut Vec<String>,
) {
    for &n in names {
        *total += 1;
        if bound(n) {
            *count += 1;
        } else {
            unbound.push(crate::text::decode_sjis(n).into_owned());
        }
    }
}
