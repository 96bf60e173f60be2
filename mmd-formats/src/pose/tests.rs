//! Hand-computed cases, one (or more) per rule of the module docs. Every model is built
//! here; each expected value is worked out in the comment above its assertion.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use glam::{EulerRot, Quat, Vec3};

use super::*;
use crate::pmd::{self, Pmd};
use crate::pmx::{
    Bone, BoneFlags, BoneOffset, BoneTail, GroupOffset, Ik, IkLink as PmxIkLink, Inherit, Morph,
    MorphOffsets, Pmx, PmxContext,
};
use crate::vmd::{BoneKey, IkState, MorphKey, ShowIkKey, Vmd};
use crate::{BoneIndex, MorphIndex, PmxText, ShiftJis, TextEncoding};

fn text(s: &str) -> PmxText {
    PmxText::new(s, TextEncoding::Utf16Le)
}

fn bone(name: &str, position: [f32; 3], parent: i32) -> Bone {
    Bone {
        name: text(name),
        name_en: text(""),
        position,
        parent: BoneIndex::from_raw(parent),
        layer: 0,
        flags: BoneFlags::ROTATABLE,
        tail: BoneTail::Offset([0.0; 3]),
        inherit: None,
        fixed_axis: None,
        local_axes: None,
        external_parent: None,
        ik: None,
    }
}

fn appended(mut b: Bone, source: i32, weight: f32, flags: BoneFlags) -> Bone {
    b.flags = BoneFlags(b.flags.0 | flags.0);
    b.inherit = Some(Inherit {
        parent: BoneIndex::from_raw(source),
        weight,
    });
    b
}

fn model(bones: Vec<Bone>) -> Pmx {
    let mut pmx = Pmx::new("test", &PmxContext::default());
    pmx.bones = bones;
    pmx
}

fn key(name: &str, frame: u32, position: [f32; 3], rotation: Quat) -> BoneKey {
    BoneKey::new(
        ShiftJis::new(name).unwrap(),
        frame,
        position,
        rotation.to_array(),
    )
}

fn motion(keys: Vec<BoneKey>) -> Vmd {
    let mut vmd = Vmd::new_v2("test").unwrap();
    vmd.bone_keys = keys;
    vmd
}

fn close(a: Vec3, b: Vec3, eps: f32) -> bool {
    (a - b).length() < eps
}

/// The same rotation (q and −q are one rotation).
fn same_rotation(a: Quat, b: Quat, eps: f32) -> bool {
    a.dot(b).abs() > 1.0 - eps
}

const ROT_APPEND: BoneFlags = BoneFlags::INHERIT_ROTATION;
const MOVE_APPEND: BoneFlags = BoneFlags::INHERIT_TRANSLATION;

