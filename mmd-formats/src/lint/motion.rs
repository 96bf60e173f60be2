//! The checks of a motion (VMD) or pose (VPD), alone or bound to a model.

use std::collections::{HashMap, HashSet};

use super::shared::{far_from_unit, sjis};
use super::{finding, Finding, Model};
use crate::pmx::BoneFlags;
use crate::text::decode_sjis;
use crate::vmd::{Interpolation, Vmd};
use crate::vpd::Vpd;

/// What a motion binds to: the model's bone and morph names as Shift_JIS bytes (the way
/// VMD and VPD name them), its IK bones and the bones physics drives.
struct Binding {
    bones: HashMap<Vec<u8>, usize>,
    morphs: HashSet<Vec<u8>>,
    ik: HashSet<usize>,
    physics: HashSet<usize>,
}

impl Binding {
    fn of(model: Model<'_>) -> Self {
        match model {
            Model::Pmx(m) => {
                let mut bones = HashMap::new();
                let mut ik = HashSet::new();
                for (i, b) in m.bones.iter().enumerate() {
                    if let Some(name) = sjis(&b.name.to_string_lossy()) {
                        // Players bind a duplicate name to the last bone (W015 says so).
                        bones.insert(name, i);
                    }
                    if b.flags.contains(BoneFlags::IK) {
                        ik.insert(i);
                    }
                }
                let morphs = m
                    .morphs
                    .iter()
                    .filter_map(|x| sjis(&x.name.to_string_lossy()))
                    .collect();
                let physics = m.physics_bones().bones().collect();
                Binding {
                    bones,
                    morphs,
                    ik,
                    physics,
                }
            }
            Model::Pmd(m) => {
                let bones = m
                    .bones
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (b.name.name_bytes().to_vec(), i))
                    .collect();
                let morphs = m
                    .morphs
                    .iter()
                    .map(|x| x.name.name_bytes().to_vec())
                    .collect();
                let mut ik: HashSet<usize> =
                    m.ik_chains.iter().map(|c| usize::from(c.ik_bone)).collect();
                ik.extend(
                    m.bones
                        .iter()
                        .enumerate()
                        .filter(|(_, b)| b.bone_type == 2)
                        .map(|(i, _)| i),
                );
                let physics = m
                    .rigid_bodies
                    .as_deref()
                    .unwrap_or_default()
                    .iter()
                    .filter(|r| r.mode != 0)
                    .filter_map(|r| r.bone_index())
                    .map(usize::from)
                    .filter(|&b| b < m.bones.len())
                    .collect();
                Binding {
                    bones,
                    morphs,
                    ik,
                    physics,
                }
            }
        }
    }
}

/// A track of a motion or pose: its name bytes, the path of its first key, how many keys
/// it has, and how many of them leave physics on.
struct Track {
    first: String,
    keys: usize,
    physics_on: usize,
}

/// Groups keys by name, in order of first appearance.
fn tracks<'a>(keys: impl Iterator<Item = (&'a [u8], String, bool)>) -> Vec<(&'a [u8], Track)> {
    let mut order: Vec<(&[u8], Track)> = Vec::new();
    let mut at: HashMap<&[u8], usize> = HashMap::new();
    for (name, path, physics_on) in keys {
        let i = *at.entry(name).or_insert_with(|| {
            order.push((
                name,
                Track {
                    first: path,
                    keys: 0,
                    physics_on: 0,
                },
            ));
            order.len() - 1
        });
        let t = &mut order[i].1;
        t.keys += 1;
        t.physics_on += usize::from(physics_on);
    }
    order
}

fn keys(n: usize) -> String {
    if n == 1 {
        "1 key".into()
    } else {
        format!("{n} keys")
    }
}

/// W022 / W023 / W019 for the bone and morph tracks of a motion or pose.
fn bind(
    out: &mut Vec<Finding>,
    binding: &Binding,
    bones: Vec<(&[u8], Track)>,
    morphs: Vec<(&[u8], Track)>,
    what: &str,
) {
    for (name, t) in &bones {
        let shown = decode_sjis(name);
        match binding.bones.get(*name) {
            None => out.push(finding(
                "W022",
                t.first.clone(),
                format!(
                    "bone track {shown:?} ({}) names no bone of the model, so it moves nothing",
                    keys(t.keys)
                ),
            )),
            Some(b) if binding.physics.contains(b) && t.physics_on > 0 => out.push(finding(
                "W019",
                t.first.clone(),
                format!(
                    "{shown:?} is driven by physics; the {what} keys it ({} with physics on), \
                     and physics overrides them",
                    keys(t.physics_on)
                ),
            )),
            Some(_) => {}
        }
    }
    for (name, t) in &morphs {
        if !binding.morphs.contains(*name) {
            out.push(finding(
                "W023",
                t.first.clone(),
                format!(
                    "morph track {:?} ({}) names no morph of the model, so it changes nothing",
                    decode_sjis(name),
                    keys(t.keys)
                ),
            ));
        }
    }
}

