//! Baking IK into a motion: rotation keys for every IK link at every frame, and every IK
//! switched off, so that the motion played with IK off poses the model as the original
//! does with IK on.

use glam::Quat;

use super::bind::Binding;
use super::eval::Evaluator;
use super::rig::Rig;
use crate::text::ShiftJis;
use crate::vmd::{BoneKey, IkState, ShowIkKey, Vmd};

/// The most keys a bake writes (111 bytes each: 4 million is a file of 444 MB, far past
/// any real motion; a hostile motion whose last key is at frame 4 × 10^9 would ask for
/// more than memory holds).
pub const MAX_BAKED_KEYS: u64 = 4_000_000;

/// A bake that would write more than [`MAX_BAKED_KEYS`] keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooManyKeys {
    /// The keys it would write: links × frames.
    pub keys: u64,
}

impl std::fmt::Display for TooManyKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "baking would write {} keys (IK links × frames), more than the {MAX_BAKED_KEYS} \
             allowed",
            self.keys
        )
    }
}

impl std::error::Error for TooManyKeys {}

/// What [`bake_ik`] did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BakeReport {
    /// The first frame baked (the motion's first bone key; 0 without bone keys).
    pub start: u32,
    /// The last frame baked.
    pub end: u32,
    /// The IK link bones baked, by name, in bone order.
    pub links: Vec<String>,
    /// The keys added (one per link and frame).
    pub added: usize,
    /// The motion's own keys of those bones, replaced.
    pub replaced: usize,
    /// IK bones switched off, by name.
    pub switched_off: Vec<String>,
    /// IK bones left on, by name: the IK bone's name has no Shift_JIS form of at most 20
    /// bytes (the IK block's field), or a link's has none of at most 15 (a bone key's), so
    /// no VMD can switch the chain off or key the link; such a chain keeps solving.
    pub kept_on: Vec<String>,
    /// The names, among those chains' bones, that no VMD can hold.
    pub skipped: Vec<String>,
}

/// `vmd` with IK baked for `rig`: each bone that is a link of an IK chain gets a key at
/// every frame from the motion's first to its last bone key, holding the rotation the IK
/// gives it (the IK rotation times the motion's own, so that with IK off the bone's local
/// rotation is what it was with IK on: `IK × motion × morph × append`) and the motion's
/// own movement, with linear curves; its old keys go. Every IK / show key then switches
/// each of those IK bones off (a key at the first frame is added when the motion has
/// none; such a key holds before it too). Between two whole frames the baked motion
/// interpolates linearly where the original solved IK; at whole frames it matches.
///
/// Fails, before anything is computed, when it would write more than
/// [`MAX_BAKED_KEYS`] keys.
pub fn bake_ik(rig: &Rig, vmd: &Vmd) -> Result<(Vmd, BakeReport), TooManyKeys> {
    let mut report = BakeReport::default();
    let (start, end) = match (
        vmd.bone_keys.iter().map(|k| k.frame).min(),
        vmd.bone_keys.iter().map(|k| k.frame).max(),
    ) {
        (Some(a), Some(b)) => (a, b),
        _ => (0, 0),
    };
    report.start = start;
    report.end = end;
    // The chains that can be baked: the IK bone's name fits the IK block and every link's
    // fits a bone key. The others stay on.
    let mut is_link = vec![false; rig.bones.len()];
    let mut off: Vec<ShiftJis<20>> = Vec::new();
    for b in &rig.bones {
        let Some(chain) = &b.ik else { continue };
        let switch = ShiftJis::<20>::new(&b.name).ok();
        let unnamed: Vec<String> = chain
            .links
            .iter()
            .map(|l| &rig.bones[l.bone].name)
            .filter(|n| ShiftJis::<15>::new(n).is_err())
            .cloned()
            .collect();
        match switch {
            Some(name) if unnamed.is_empty() => {
                for link in &chain.links {
                    is_link[link.bone] = true;
                }
                if !off.contains(&name) {
                    off.push(name);
                    report.switched_off.push(b.name.clone());
                }
            }
            _ => {
                report.kept_on.push(b.name.clone());
                if switch.is_none() {
                    report.skipped.push(b.name.clone());
                }
                report.skipped.extend(unnamed);
            }
        }
    }
    // One key track per name: bones sharing a name share a track, so only the first of
    // them is baked.
    let mut links: Vec<(usize, ShiftJis<15>)> = Vec::new();
    for (i, b) in rig.bones.iter().enumerate() {
        if !is_link[i] {
            continue;
        }
        if let Ok(name) = ShiftJis::<15>::new(&b.name) {
            if !links.iter().any(|(_, n)| n == &name) {
                links.push((i, name));
                report.links.push(b.name.clone());
            }
        }
    }
    let frames = u64::from(end - start) + 1;
    let keys = frames.saturating_mul(links.len() as u64);
    if keys > MAX_BAKED_KEYS {
        return Err(TooManyKeys { keys });
    }
    let binding = Binding::vmd(rig, vmd);
    let mut eval = Evaluator::new(rig);
    // At most MAX_BAKED_KEYS, checked above.
    let mut baked: Vec<BoneKey> = Vec::with_capacity(keys as usize);
    for frame in start..=end {
        eval.evaluate(&binding, f64::from(frame));
        for (bone, name) in &links {
            let s = binding.bone(*bone, f64::from(frame));
            let motion = super::eval::unit(s.rotation);
            let rotation: Quat = super::eval::unit(eval.ik_rotation(*bone) * motion);
            baked.push(BoneKey::new(
                *name,
                frame,
                s.translation.to_array(),
                rotation.to_array(),
            ));
        }
    }
    let mut out = vmd.clone();
    let before = out.bone_keys.len();
    out.bone_keys.retain(|k| {
        !links
            .iter()
            .any(|(_, n)| k.name.name_bytes() == n.name_bytes())
    });
    report.replaced = before - out.bone_keys.len();
    report.added = baked.len();
    out.bone_keys.extend(baked);
    let keys = out.show_ik_keys.get_or_insert_with(Vec::new);
    if keys.is_empty() {
        keys.push(ShowIkKey {
            frame: start,
            show: 1,
            ik: Vec::new(),
        });
    }
    for key in keys.iter_mut() {
        for state in &mut key.ik {
            if off
                .iter()
                .any(|n| n.name_bytes() == state.name.name_bytes())
            {
                state.enabled = 0;
            }
        }
        for name in &off {
            if !key
                .ik
                .iter()
                .any(|s| s.name.name_bytes() == name.name_bytes())
            {
                key.ik.push(IkState {
                    name: *name,
                    enabled: 0,
                });
            }
        }
    }
    Ok((out, report))
}