#[test]
fn tracks_bind_by_exact_name_and_the_report_counts_them() {
    let pmx = model(vec![
        bone("腕", [0.0; 3], -1),
        bone("左腕", [1.0, 0.0, 0.0], 0),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![
        key("腕", 0, [1.0, 0.0, 0.0], Quat::IDENTITY),
        key("腕 ", 0, [5.0, 0.0, 0.0], Quat::IDENTITY),
        key("右腕", 0, [5.0, 0.0, 0.0], Quat::IDENTITY),
    ]);
    let binding = Binding::vmd(&rig, &vmd);
    let r = binding.report();
    // Three distinct names; only "腕" is a bone ("腕 " has a trailing space).
    assert_eq!((r.bone_tracks, r.bone_bound), (3, 1));
    assert_eq!(r.bone_unbound, ["腕 ", "右腕"]);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    // 腕 moves by (1, 0, 0) from its rest at the origin; 左腕, 1 along X from it, follows.
    assert_eq!(e.world_position(0), Vec3::new(1.0, 0.0, 0.0));
    assert_eq!(e.world_position(1), Vec3::new(2.0, 0.0, 0.0));
}

#[test]
fn a_fractional_frame_samples_between_keys() {
    let pmx = model(vec![bone("センター", [0.0; 3], -1)]);
    let rig = Rig::from_pmx(&pmx);
    let turned = Quat::from_rotation_y(FRAC_PI_2);
    let vmd = motion(vec![
        key("センター", 0, [0.0; 3], Quat::IDENTITY),
        key("センター", 10, [4.0, 0.0, 0.0], turned),
    ]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 2.5);
    // Linear curves: a quarter of the way, (1, 0, 0) and a quarter of 90° about Y.
    assert!(close(e.world_position(0), Vec3::new(1.0, 0.0, 0.0), 1e-6));
    assert!(same_rotation(
        e.world_rotation(0),
        Quat::from_rotation_y(PI / 8.0),
        1e-6
    ));
}

#[test]
fn world_is_parent_times_local_and_skinning_maps_rest_to_world() {
    // Root at (0, 1, 0) turned 90° about Z; child at rest (1, 1, 0), offset (1, 0, 0).
    let pmx = model(vec![
        bone("root", [0.0, 1.0, 0.0], -1),
        bone("child", [1.0, 1.0, 0.0], 0),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![key(
        "root",
        0,
        [0.0; 3],
        Quat::from_rotation_z(FRAC_PI_2),
    )]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    // Rz(90°) (1, 0, 0) = (0, 1, 0), plus the root at (0, 1, 0): (0, 2, 0).
    assert!(close(e.world_position(1), Vec3::new(0.0, 2.0, 0.0), 1e-6));
    assert_eq!(e.local_translation(1), Vec3::new(1.0, 0.0, 0.0));
    // A vertex at the child's rest position goes where the child is.
    let v = e
        .skinning_matrix(1)
        .transform_point3(Vec3::new(1.0, 1.0, 0.0));
    assert!(close(v, Vec3::new(0.0, 2.0, 0.0), 1e-6));
    // A vertex at (2, 1, 0), one further along the child's X: (0, 3, 0).
    let v = e
        .skinning_matrix(1)
        .transform_point3(Vec3::new(2.0, 1.0, 0.0));
    assert!(close(v, Vec3::new(0.0, 3.0, 0.0), 1e-6));
}

#[test]
fn the_rest_binding_gives_the_bind_pose() {
    let pmx = model(vec![
        bone("a", [0.0, 1.0, 0.0], -1),
        bone("b", [1.0, 2.0, 3.0], 0),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 0.0);
    assert_eq!(e.world_position(1), Vec3::new(1.0, 2.0, 3.0));
    assert_eq!(e.skinning_matrix(1), glam::Mat4::IDENTITY);
}

fn bone_morph(name: &str, offsets: Vec<BoneOffset>) -> Morph {
    Morph {
        name: text(name),
        name_en: text(""),
        panel: 4,
        offsets: MorphOffsets::Bone(offsets),
    }
}

fn group_morph(name: &str, offsets: &[(i32, f32)]) -> Morph {
    Morph {
        name: text(name),
        name_en: text(""),
        panel: 4,
        offsets: MorphOffsets::Group(
            offsets
                .iter()
                .map(|&(m, weight)| GroupOffset {
                    morph: MorphIndex::from_raw(m),
                    weight,
                })
                .collect(),
        ),
    }
}

fn morph_key(name: &str, frame: u32, weight: f32) -> MorphKey {
    MorphKey {
        name: ShiftJis::new(name).unwrap(),
        frame,
        weight,
    }
}

#[test]
fn bone_morphs_scale_movement_and_rotation_by_the_weight() {
    let mut pmx = model(vec![bone("b", [0.0; 3], -1)]);
    pmx.morphs.push(bone_morph(
        "m",
        vec![BoneOffset {
            bone: BoneIndex::from_raw(0),
            translation: [2.0, 0.0, 0.0],
            rotation: Quat::from_rotation_z(FRAC_PI_2).to_array(),
        }],
    ));
    let rig = Rig::from_pmx(&pmx);
    let mut vmd = motion(vec![key("b", 0, [0.0, 1.0, 0.0], Quat::IDENTITY)]);
    vmd.morph_keys = Some(vec![morph_key("m", 0, 0.5)]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    // Motion (0, 1, 0) + 0.5 × (2, 0, 0) = (1, 1, 0); half of 90° about Z = 45°.
    assert!(close(e.world_position(0), Vec3::new(1.0, 1.0, 0.0), 1e-6));
    assert!(same_rotation(
        e.world_rotation(0),
        Quat::from_rotation_z(FRAC_PI_4),
        1e-6
    ));
    assert_eq!(e.morph_weights(), [0.5]);
}

#[test]
fn nested_groups_multiply_and_a_group_reaching_itself_is_refused() {
    let mut pmx = model(vec![bone("b", [0.0; 3], -1)]);
    // 0: bone morph moving b by (4, 0, 0); 1: group → 2 at 0.5; 2: group → 0 at 0.5;
    // 3 and 4: groups driving each other, 4 also driving 0.
    pmx.morphs.push(bone_morph(
        "move",
        vec![BoneOffset {
            bone: BoneIndex::from_raw(0),
            translation: [4.0, 0.0, 0.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
        }],
    ));
    pmx.morphs.push(group_morph("outer", &[(2, 0.5)]));
    pmx.morphs.push(group_morph("inner", &[(0, 0.5)]));
    pmx.morphs.push(group_morph("loopA", &[(4, 1.0)]));
    pmx.morphs.push(group_morph("loopB", &[(3, 1.0), (0, 1.0)]));
    let rig = Rig::from_pmx(&pmx);
    assert_eq!(
        rig.problems(),
        [RigProblem::GroupCycle { morphs: vec![3, 4] }]
    );
    let mut vmd = motion(vec![]);
    vmd.morph_keys = Some(vec![morph_key("outer", 0, 1.0), morph_key("loopA", 0, 1.0)]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    // outer 1 → inner 0.5 → move 0.25: b at 0.25 × (4, 0, 0) = (1, 0, 0). loopA is
    // refused, so loopB gets nothing and moves nothing.
    assert_eq!(e.morph_weights(), [0.25, 1.0, 0.5, 1.0, 0.0]);
    assert!(close(e.world_position(0), Vec3::new(1.0, 0.0, 0.0), 1e-6));
}

#[test]
fn deform_order_is_layer_then_index_with_after_physics_last() {
    // Seed 003: MMD solves IK and appends by ascending layer, then bone index; 0x1000
    // bones after physics.
    let mut bones: Vec<Bone> = (0..5)
        .map(|i| bone(&format!("b{i}"), [0.0; 3], -1))
        .collect();
    bones[0].layer = 2;
    bones[1].flags = BoneFlags(bones[1].flags.0 | BoneFlags::PHYSICS_AFTER_DEFORM.0);
    bones[2].layer = 1;
    bones[4].layer = -1;
    let rig = Rig::from_pmx(&model(bones));
    // First pass: b4 (layer −1), b3 (0), b2 (1), b0 (2); then b1 after physics.
    assert_eq!(rig.deform_order(), [4, 3, 2, 0, 1]);
}

/// A source turned 90° about Y and three bones appending its rotation at 0.5, −1 and 2.
#[test]
fn append_rotation_takes_any_ratio() {
    let pmx = model(vec![
        bone("src", [0.0; 3], -1),
        appended(bone("half", [0.0; 3], -1), 0, 0.5, ROT_APPEND),
        appended(bone("neg", [0.0; 3], -1), 0, -1.0, ROT_APPEND),
        appended(bone("double", [0.0; 3], -1), 0, 2.0, ROT_APPEND),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![key(
        "src",
        0,
        [0.0; 3],
        Quat::from_rotation_y(FRAC_PI_2),
    )]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    // slerp(identity, Ry(90°), r) = Ry(r × 90°): 45°, −90°, 180°.
    assert!(same_rotation(
        e.world_rotation(1),
        Quat::from_rotation_y(FRAC_PI_4),
        1e-6
    ));
    assert!(same_rotation(
        e.world_rotation(2),
        Quat::from_rotation_y(-FRAC_PI_2),
        1e-6
    ));
    assert!(same_rotation(
        e.world_rotation(3),
        Quat::from_rotation_y(PI),
        1e-6
    ));
}

#[test]
fn append_movement_scales_the_source_motion() {
    let pmx = model(vec![
        bone("src", [0.0; 3], -1),
        appended(bone("dst", [0.0, 1.0, 0.0], -1), 0, -0.5, MOVE_APPEND),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![key("src", 0, [2.0, 0.0, 4.0], Quat::IDENTITY)]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    // dst at rest (0, 1, 0) moved by −0.5 × (2, 0, 4) = (−1, 0, −2): (−1, 1, −2).
    assert!(close(e.world_position(1), Vec3::new(-1.0, 1.0, -2.0), 1e-6));
}

#[test]
fn a_chained_append_takes_the_sources_appended_value() {
    // a turns 90° about Z; b appends a at 1 and has its own motion of 90° about X; c
    // appends b at 0.5. c takes b's appended value (90° about Z), not b's motion: 45°
    // about Z (babylon-mmd, saba; PMX's 多重付与).
    let pmx = model(vec![
        bone("a", [0.0; 3], -1),
        appended(bone("b", [0.0; 3], -1), 0, 1.0, ROT_APPEND),
        appended(bone("c", [0.0; 3], -1), 1, 0.5, ROT_APPEND),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![
        key("a", 0, [0.0; 3], Quat::from_rotation_z(FRAC_PI_2)),
        key("b", 0, [0.0; 3], Quat::from_rotation_x(FRAC_PI_2)),
    ]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    assert!(same_rotation(
        e.world_rotation(2),
        Quat::from_rotation_z(FRAC_PI_4),
        1e-6
    ));
    // b itself: motion × append = Rx(90°) · Rz(90°).
    let b = Quat::from_rotation_x(FRAC_PI_2) * Quat::from_rotation_z(FRAC_PI_2);
    assert!(same_rotation(e.world_rotation(1), b, 1e-6));
}

#[test]
fn a_local_append_takes_the_sources_whole_local_rotation() {
    // Same as above but c's append is local: it takes b's whole local rotation
    // Rx(90°)·Rz(90°), at 0.5.
    let local = BoneFlags(ROT_APPEND.0 | BoneFlags::INHERIT_LOCAL.0);
    let pmx = model(vec![
        bone("a", [0.0; 3], -1),
        appended(bone("b", [0.0; 3], -1), 0, 1.0, ROT_APPEND),
        appended(bone("c", [0.0; 3], -1), 1, 0.5, local),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![
        key("a", 0, [0.0; 3], Quat::from_rotation_z(FRAC_PI_2)),
        key("b", 0, [0.0; 3], Quat::from_rotation_x(FRAC_PI_2)),
    ]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    let whole = Quat::from_rotation_x(FRAC_PI_2) * Quat::from_rotation_z(FRAC_PI_2);
    let half = Quat::IDENTITY.slerp(whole, 0.5);
    assert!(same_rotation(e.world_rotation(2), half, 1e-6));
}

#[test]
fn an_append_reads_its_source_as_it_stands_in_deform_order() {
    // r turns 90° about Z. s (layer 1) appends r; t (layer 0) appends s. t is deformed
    // before s, when s has no appended value yet: t takes s's chained value, none, and
    // stays unturned. Moving t to layer 2 makes it read s after s took 90°: 90°.
    let make = |t_layer: i32| {
        let mut s = appended(bone("s", [0.0; 3], -1), 0, 1.0, ROT_APPEND);
        s.layer = 1;
        let mut t = appended(bone("t", [0.0; 3], -1), 1, 1.0, ROT_APPEND);
        t.layer = t_layer;
        model(vec![bone("r", [0.0; 3], -1), s, t])
    };
    let vmd = motion(vec![key(
        "r",
        0,
        [0.0; 3],
        Quat::from_rotation_z(FRAC_PI_2),
    )]);
    for (layer, expected) in [(0, Quat::IDENTITY), (2, Quat::from_rotation_z(FRAC_PI_2))] {
        let pmx = make(layer);
        let rig = Rig::from_pmx(&pmx);
        let binding = Binding::vmd(&rig, &vmd);
        let mut e = Evaluator::new(&rig);
        e.evaluate(&binding, 0.0);
        assert!(
            same_rotation(e.world_rotation(2), expected, 1e-6),
            "t on layer {layer}: {:?}",
            e.world_rotation(2)
        );
    }
}

#[test]
fn a_bone_deformed_before_its_parent_still_follows_it() {
    // p (layer 1) appends 90° about Z from r; its child c (layer 0, deformed first), 1
    // along X from p at rest. c is posed against p as it stands, then follows p when p
    // is deformed: Rz(90°) (1, 0, 0) = (0, 1, 0). babylon-mmd poses c against an identity
    // parent instead, leaving it at its offset from the origin, (1, 0, 0).
    let mut p = appended(bone("p", [0.0; 3], -1), 0, 1.0, ROT_APPEND);
    p.layer = 1;
    p.parent = BoneIndex::NONE;
    let pmx = model(vec![
        bone("r", [5.0, 0.0, 0.0], -1),
        p,
        bone("c", [1.0, 0.0, 0.0], 1),
    ]);
    let rig = Rig::from_pmx(&pmx);
    assert_eq!(rig.deform_order(), [0, 2, 1]);
    let vmd = motion(vec![key(
        "r",
        0,
        [0.0; 3],
        Quat::from_rotation_z(FRAC_PI_2),
    )]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    assert!(close(e.world_position(2), Vec3::new(0.0, 1.0, 0.0), 1e-6));
}

/// A chain: `root` at the origin, `link` at (0, 2, 0) below... built per test.
fn ik_bone(
    name: &str,
    position: [f32; 3],
    target: i32,
    loops: i32,
    unit: f32,
    links: Vec<PmxIkLink>,
) -> Bone {
    let mut b = bone(name, position, -1);
    b.flags = BoneFlags(b.flags.0 | BoneFlags::IK.0 | BoneFlags::TRANSLATABLE.0);
    b.ik = Some(Ik {
        target: BoneIndex::from_raw(target),
        loop_count: loops,
        limit_angle: unit,
        links,
    });
    b
}

fn link(bone: i32, limits: Option<([f32; 3], [f32; 3])>) -> PmxIkLink {
    PmxIkLink {
        bone: BoneIndex::from_raw(bone),
        has_limit: u8::from(limits.is_some()),
        limit_min: limits.map(|l| l.0),
        limit_max: limits.map(|l| l.1),
    }
}

/// One link at the origin, its effector 1 up (0, 1, 0); the IK bone at (1, 0, 0).
fn one_link(loops: i32, unit: f32) -> Pmx {
    model(vec![
        bone("link", [0.0; 3], -1),
        bone("end", [0.0, 1.0, 0.0], 0),
        ik_bone("ik", [1.0, 0.0, 0.0], 1, loops, unit, vec![link(0, None)]),
    ])
}

#[test]
fn ik_turns_a_link_onto_the_goal() {
    let pmx = one_link(1, PI);
    let rig = Rig::from_pmx(&pmx);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 0.0);
    // From (0, 1, 0) to (1, 0, 0): 90° about (0, 1, 0) × (1, 0, 0) = −Z, in one step.
    assert!(close(e.world_position(1), Vec3::new(1.0, 0.0, 0.0), 1e-6));
    assert!(same_rotation(
        e.world_rotation(0),
        Quat::from_rotation_z(-FRAC_PI_2),
        1e-6
    ));
    assert!(e.ik_solved(2));
}

#[test]
fn the_unit_angle_limits_each_iteration() {
    // Unit angle 0.5 rad: one iteration turns 0.5 rad, two turn 1.0 rad, four stop at the
    // goal (π/2 ≈ 1.571 < 2.0). The effector after θ about −Z: (sin θ, cos θ, 0).
    for (loops, theta) in [(1, 0.5f32), (2, 1.0), (4, FRAC_PI_2)] {
        let pmx = one_link(loops, 0.5);
        let rig = Rig::from_pmx(&pmx);
        let mut e = Evaluator::new(&rig);
        e.evaluate(&Binding::rest(), 0.0);
        let expected = Vec3::new(theta.sin(), theta.cos(), 0.0);
        assert!(
            close(e.world_position(1), expected, 1e-5),
            "{loops} loops: {}",
            e.world_position(1)
        );
    }
}

#[test]
fn the_unit_angle_grows_with_the_links_place_in_the_chain() {
    // Two links on one spot: a (link 0) and its parent b (link 1), effector 1 up. Unit
    // angle 0.25, one iteration: a turns 0.25 rad, then b turns at most 2 × 0.25 = 0.5
    // rad: 0.75 rad in all, toward (1, 0, 0).
    let pmx = model(vec![
        bone("b", [0.0; 3], -1),
        bone("a", [0.0; 3], 0),
        bone("end", [0.0, 1.0, 0.0], 1),
        ik_bone(
            "ik",
            [1.0, 0.0, 0.0],
            2,
            1,
            0.25,
            vec![link(1, None), link(0, None)],
        ),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 0.0);
    let theta = 0.75f32;
    assert!(close(
        e.world_position(2),
        Vec3::new(theta.sin(), theta.cos(), 0.0),
        1e-5
    ));
}

/// A leg: hip at (0, 2, 0), knee at (0, 1, 0), ankle at (0, 0, 0); the IK bone at `goal`.
fn leg(goal: [f32; 3], knee_limits: Option<([f32; 3], [f32; 3])>) -> Pmx {
    model(vec![
        bone("hip", [0.0, 2.0, 0.0], -1),
        bone("knee", [0.0, 1.0, 0.0], 0),
        bone("ankle", [0.0, 0.0, 0.0], 1),
        ik_bone(
            "leg IK",
            goal,
            2,
            40,
            2.0,
            vec![link(1, knee_limits), link(0, None)],
        ),
    ])
}

const KNEE: ([f32; 3], [f32; 3]) = ([-PI, 0.0, 0.0], [-0.5 * PI / 180.0, 0.0, 0.0]);

#[test]
fn a_knee_turns_about_its_one_free_axis_within_its_limits() {
    // Goal (0, 1, 1), √2 from the hip: with thigh and shin of 1, the knee's inner angle
    // is 90° (1² + 1² = √2²), so the knee turns −90° about X; the shin then points
    // along +Z (Rx(−90°) (0, −1, 0) = (0, 0, 1)), backwards in MMD's coordinates.
    let pmx = leg([0.0, 1.0, 1.0], Some(KNEE));
    let rig = Rig::from_pmx(&pmx);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 0.0);
    assert!(close(e.world_position(2), Vec3::new(0.0, 1.0, 1.0), 1e-3));
    let (x, y, z) = e.local_rotation(1).to_euler(EulerRot::XYZ);
    assert!((x + FRAC_PI_2).abs() < 1e-2, "knee {x}");
    assert!(y.abs() < 1e-6 && z.abs() < 1e-6);
}

#[test]
fn euler_limits_clamp_a_free_link() {
    // The same one-link chain with the link limited to Z in [−0.3, 0.3] and X, Y to a
    // range too (so it is not the one-axis case): the link stops at −0.3 about Z.
    let limits = ([-0.1, -0.1, -0.3], [0.1, 0.1, 0.3]);
    let pmx = model(vec![
        bone("link", [0.0; 3], -1),
        bone("end", [0.0, 1.0, 0.0], 0),
        ik_bone(
            "ik",
            [1.0, 0.0, 0.0],
            1,
            10,
            PI,
            vec![link(0, Some(limits))],
        ),
    ]);
    let rig = Rig::from_pmx(&pmx);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 0.0);
    let (x, y, z) = e.local_rotation(0).to_euler(EulerRot::XYZ);
    assert!(
        (z + 0.3).abs() < 1e-5 && x.abs() < 1e-5 && y.abs() < 1e-5,
        "{x} {y} {z}"
    );
}

#[test]
fn the_motions_ik_block_switches_a_chain_off() {
    let pmx = one_link(1, PI);
    let rig = Rig::from_pmx(&pmx);
    let mut vmd = motion(vec![]);
    let switch = |frame: u32, on: bool| ShowIkKey {
        frame,
        show: 1,
        ik: vec![IkState {
            name: ShiftJis::new("ik").unwrap(),
            enabled: u8::from(on),
        }],
    };
    vmd.show_ik_keys = Some(vec![switch(10, false), switch(20, true)]);
    let binding = Binding::vmd(&rig, &vmd);
    assert_eq!(
        (binding.report().ik_tracks, binding.report().ik_bound),
        (1, 1)
    );
    let mut e = Evaluator::new(&rig);
    // Before the first switch: the first switch holds (off); 10 to 19.9: off; from 20: on.
    for (frame, on) in [(0.0, false), (15.5, false), (20.0, true), (99.0, true)] {
        e.evaluate(&binding, frame);
        assert_eq!(e.ik_solved(2), on, "frame {frame}");
        let expected = if on { Vec3::X } else { Vec3::Y };
        assert!(close(e.world_position(1), expected, 1e-6), "frame {frame}");
    }
    // The evaluator's own switch turns IK off whatever the motion says.
    e.set_ik_allowed(false);
    e.evaluate(&binding, 99.0);
    assert!(!e.ik_solved(2));
}

fn pmd_bone(
    name: &str,
    parent: u16,
    bone_type: u8,
    ik_parent: u16,
    position: [f32; 3],
) -> pmd::Bone {
    pmd::Bone {
        name: ShiftJis::new(name).unwrap(),
        parent,
        tail: 0,
        bone_type,
        ik_parent,
        position,
    }
}

#[test]
fn pmd_knees_get_mmds_limits_in_radians() {
    // A PMD leg (thigh and shin of 1) with its goal at (0, 0.02, 0.2). The knee alone
    // reaches it: the foot at knee + Rx(θ) (0, −1, 0) = (0, 1 − cos θ, −sin θ) is the goal
    // for sin θ = −0.2, cos θ = 0.98 (0.98² + 0.2² = 1.0004), θ = −asin 0.2 = −0.2014 rad.
    // With the limits in radians (−π to −0.0087) that bend is allowed; babylon-mmd's
    // degrees read as radians (−180 to −0.5) would force the knee to −0.5 rad.
    let mut model = Pmd::new("leg").unwrap();
    model.bones = vec![
        pmd_bone("左足", 0xFFFF, 0, 0, [0.0, 2.0, 0.0]),
        pmd_bone("左ひざ", 0, 4, 0, [0.0, 1.0, 0.0]),
        pmd_bone("左足首", 1, 6, 0, [0.0, 0.0, 0.0]),
        pmd_bone("左足ＩＫ", 0xFFFF, 2, 0, [0.0, 0.02, 0.2]),
    ];
    model.ik_chains = vec![pmd::IkChain::new(3, 2, 40, 0.5, vec![1, 0])];
    let rig = Rig::from_pmd(&model);
    let chain = rig.bones()[3].ik.as_ref().unwrap();
    assert_eq!(chain.unit_angle, 2.0); // 0.5 × 4
    assert_eq!(
        chain.links[0].limits,
        Some((Vec3::from(PMD_KNEE_MIN), Vec3::from(PMD_KNEE_MAX)))
    );
    assert_eq!(chain.links[1].limits, None);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 0.0);
    assert!(close(e.world_position(2), Vec3::new(0.0, 0.02, 0.2), 1e-3));
    let (x, _, _) = e.local_rotation(1).to_euler(EulerRot::XYZ);
    assert!((x + 0.2f32.asin()).abs() < 2e-3, "knee {x}");
}

#[test]
fn pmd_rotation_followers_append() {
    // Type 5 copies the rotation of the bone in ik_parent (ratio 1); type 9 follows its
    // tail bone by ik_parent percent (−50 stored as 65486).
    let mut model = Pmd::new("eyes").unwrap();
    let mut follow = pmd_bone("f", 0xFFFF, 9, 65486, [0.0; 3]);
    follow.tail = 0;
    model.bones = vec![
        pmd_bone("src", 0xFFFF, 0, 0, [0.0; 3]),
        pmd_bone("copy", 0xFFFF, 5, 0, [0.0; 3]),
        follow,
    ];
    let rig = Rig::from_pmd(&model);
    let vmd = motion(vec![key(
        "src",
        0,
        [0.0; 3],
        Quat::from_rotation_y(FRAC_PI_2),
    )]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    assert!(same_rotation(
        e.world_rotation(1),
        Quat::from_rotation_y(FRAC_PI_2),
        1e-6
    ));
    assert!(same_rotation(
        e.world_rotation(2),
        Quat::from_rotation_y(-FRAC_PI_4),
        1e-6
    ));
}

#[test]
fn hostile_models_are_repaired_reported_and_end() {
    let mut bones = vec![
        // 0 and 1: a parent cycle.
        bone("p0", [0.0; 3], 1),
        bone("p1", [0.0; 3], 0),
        // 2 and 3: an append cycle.
        appended(bone("a2", [0.0; 3], -1), 3, 1.0, ROT_APPEND),
        appended(bone("a3", [0.0; 3], -1), 2, 1.0, ROT_APPEND),
        bone("end", [0.0, 1.0, 0.0], 2),
    ];
    // 5: loop count i32::MAX with NaN limits; 6: negative loop count, NaN unit angle.
    let nan = ([f32::NAN; 3], [f32::NAN, 1.0, f32::NAN]);
    bones.push(ik_bone(
        "ik5",
        [1.0, 0.0, 0.0],
        4,
        i32::MAX,
        0.1,
        vec![link(2, Some(nan))],
    ));
    bones.push(ik_bone(
        "ik6",
        [1.0, 0.0, 0.0],
        4,
        i32::MIN,
        f32::NAN,
        vec![link(3, None)],
    ));
    let mut pmx = model(bones);
    pmx.morphs.push(group_morph("self", &[(0, 1.0)]));
    let rig = Rig::from_pmx(&pmx);
    let problems: Vec<String> = rig.problems().iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "parent cycle through bones 0 -> 1 (bones[0] treated as a root)",
            "bones[5]: IK link 0 has a NaN or crossed angle limit (repaired)",
            "bones[5]: IK loop count 2147483647 capped to 0..=256",
            "bones[6]: IK loop count -2147483648 capped to 0..=256",
            "bones[6]: IK unit angle is not finite (π used)",
            "append cycle through bones 2 -> 3 (each reads its source as it stands)",
            "group morphs reach themselves: 0 (refused: they drive nothing)",
        ]
    );
    let mut vmd = motion(vec![key("a2", 0, [0.0; 3], Quat::from_rotation_z(0.3))]);
    vmd.morph_keys = Some(vec![morph_key("self", 0, 1.0)]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    assert_eq!(e.morph_weights(), [1.0]);
    for i in 0..rig.bones().len() {
        assert!(e.world_position(i).is_finite(), "bone {i}");
    }
    // NaN in a motion gives NaN in the pose, and still ends.
    let vmd = motion(vec![key(
        "a2",
        0,
        [f32::NAN; 3],
        Quat::from_xyzw(f32::NAN, 0.0, 0.0, 1.0),
    )]);
    let binding = Binding::vmd(&rig, &vmd);
    e.evaluate(&binding, f64::NAN);
}

#[test]
fn out_of_range_indices_are_dropped_and_reported() {
    let mut pmx = model(vec![
        appended(bone("a", [0.0; 3], 7), 9, 1.0, ROT_APPEND),
        ik_bone("ik", [0.0; 3], 5, 10, 1.0, vec![]),
        ik_bone("ik2", [0.0; 3], 0, 10, 1.0, vec![link(-3, None)]),
    ]);
    pmx.morphs.push(group_morph("g", &[(4, 1.0)]));
    pmx.morphs.push(bone_morph(
        "b",
        vec![BoneOffset {
            bone: BoneIndex::from_raw(8),
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
        }],
    ));
    let rig = Rig::from_pmx(&pmx);
    let problems: Vec<String> = rig.problems().iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "bones[0]: parent index 7 is not a bone (treated as a root)",
            "bones[0]: append source 9 is not a bone (append dropped)",
            "bones[1]: IK bone index 5 is not a bone (dropped)",
            "bones[2]: IK bone index -3 is not a bone (dropped)",
            "morphs[0]: group offset morph 4 is not a morph (dropped)",
            "morphs[1]: bone offset bone 8 is not a bone (dropped)",
        ]
    );
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 3.0);
}

#[test]
fn a_vpd_pose_binds_by_name() {
    let pmx = model(vec![bone("センター", [0.0; 3], -1)]);
    let rig = Rig::from_pmx(&pmx);
    let pose = crate::vpd::Pose {
        model_file: "m.osm".into(),
        bones: vec![
            crate::vpd::BonePose {
                name: "センター".into(),
                translation: [0.0, 3.0, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
            crate::vpd::BonePose {
                name: "ない".into(),
                translation: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
        ],
        morphs: vec![],
    };
    let binding = Binding::vpd(&rig, &pose);
    assert_eq!(binding.report().bone_unbound, ["ない"]);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 123.0);
    assert_eq!(e.world_position(0), Vec3::new(0.0, 3.0, 0.0));
}

#[test]
fn baked_ik_played_with_ik_off_poses_as_the_original_with_ik_on() {
    // The one-link chain; the IK bone moves from (1, 0, 0) (0 frames) to (0, 0, 1) at
    // frame 4 (movement keys of the IK bone, a root at (1, 0, 0): offsets (0, 0, 0) and
    // (−1, 0, 1)). With IK on the link turns the effector onto the goal at every frame.
    let pmx = one_link(10, PI);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![
        key("ik", 0, [0.0; 3], Quat::IDENTITY),
        key("ik", 4, [-1.0, 0.0, 1.0], Quat::IDENTITY),
        key("link", 2, [0.0; 3], Quat::from_rotation_x(0.1)),
    ]);
    let (baked, report) = bake_ik(&rig, &vmd).unwrap();
    assert_eq!((report.start, report.end), (0, 4));
    assert_eq!(report.links, ["link"]);
    // Five frames of one link; its one key is replaced.
    assert_eq!((report.added, report.replaced), (5, 1));
    assert_eq!(report.switched_off, ["ik"]);
    let on = Binding::vmd(&rig, &vmd);
    let off = Binding::vmd(&rig, &baked);
    let (mut a, mut b) = (Evaluator::new(&rig), Evaluator::new(&rig));
    for frame in 0..=4 {
        a.evaluate(&on, f64::from(frame));
        b.evaluate(&off, f64::from(frame));
        assert!(a.ik_solved(2) && !b.ik_solved(2), "frame {frame}");
        for i in 0..3 {
            assert!(
                close(a.world_position(i), b.world_position(i), 1e-5)
                    && same_rotation(a.world_rotation(i), b.world_rotation(i), 1e-6),
                "frame {frame} bone {i}"
            );
        }
        // The goal's distance from the link stays 1 along the straight path only at the
        // ends, so the effector reaches it there: (1, 0, 0) at 0 and (0, 0, 1) at 4.
    }
    a.evaluate(&on, 4.0);
    assert!(close(a.world_position(1), Vec3::new(0.0, 0.0, 1.0), 1e-5));
}

#[test]
fn a_bake_too_large_is_refused_before_any_work() {
    let pmx = one_link(10, PI);
    let rig = Rig::from_pmx(&pmx);
    let vmd = motion(vec![
        key("link", 0, [0.0; 3], Quat::IDENTITY),
        key("link", u32::MAX, [0.0; 3], Quat::IDENTITY),
    ]);
    // 2^32 frames × 1 link.
    assert_eq!(
        bake_ik(&rig, &vmd).unwrap_err(),
        TooManyKeys { keys: 1 << 32 }
    );
}

#[test]
fn a_straight_knee_whose_goal_is_below_it_is_solved_from_half_bent() {
    // The leg straight, its goal (0, 0.5, 0) on the same line, 1.5 from the hip. From
    // straight, CCD cannot choose a way to bend (every direction is the same line), so
    // the knee is tried again from the middle of its range (−90.25°). The solution: the
    // knee's inner angle θ with cos θ = (1 + 1 − 1.5²) / 2 = −0.125, θ = 97.18°, so the
    // knee turns −(180° − 97.18°) = −82.82° = −1.4455 rad about X.
    let pmx = leg([0.0, 0.5, 0.0], Some(KNEE));
    let rig = Rig::from_pmx(&pmx);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&Binding::rest(), 0.0);
    assert!(
        close(e.world_position(2), Vec3::new(0.0, 0.5, 0.0), 1e-3),
        "{}",
        e.world_position(2)
    );
    let (x, _, _) = e.local_rotation(1).to_euler(EulerRot::XYZ);
    assert!((x + 1.4455).abs() < 1e-2, "knee {x}");
    let (start, end) = e.ik_distance(3).unwrap();
    // The ankle starts at the origin, 0.5 below the goal.
    assert!((start - 0.5).abs() < 1e-6 && end < 1e-3, "{start} {end}");
}

#[test]
fn a_hostile_chain_of_thousands_of_links_ends() {
    // 3,000 bones in a line, each 1 above its parent and appending half its parent's
    // rotation, and an IK bone whose chain lists all but the last as links with a loop
    // count of i32::MAX. A step re-poses at most the path to the effector (3,000 bones),
    // an iteration 2,999 × 3,000 ≈ 9 × 10^6 > IK_BUDGET, so the chain runs one iteration.
    let n = 3000;
    let mut bones: Vec<Bone> = (0..n)
        .map(|i| {
            let b = bone(&format!("b{i}"), [0.0, i as f32, 0.0], i - 1);
            if i == 0 {
                b
            } else {
                appended(b, i - 1, 0.5, ROT_APPEND)
            }
        })
        .collect();
    let links = (0..n - 1).rev().map(|i| link(i, None)).collect();
    bones.push(ik_bone("ik", [5.0, 5.0, 0.0], n - 1, i32::MAX, 0.1, links));
    let rig = Rig::from_pmx(&model(bones));
    let vmd = motion(vec![key("b0", 0, [0.0; 3], Quat::from_rotation_z(0.01))]);
    let binding = Binding::vmd(&rig, &vmd);
    let mut e = Evaluator::new(&rig);
    e.evaluate(&binding, 0.0);
    let (start, end) = e.ik_distance(n as usize).unwrap();
    assert!(end <= start, "{start} {end}");
    for i in 0..rig.bones().len() {
        assert!(e.world_rotation(i).is_finite(), "bone {i}");
    }
}

#[test]
fn three_js_order_puts_every_ik_first_then_appends_sources_first() {
    // 0: plain; 1: appends 3; 2: IK; 3: appends 4; 4: plain, layer 5 (ignored by three.js).
    let mut plain = bone("p4", [0.0; 3], -1);
    plain.layer = 5;
    let pmx = model(vec![
        bone("p0", [0.0; 3], -1),
        appended(bone("a1", [0.0; 3], -1), 3, 1.0, ROT_APPEND),
        ik_bone("ik", [0.0; 3], 0, 1, 1.0, vec![]),
        appended(bone("a3", [0.0; 3], -1), 4, 1.0, ROT_APPEND),
        plain,
    ]);
    let mut rig = Rig::from_pmx(&pmx);
    // IK 2; then 3 (the source of 1) before 1; then the rest by index: 0, 4.
    let order = rig.three_js_order();
    assert_eq!(order, [2, 3, 1, 0, 4]);
    assert!(rig.set_deform_order(order));
    assert_eq!(rig.deform_order(), [2, 3, 1, 0, 4]);
    // Not every bone once: refused, unchanged.
    assert!(!rig.set_deform_order(vec![0, 0, 1, 2, 3]));
    assert!(!rig.set_deform_order(vec![0, 1, 2, 3, 9]));
    assert_eq!(rig.deform_order(), [2, 3, 1, 0, 4]);
}