/// W025: the second and later keys with the same `(track, frame)` as an earlier one and a
/// different value (`same(i, j)` says whether keys `i` and `j` are equal: a repeated key
/// with the same value plays the same whichever a player takes).
fn duplicates(
    out: &mut Vec<Finding>,
    block: &str,
    keys: &[(&[u8], u32)],
    track_shown: bool,
    same: impl Fn(usize, usize) -> bool,
) {
    let mut first: HashMap<(&[u8], u32), usize> = HashMap::new();
    for (i, key) in keys.iter().enumerate() {
        match first.get(key) {
            Some(&j) if !same(i, j) => {
                let track = if track_shown {
                    format!("track {:?}, ", decode_sjis(key.0))
                } else {
                    String::new()
                };
                out.push(finding(
                    "W025",
                    format!("{block}[{i}].frame"),
                    format!(
                        "{track}frame {} is also keyed by {block}[{j}] with another value; \
                         players differ on which key applies",
                        key.1
                    ),
                ));
            }
            Some(_) => {}
            None => {
                first.insert(*key, i);
            }
        }
    }
}

/// W025 over one block: `track` names a key's track (nothing for camera, light,
/// self-shadow and IK keys), `value` gives the bits of everything else but the frame.
fn block_duplicates<T>(
    out: &mut Vec<Finding>,
    block: &str,
    keys: &[T],
    track: impl Fn(&T) -> &[u8],
    frame: impl Fn(&T) -> u32,
    value: impl Fn(&T) -> Vec<u32>,
) {
    let framed: Vec<(&[u8], u32)> = keys.iter().map(|k| (track(k), frame(k))).collect();
    let named = keys.iter().any(|k| !track(k).is_empty());
    duplicates(out, block, &framed, named, |i, j| {
        value(&keys[i]) == value(&keys[j])
    });
}

/// The bits of floats (a NaN equals itself) and bytes, for comparing keys.
fn bits<'a>(floats: impl IntoIterator<Item = &'a f32>, bytes: &[u8]) -> Vec<u32> {
    let mut b: Vec<u32> = floats.into_iter().map(|x| x.to_bits()).collect();
    b.extend(bytes.iter().map(|&x| u32::from(x)));
    b
}

fn rotation(out: &mut Vec<Finding>, path: String, q: [f32; 4]) {
    if let Some(len) = far_from_unit(q) {
        out.push(finding(
            "W026",
            path,
            format!("rotation {q:?} has length {len}, not 1: it is not a rotation"),
        ));
    }
}

pub fn check_vmd(v: &Vmd, model: Option<Model<'_>>) -> Vec<Finding> {
    let mut out = Vec::new();
    let morph_keys = v.morph_keys.as_deref().unwrap_or_default();
    let camera_keys = v.camera_keys.as_deref().unwrap_or_default();
    block_duplicates(
        &mut out,
        "bone_keys",
        &v.bone_keys,
        |k| k.name.name_bytes(),
        |k| k.frame,
        |k| bits(k.position.iter().chain(&k.rotation), &k.interpolation),
    );
    for (i, key) in v.bone_keys.iter().enumerate() {
        rotation(&mut out, format!("bone_keys[{i}].rotation"), key.rotation);
        let values = Interpolation::from_bytes(&key.interpolation).values();
        if let Some(high) = values.iter().find(|&&x| x > 127) {
            out.push(finding(
                "W027",
                format!("bone_keys[{i}].interpolation"),
                format!("a control point is {high}; curves run from 0 to 127"),
            ));
        }
    }
    block_duplicates(
        &mut out,
        "morph_keys",
        morph_keys,
        |k| k.name.name_bytes(),
        |k| k.frame,
        |k| bits([&k.weight], &[]),
    );
    block_duplicates(
        &mut out,
        "camera_keys",
        camera_keys,
        |_| &[],
        |k| k.frame,
        |k| {
            let floats = std::iter::once(&k.distance)
                .chain(&k.target)
                .chain(&k.rotation);
            let mut b = bits(floats, &k.interpolation);
            b.extend([k.fov, u32::from(k.perspective)]);
            b
        },
    );
    for (i, key) in camera_keys.iter().enumerate() {
        if let Some(high) = key.interpolation.iter().find(|&&x| x > 127) {
            out.push(finding(
                "W027",
                format!("camera_keys[{i}].interpolation"),
                format!("a control point is {high}; curves run from 0 to 127"),
            ));
        }
        if key.fov == 0 {
            out.push(finding(
                "W028",
                format!("camera_keys[{i}].fov"),
                "the field of view is 0 degrees: the camera shows nothing",
            ));
        }
    }
    let light = v.light_keys.as_deref().unwrap_or_default();
    block_duplicates(
        &mut out,
        "light_keys",
        light,
        |_| &[],
        |k| k.frame,
        |k| bits(k.color.iter().chain(&k.direction), &[]),
    );
    let shadow = v.self_shadow_keys.as_deref().unwrap_or_default();
    block_duplicates(
        &mut out,
        "self_shadow_keys",
        shadow,
        |_| &[],
        |k| k.frame,
        |k| bits([&k.distance], &[k.mode]),
    );
    let show_ik = v.show_ik_keys.as_deref().unwrap_or_default();
    block_duplicates(
        &mut out,
        "show_ik_keys",
        show_ik,
        |_| &[],
        |k| k.frame,
        |k| {
            let mut b = vec![u32::from(k.show)];
            for s in &k.ik {
                b.extend(s.name.name_bytes().iter().map(|&x| u32::from(x)));
                b.extend([0x100, u32::from(s.enabled)]);
            }
            b
        },
    );
    let Some(model) = model else { return out };
    let binding = Binding::of(model);
    let bones = tracks(v.bone_keys.iter().enumerate().map(|(i, k)| {
        (
            k.name.name_bytes(),
            format!("bone_keys[{i}].name"),
            !k.physics_off(),
        )
    }));
    let morphs = tracks(
        morph_keys
            .iter()
            .enumerate()
            .map(|(i, k)| (k.name.name_bytes(), format!("morph_keys[{i}].name"), false)),
    );
    bind(&mut out, &binding, bones, morphs, "motion");
    let mut reported = HashSet::new();
    for (i, key) in show_ik.iter().enumerate() {
        for (j, state) in key.ik.iter().enumerate() {
            let name = state.name.name_bytes();
            let is_ik = binding
                .bones
                .get(name)
                .is_some_and(|b| binding.ik.contains(b));
            if !is_ik && reported.insert(name) {
                let why = if binding.bones.contains_key(name) {
                    "is not an IK bone"
                } else {
                    "names no bone of the model"
                };
                out.push(finding(
                    "W024",
                    format!("show_ik_keys[{i}].ik[{j}].name"),
                    format!(
                        "IK switch {:?} {why}, so it turns nothing on or off",
                        decode_sjis(name)
                    ),
                ));
            }
        }
    }
    out
}

pub fn check_vpd(v: &Vpd, model: Option<Model<'_>>) -> Vec<Finding> {
    let mut out = Vec::new();
    let pose = v.pose();
    let bone_names: Vec<&[u8]> = (0..v.bone_count())
        .map(|i| v.bone_name_bytes(i).unwrap_or_default())
        .collect();
    let morph_names: Vec<&[u8]> = (0..v.morph_count())
        .map(|i| v.morph_name_bytes(i).unwrap_or_default())
        .collect();
    let bone_values: Vec<Vec<u32>> = pose
        .bones
        .iter()
        .map(|b| bits(b.translation.iter().chain(&b.rotation), &[]))
        .collect();
    let morph_values: Vec<Vec<u32>> = pose.morphs.iter().map(|m| bits([&m.weight], &[])).collect();
    pose_duplicates(&mut out, "bones", &bone_names, &bone_values);
    pose_duplicates(&mut out, "morphs", &morph_names, &morph_values);
    for (i, bone) in pose.bones.iter().enumerate() {
        rotation(&mut out, format!("bones[{i}].rotation"), bone.rotation);
    }
    let Some(model) = model else { return out };
    let binding = Binding::of(model);
    let bones = tracks(
        bone_names
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, format!("bones[{i}].name"), true)),
    );
    let morphs = tracks(
        morph_names
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, format!("morphs[{i}].name"), false)),
    );
    bind(&mut out, &binding, bones, morphs, "pose");
    out
}

/// W025 for a pose: a second entry for the same bone or morph with another value.
fn pose_duplicates(out: &mut Vec<Finding>, section: &str, names: &[&[u8]], values: &[Vec<u32>]) {
    let mut first: HashMap<&[u8], usize> = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        match first.get(name) {
            Some(&j) if values.get(i) != values.get(j) => out.push(finding(
                "W025",
                format!("{section}[{i}].name"),
                format!(
                    "{:?} is also posed by {section}[{j}] with another value; players differ on \
                     which applies",
                    decode_sjis(name)
                ),
            )),
            Some(_) => {}
            None => {
                first.insert(name, i);
            }
        }
    }
}
