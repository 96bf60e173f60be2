//! The VMD toolbox of seed 004: interpolation and sampling, where the camera is, the
//! right-handed view, and the edits (mirror, trim, merge, speed, rest-key fill-in).
//!
//! Expected values are derived by hand in the comments next to them. Every test builds
//! its input in code; the fixture tests run over `fixtures/vmd` when it is there.

use mmd_formats::coords::*;
use mmd_formats::vmd::edit::*;
use mmd_formats::vmd::eval::*;
use mmd_formats::vmd::*;
use mmd_formats::ShiftJis;
use mmd_tests::{assert_bytes_eq, corpus_files};

// ---- building motions ----------------------------------------------------------------

fn name(s: &str) -> ShiftJis<15> {
    ShiftJis::new(s).unwrap()
}

const IDENTITY: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

fn bone(n: &str, frame: u32, position: [f32; 3], rotation: [f32; 4]) -> BoneKey {
    BoneKey::new(name(n), frame, position, rotation)
}

fn with_curves(mut key: BoneKey, c: Interpolation) -> BoneKey {
    key.set_interpolation(&c);
    key
}

fn all_curves(c: Curve) -> Interpolation {
    Interpolation::from_curves([c; 4])
}

fn morph(n: &str, frame: u32, weight: f32) -> MorphKey {
    MorphKey {
        name: name(n),
        frame,
        weight,
    }
}

fn camera(frame: u32, distance: f32, target: [f32; 3], rotation: [f32; 3]) -> CameraKey {
    CameraKey {
        frame,
        distance,
        target,
        rotation,
        interpolation: CameraInterpolation::LINEAR.to_bytes(),
        fov: 30,
        perspective: 0,
    }
}

fn light(frame: u32, c: f32) -> LightKey {
    LightKey {
        frame,
        color: [c, c, c],
        direction: [-0.5, -1.0, 0.5],
    }
}

fn show_ik(frame: u32, on: bool) -> ShowIkKey {
    ShowIkKey {
        frame,
        show: 1,
        ik: vec![IkState {
            name: ShiftJis::new("左足ＩＫ").unwrap(),
            enabled: u8::from(on),
        }],
    }
}

/// A motion with keys in every block over frames 0..=100, sorted by frame, with eased
/// curves, left/right names and IK states.
fn full_motion() -> Vmd {
    let mut v = Vmd::new_v2("テスト").unwrap();
    let ease = all_curves(Curve::new(127, 0, 127, 127));
    for f in (0..=100).step_by(10) {
        let x = f as f32 / 10.0;
        v.bone_keys.push(with_curves(
            bone("左腕", f, [x, 0.0, -x], [0.0, 0.1 * x, 0.0, 1.0]),
            ease,
        ));
        v.bone_keys
            .push(bone("右ひじ", f + 1, [0.0, x, 0.0], [0.3, 0.0, 0.1, 0.9]));
    }
    v.morph_keys = Some(
        (0..=100)
            .step_by(25)
            .map(|f| morph("まばたき", f, (f % 2) as f32))
            .collect(),
    );
    v.camera_keys = Some(vec![
        camera(0, -45.0, [0.0, 10.0, 0.0], [0.0; 3]),
        camera(40, -30.0, [2.0, 12.0, -1.0], [-0.2, 0.5, 0.1]),
        camera(41, -20.0, [2.0, 12.0, 5.0], [-0.1, -0.5, 0.0]),
        camera(100, -45.0, [0.0, 10.0, 0.0], [0.0; 3]),
    ]);
    v.light_keys = Some(vec![light(0, 0.6), light(100, 0.2)]);
    v.self_shadow_keys = Some(vec![SelfShadowKey {
        frame: 0,
        mode: 1,
        distance: 0.08875,
    }]);
    v.show_ik_keys = Some(vec![show_ik(0, true), show_ik(60, false)]);
    v
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[track_caller]
fn assert_close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(close(a, b, tol), "{what}: {a} vs {b} (tolerance {tol})");
}

/// Every VMD in the fixture corpus that reads, as (file name, bytes, value).
fn fixtures() -> Vec<(String, Vec<u8>, Vmd)> {
    let Some(files) = corpus_files("vmd", "vmd") else {
        return Vec::new();
    };
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            let vmd = Vmd::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                bytes,
                vmd,
            )
        })
        .collect()
}

/// Every built-in VMD sample, as (name, bytes, value).
fn samples() -> Vec<(String, Vec<u8>, Vmd)> {
    let all: Vec<_> = mmd_formats::samples::vmd_samples()
        .into_iter()
        .map(|(n, b)| {
            let v = Vmd::from_bytes(&b).unwrap();
            (n, b, v)
        })
        .collect();
    assert!(all.len() >= 19);
    all
}

// ---- curves ----------------------------------------------------------------------------

#[test]
fn linear_curve_gives_linear_interpolation() {
    for x in [0.0, 0.1, 0.25, 0.5, 0.75, 0.999, 1.0] {
        assert_eq!(Curve::LINEAR.eval(x), x);
        // Any curve with both control points on the diagonal is a straight line.
        assert_eq!(Curve::new(0, 0, 127, 127).eval(x), x);
    }
    let mut v = Vmd::new_v2("m").unwrap();
    v.bone_keys
        .push(bone("センター", 0, [0.0, 10.0, -4.0], IDENTITY));
    v.bone_keys
        .push(bone("センター", 8, [8.0, 2.0, 4.0], IDENTITY));
    let track = v.bone_track("センター");
    for f in 0..=8 {
        let p = track.sample(f64::from(f)).unwrap().position;
        let t = f as f32 / 8.0;
        assert_eq!(p, [8.0 * t, 10.0 - 8.0 * t, -4.0 + 8.0 * t], "frame {f}");
    }
}

#[test]
fn ease_curves_match_hand_values() {
    // (127, 0, 127, 127): control points (1, 0), (1, 1).
    //   Bx(t) = 3(1-t)²t + 3(1-t)t² + t³ = 1 - (1-t)³;  By(t) = 3(1-t)t² + t³ = 3t² - 2t³.
    //   x = 7/8 ⇒ 1-t = 1/2 ⇒ t = 1/2 ⇒ y = 3/4 - 1/4 = 1/2.
    let ease_in = Curve::new(127, 0, 127, 127);
    assert_close(ease_in.eval(0.875), 0.5, 1e-12, "ease-in at 7/8");
    // x = 1/2 ⇒ t = 1 - 2^(-1/3) ⇒ y = 3t² - 2t³ ≈ 0.110118.
    let t = 1.0 - 0.5f64.cbrt();
    assert_close(
        ease_in.eval(0.5),
        3.0 * t * t - 2.0 * t * t * t,
        1e-12,
        "ease-in at 1/2",
    );
    assert_close(
        ease_in.eval(0.5),
        0.110_118_8,
        1e-6,
        "ease-in at 1/2, by hand",
    );
    // (0, 127, 0, 127): control points (0, 1), (0, 1).
    //   Bx(t) = t³;  By(t) = 1 - (1-t)³.  x = 1/8 ⇒ t = 1/2 ⇒ y = 7/8.
    let ease_out = Curve::new(0, 127, 0, 127);
    assert_close(ease_out.eval(0.125), 0.875, 1e-12, "ease-out at 1/8");
}

#[test]
fn every_curve_is_monotone_bounded_and_ends_at_its_ends() {
    let values = [0u8, 1, 20, 64, 107, 126, 127, 128, 200, 255];
    for &x1 in &values {
        for &y1 in &values {
            for &x2 in &values {
                for &y2 in &values {
                    let c = Curve::new(x1, y1, x2, y2);
                    assert_eq!(c.eval(0.0), 0.0);
                    assert_eq!(c.eval(1.0), 1.0);
                    assert_eq!(c.eval(-3.0), 0.0);
                    assert_eq!(c.eval(f64::NAN), 0.0);
                    let mut last = 0.0;
                    for i in 0..=32 {
                        let y = c.eval(f64::from(i) / 32.0);
                        assert!((0.0..=1.0).contains(&y), "{c:?} at {i}/32: {y}");
                        assert!(y >= last, "{c:?} decreases at {i}/32: {y} < {last}");
                        last = y;
                    }
                }
            }
        }
    }
}

#[test]
fn the_later_key_s_curve_is_used() {
    // Seed 004: the curve is taken from the later key ("how the motion comes into it").
    let ease = all_curves(Curve::new(127, 0, 127, 127));
    let mut a = Vmd::new_v2("m").unwrap();
    a.bone_keys
        .push(with_curves(bone("頭", 0, [0.0; 3], IDENTITY), ease));
    a.bone_keys.push(bone("頭", 8, [8.0, 0.0, 0.0], IDENTITY));
    // The later key is linear: frame 7 is 7/8 of the way.
    assert_eq!(a.bone_track("頭").sample(7.0).unwrap().position[0], 7.0);
    let mut b = Vmd::new_v2("m").unwrap();
    b.bone_keys.push(bone("頭", 0, [0.0; 3], IDENTITY));
    b.bone_keys
        .push(with_curves(bone("頭", 8, [8.0, 0.0, 0.0], IDENTITY), ease));
    // The later key eases in: at x = 7/8 the progress is 1/2 (hand value above).
    assert_close(
        f64::from(b.bone_track("頭").sample(7.0).unwrap().position[0]),
        4.0,
        1e-5,
        "eased",
    );
}

#[test]
fn each_axis_follows_its_own_curve_and_rotation_slerps() {
    let curves = Interpolation {
        x: Curve::LINEAR,
        y: Curve::new(127, 0, 127, 127),
        z: Curve::new(0, 127, 0, 127),
        rotation: Curve::LINEAR,
    };
    // 90° about Y: (0, sin 45°, 0, cos 45°).
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let mut v = Vmd::new_v2("m").unwrap();
    v.bone_keys.push(bone("腰", 0, [0.0; 3], IDENTITY));
    v.bone_keys.push(with_curves(
        bone("腰", 80, [1.0, 1.0, 1.0], [0.0, h, 0.0, h]),
        curves,
    ));
    let track = v.bone_track("腰");
    // Frame 70 = 7/8: X linear 0.875, Y ease-in 0.5.
    let p = track.sample(70.0).unwrap().position;
    assert_close(f64::from(p[0]), 0.875, 1e-6, "x");
    assert_close(f64::from(p[1]), 0.5, 1e-6, "y");
    // Frame 10 = 1/8: Z ease-out 7/8.
    assert_close(
        f64::from(track.sample(10.0).unwrap().position[2]),
        0.875,
        1e-6,
        "z",
    );
    // Half way: 45° about Y = (0, sin 22.5°, 0, cos 22.5°).
    let r = track.sample(40.0).unwrap().rotation;
    let (s, c) = (22.5f64.to_radians().sin(), 22.5f64.to_radians().cos());
    for (got, want) in r.iter().zip([0.0, s, 0.0, c]) {
        assert_close(f64::from(*got), want, 1e-6, "slerp half way");
    }
    // The same end rotation written as its negative (-q is the same rotation): the
    // shortest path gives the same half-way rotation, not a 315° turn.
    v.bone_keys[1].rotation = [0.0, -h, 0.0, -h];
    let r2 = v.bone_track("腰").sample(40.0).unwrap().rotation;
    for (got, want) in r2.iter().zip([0.0, s, 0.0, c]) {
        assert_close(f64::from(*got), want, 1e-6, "shortest path");
    }
}

#[test]
fn ends_hold_keys_are_exact_and_the_later_record_of_a_repeated_frame_wins() {
    let mut v = Vmd::new_v2("m").unwrap();
    v.bone_keys.push(bone("首", 30, [3.0, 0.0, 0.0], IDENTITY));
    v.bone_keys.push(bone("首", 10, [1.0, 0.0, 0.0], IDENTITY));
    v.bone_keys.push(bone("首", 30, [9.0, 0.0, 0.0], IDENTITY));
    v.bone_keys.push(bone("別", 20, [5.0, 5.0, 5.0], IDENTITY));
    let t = v.bone_track("首");
    assert_eq!(t.keys().len(), 2, "one key per frame");
    assert_eq!(t.sample(0.0).unwrap().position[0], 1.0, "before the first");
    assert_eq!(
        t.sample(f64::NAN).unwrap().position[0],
        1.0,
        "NaN counts as before"
    );
    assert_eq!(t.sample(10.0).unwrap().position[0], 1.0, "on a key");
    assert_eq!(
        t.sample(30.0).unwrap().position[0],
        9.0,
        "the later record wins"
    );
    assert_eq!(t.sample(1e9).unwrap().position[0], 9.0, "after the last");
    assert_eq!(t.sample(20.0).unwrap().position[0], 5.0, "between 1 and 9");
    assert!(v.bone_track("無い").sample(0.0).is_none());
    assert!(
        v.bone_track("\u{1F600}").is_empty(),
        "a name Shift_JIS cannot hold"
    );
}

#[test]
fn morph_and_light_are_linear_shadow_and_ik_step() {
    let mut v = full_motion();
    // Morph: no curve in the record; linear between 0 (weight 0) and 25 (weight 1).
    v.morph_keys = Some(vec![morph("あ", 0, 0.0), morph("あ", 25, 1.0)]);
    assert_close(
        f64::from(v.morph_track("あ").sample(5.0).unwrap()),
        0.2,
        1e-6,
        "morph",
    );
    // Light: 0.6 at 0, 0.2 at 100: 0.5 at 25.
    let l = v.light_track().sample(25.0).unwrap();
    assert_close(f64::from(l.color[0]), 0.5, 1e-6, "light");
    // Self-shadow and IK steps: the key at or before holds.
    v.self_shadow_keys = Some(vec![
        SelfShadowKey {
            frame: 0,
            mode: 1,
            distance: 0.1,
        },
        SelfShadowKey {
            frame: 10,
            mode: 2,
            distance: 0.5,
        },
    ]);
    let s = v.self_shadow_track();
    assert_eq!(s.sample(9.9).unwrap().mode, 1);
    assert_eq!(s.sample(9.9).unwrap().distance, 0.1);
    assert_eq!(s.sample(10.0).unwrap().mode, 2);
    let ik = v.show_ik_track();
    assert!(ik.sample(59.0).unwrap().ik[0].is_enabled());
    assert!(!ik.sample(60.0).unwrap().ik[0].is_enabled());
}

#[test]
fn camera_keys_one_frame_apart_are_a_cut() {
    let mut v = Vmd::new_v2("camera").unwrap();
    let a = camera(10, -10.0, [0.0; 3], [0.0; 3]);
    let b = camera(11, -50.0, [8.0, 0.0, 0.0], [0.0; 3]);
    v.camera_keys = Some(vec![b, a]);
    let t = v.camera_track();
    // Between 10 and 11 the earlier shot holds, then the camera jumps.
    assert_eq!(t.sample(10.5).unwrap().distance, -10.0);
    assert_eq!(t.sample(10.999).unwrap().target, [0.0; 3]);
    assert_eq!(t.sample(11.0).unwrap().distance, -50.0);
    // Two frames apart: interpolated (linear curves, half way at 11).
    v.camera_keys = Some(vec![a, CameraKey { frame: 12, ..b }]);
    assert_eq!(v.camera_track().sample(11.0).unwrap().distance, -30.0);
    assert_eq!(
        v.camera_track().sample(11.0).unwrap().target,
        [4.0, 0.0, 0.0]
    );
}

#[test]
fn camera_quantities_follow_their_own_curves() {
    let mut v = Vmd::new_v2("camera").unwrap();
    let mut b = camera(8, -20.0, [8.0, 8.0, 8.0], [0.8, 0.8, 0.8]);
    b.fov = 38;
    b.set_interpolation(&CameraInterpolation {
        target_y: Curve::new(127, 0, 127, 127),
        distance: Curve::new(127, 0, 127, 127),
        ..CameraInterpolation::LINEAR
    });
    let mut a = camera(0, -10.0, [0.0; 3], [0.0; 3]);
    a.fov = 30;
    v.camera_keys = Some(vec![a, b]);
    // Frame 7 = 7/8: linear ones 7/8, eased ones 1/2.
    let s = v.camera_track().sample(7.0).unwrap();
    assert_close(f64::from(s.target[0]), 7.0, 1e-5, "target x");
    assert_close(f64::from(s.target[1]), 4.0, 1e-5, "target y (eased)");
    assert_close(f64::from(s.distance), -15.0, 1e-5, "distance (eased)");
    assert_close(f64::from(s.rotation[2]), 0.7, 1e-6, "rotation");
    assert_close(f64::from(s.fov), 37.0, 1e-5, "fov");
}

#[test]
fn sampling_at_a_key_gives_that_key_in_every_fixture() {
    for (file, _, vmd) in fixtures() {
        let mut names: Vec<&[u8]> = vmd.bone_keys.iter().map(|k| k.name.name_bytes()).collect();
        names.sort_unstable();
        names.dedup();
        let mut checked = 0;
        for name in names {
            let track = vmd.bone_track_bytes(name);
            // One key per frame, the later record of a repeated frame: each samples exactly.
            for key in track.keys() {
                let pose = track.sample(f64::from(key.frame)).unwrap();
                assert_eq!(
                    pose.position.map(f32::to_bits),
                    key.position.map(f32::to_bits),
                    "{file}"
                );
                assert_eq!(
                    pose.rotation.map(f32::to_bits),
                    key.rotation.map(f32::to_bits),
                    "{file}"
                );
                checked += 1;
            }
        }
        assert!(checked <= vmd.bone_keys.len());
        assert_eq!(
            checked > 0,
            !vmd.bone_keys.is_empty(),
            "{file}: keys sampled"
        );
        // Every camera sample keeps |position − target| = |distance| (the seed's formula).
        let cam = vmd.camera_track();
        for k in cam.keys() {
            for df in [0.0, 0.5] {
                let s = cam.sample(f64::from(k.frame) + df).unwrap();
                let d = dist(s.position(), s.target.map(f64::from));
                assert_close(d, f64::from(s.distance).abs(), 1e-3, &file);
            }
        }
    }
}

// ---- where the camera is -----------------------------------------------------------

/// three.js r171's construction, which seed 004 calls wrong: R · (target + (0, 0, −d)),
/// in the right-handed frame.
fn wrong_position_rh(s: &CameraState) -> [f64; 3] {
    let t = position_to_rh(s.target).map(f64::from);
    let v = [t[0], t[1], t[2] - f64::from(s.distance)];
    mat_apply(&s.rotation_matrix_rh(), v)
}

fn dist(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

#[test]
fn camera_position_is_target_plus_r_times_minus_distance() {
    // MMD's default view: target (0, 10, 0), distance −45, no rotation: 45 in front of
    // the model, at z = −45 in MMD's coordinates (z = +45 right-handed).
    let default = camera(0, -45.0, [0.0, 10.0, 0.0], [0.0; 3]).state();
    assert_eq!(default.position(), [0.0, 10.0, -45.0]);
    assert_eq!(default.position_rh(), [0.0, 10.0, 45.0]);

    // A concrete key: target (10, 0, 0), distance −5, turned 90° (y = π/2).
    //   Right-handed: target (10, 0, 0); R = Ry(π/2) maps (0, 0, 5) to (5, 0, 0);
    //   position = (15, 0, 0), 5 from the target as the key says.
    let k = camera(
        0,
        -5.0,
        [10.0, 0.0, 0.0],
        [0.0, std::f32::consts::FRAC_PI_2, 0.0],
    )
    .state();
    let p = k.position_rh();
    for (got, want) in p.iter().zip([15.0, 0.0, 0.0]) {
        assert_close(*got, want, 1e-5, "correct position");
    }
    assert_close(dist(p, [10.0, 0.0, 0.0]), 5.0, 1e-5, "correct distance");
    //   The wrong formula: R · ((10, 0, 0) + (0, 0, 5)) = Ry(π/2) · (10, 0, 5) = (5, 0, −10),
    //   √((5−10)² + 10²) = √125 ≈ 11.18 from the target: the shot is more than twice as far.
    let w = wrong_position_rh(&k);
    for (got, want) in w.iter().zip([5.0, 0.0, -10.0]) {
        assert_close(*got, want, 1e-5, "wrong position");
    }
    assert_close(
        dist(w, [10.0, 0.0, 0.0]),
        125f64.sqrt(),
        1e-5,
        "wrong distance",
    );

    // Pitched and turned (x = −30°, y = 45°), target (0, 10, 0), distance −45:
    //   Rx(−30°) · (0, 0, 45) = (0, 45 sin 30°, 45 cos 30°) = (0, 22.5, 38.971);
    //   Ry(45°) turns that to (38.971 · sin 45°, 22.5, 38.971 · cos 45°) = (27.557, 22.5, 27.557).
    //   Yaw outermost keeps the elevation at 30°: the camera is 22.5 above the target.
    let (x, y) = (-30f32.to_radians(), 45f32.to_radians());
    let k = camera(0, -45.0, [0.0, 10.0, 0.0], [x, y, 0.0]).state();
    let p = k.position_rh();
    for (got, want) in p.iter().zip([27.5567, 32.5, 27.5567]) {
        assert_close(*got, want, 1e-3, "pitched and turned");
    }
    // In MMD's coordinates the same point has its Z negated, and is
    // target + Ry(−y) · Rx(−x) · Rz(−z) · (0, 0, distance).
    let r_lh = mat_mul(
        &mat_mul(&rot_y(f64::from(-y)), &rot_x(f64::from(-x))),
        &rot_z(0.0),
    );
    let d = mat_apply(&r_lh, [0.0, 0.0, -45.0]);
    let lh = k.position();
    for i in 0..3 {
        assert_close(lh[i], [0.0, 10.0, 0.0][i] + d[i], 1e-9, "MMD coordinates");
    }
    // The camera looks at the target: R · (0, 0, −1) points from the eye to it.
    let look = mat_apply(&k.rotation_matrix_rh(), [0.0, 0.0, -1.0]);
    let t = position_to_rh(k.target).map(f64::from);
    for i in 0..3 {
        assert_close(p[i] + 45.0 * look[i], t[i], 1e-4, "looks at the target");
    }
    // The quaternion is the same rotation as the matrix.
    let q = k.orientation_rh();
    let m = k.rotation_matrix_rh();
    let qm = quat_matrix(q);
    for i in 0..3 {
        for j in 0..3 {
            assert_close(qm[i][j], m[i][j], 1e-9, "orientation");
        }
    }
}

#[test]
fn the_wrong_camera_formula_drifts_on_fixture_keys() {
    let mut worst = 0.0f64;
    let mut keys = 0;
    for (file, _, vmd) in fixtures() {
        for k in vmd.camera_keys.iter().flatten() {
            let s = k.state();
            let t = position_to_rh(s.target).map(f64::from);
            let right = dist(s.position_rh(), t);
            let wrong = dist(wrong_position_rh(&s), t);
            let d = f64::from(s.distance).abs();
            assert_close(right, d, 1e-3 * d.max(1.0), &file);
            // R·(t + v) − t = (R·t − t) + R·v, so the error is at most |R·t − t| ≤ 2|t|.
            let reach = 2.0 * t.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((wrong - d).abs() <= reach + 1e-3, "{file}");
            worst = worst.max((wrong - d).abs());
            keys += 1;
        }
    }
    if mmd_tests::corpus_dir().is_some() {
        // Real camera files aim away from the origin and turn: the wrong formula moves
        // the camera by whole units there.
        assert!(keys > 0, "no camera key in the fixtures");
        assert!(worst > 1.0, "worst distance error {worst} over {keys} keys");
        eprintln!("wrong camera formula: worst distance error {worst:.2} over {keys} fixture keys");
    }
}

/// The rotation matrix of a unit quaternion (x, y, z, w).
fn quat_matrix(q: [f64; 4]) -> Mat3 {
    let [x, y, z, w] = q;
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - z * w),
            2.0 * (x * z + y * w),
        ],
        [
            2.0 * (x * y + z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - x * w),
        ],
        [
            2.0 * (x * z - y * w),
            2.0 * (y * z + x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ]
}

/// S · M · S for a diagonal S.
fn conjugate(m: &Mat3, s: [f64; 3]) -> Mat3 {
    std::array::from_fn(|i| std::array::from_fn(|j| s[i] * m[i][j] * s[j]))
}

// ---- right-handed view -------------------------------------------------------------

#[test]
fn right_handed_view_flips_z() {
    let key = bone("左腕", 0, [1.0, 2.0, 3.0], [0.1, 0.2, 0.3, 0.927_361_8]);
    assert_eq!(key.position_rh(), [1.0, 2.0, -3.0]);
    assert_eq!(key.rotation_rh(), [-0.1, -0.2, 0.3, 0.927_361_8]);
    // (−x, −y, z, w) is the rotation S·M·S for S = diag(1, 1, −1): the rotation seen in
    // the Z-flipped frame.
    let q = key.rotation.map(f64::from);
    let expected = conjugate(&quat_matrix(q), [1.0, 1.0, -1.0]);
    let got = quat_matrix(key.rotation_rh().map(f64::from));
    for i in 0..3 {
        for j in 0..3 {
            assert_close(got[i][j], expected[i][j], 1e-6, "S·M·S");
        }
    }
    // The same holds for a sampled pose.
    let pose = BoneState::of(&key).to_right_handed();
    assert_eq!(pose.position, key.position_rh());
    assert_eq!(pose.rotation, key.rotation_rh());
    // Camera: target Z negated, Euler Z negated (seed 004: "Zだけ反転").
    let cam = camera(0, -45.0, [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]);
    assert_eq!(cam.target_rh(), [1.0, 2.0, -3.0]);
    assert_eq!(cam.rotation_rh(), [1.0, 2.0, -3.0]);
    let rh = cam.state().to_right_handed();
    assert_eq!(
        (rh.target, rh.rotation),
        ([1.0, 2.0, -3.0], [1.0, 2.0, -3.0])
    );
    assert_eq!((rh.distance, rh.fov), (-45.0, 30.0));
    assert_eq!(light(0, 1.0).direction_rh(), [-0.5, -1.0, -0.5]);
    // The stored values are not touched by any view.
    assert_eq!(cam.target, [1.0, 2.0, 3.0]);
}

// ---- mirror --------------------------------------------------------------------------

#[test]
fn mirror_twice_is_the_identity_on_bytes() {
    let mut n = 0;
    for (file, bytes, vmd) in samples().into_iter().chain(fixtures()) {
        let mut v = vmd.clone();
        let first = v.mirror(&MirrorOptions {
            morph_names: true,
            ..MirrorOptions::default()
        });
        v.to_bytes().unwrap_or_else(|e| panic!("{file}: {e}"));
        let second = v.mirror(&MirrorOptions {
            morph_names: true,
            ..MirrorOptions::default()
        });
        assert_eq!(first.changed, second.changed, "{file}");
        assert_bytes_eq(&v.to_bytes().unwrap(), &bytes, &file);
        n += 1;
    }
    assert!(n >= 19);
}

#[test]
fn mirror_changes_only_the_mirrored_bytes() {
    let mut v = Vmd::new_v2("m").unwrap();
    // 左腕, NUL, then 右 in the junk after the NUL, which must stay.
    let mut arm = bone("左腕", 0, [1.0, 0.0, 0.0], [0.1, 0.2, 0.3, 0.9]);
    arm.name.0[5] = 0x89;
    arm.name.0[6] = 0x45;
    v.bone_keys.push(arm);
    // A key whose position and rotation components are 0: no −0.0 appears.
    v.bone_keys.push(bone("センター", 0, [0.0; 3], IDENTITY));
    v.show_ik_keys = Some(vec![show_ik(0, true)]);
    let before = v.to_bytes().unwrap();
    let report = v.mirror(&MirrorOptions::default());
    let after = v.to_bytes().unwrap();
    assert_eq!(before.len(), after.len());
    let differ: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    // Bone key 0 starts at 54: 左 (8D B6 → 89 45) at 54..56; position x's sign byte at
    // 54 + 19 + 3 = 76; rotation y's and z's sign bytes at 54 + 31 + 7 = 92 and 96.
    // The IK name 左足ＩＫ: block starts after 50 + 4 + 2×111 + 4×4 = 292; key at 296,
    // IK state at 296 + 9 = 305, 左 at 305..307.
    assert_eq!(differ, [54, 55, 76, 92, 96, 305, 306]);
    assert_eq!(report.changed.bone, 1);
    assert_eq!(report.changed.show_ik, 1);
    assert_eq!(report.bone_names, [("左腕".to_owned(), "右腕".to_owned())]);
    assert_eq!(
        report.ik_names,
        [("左足ＩＫ".to_owned(), "右足ＩＫ".to_owned())]
    );
    assert_eq!(
        &v.bone_keys[0].name.0[4..7],
        &[0, 0x89, 0x45],
        "junk after the NUL kept"
    );
}

#[test]
fn mirror_flips_camera_and_light_and_the_result_is_a_reflection() {
    let mut v = full_motion();
    let orig = v.clone();
    v.mirror(&MirrorOptions::default());
    let k = &v.camera_keys.as_ref().unwrap()[1];
    assert_eq!(k.target, [-2.0, 12.0, -1.0]);
    assert_eq!(k.rotation, [-0.2, -0.5, -0.1]);
    // The mirrored camera stands where the original's mirror image stands.
    let (p, q) = (
        k.state().position(),
        orig.camera_keys.as_ref().unwrap()[1].state().position(),
    );
    assert_close(p[0], -q[0], 1e-5, "x");
    assert_close(p[1], q[1], 1e-5, "y");
    assert_close(p[2], q[2], 1e-5, "z");
    // A mirrored rotation is S·M·S for S = diag(−1, 1, 1).
    let (a, b) = (&orig.bone_keys[1], &v.bone_keys[1]);
    let expected = conjugate(&quat_matrix(a.rotation.map(f64::from)), [-1.0, 1.0, 1.0]);
    let got = quat_matrix(b.rotation.map(f64::from));
    for i in 0..3 {
        for j in 0..3 {
            assert_close(got[i][j], expected[i][j], 1e-6, "mirror S·M·S");
        }
    }
    assert_eq!(
        v.light_keys.as_ref().unwrap()[0].direction,
        [0.5, -1.0, 0.5]
    );
    // Options off: camera and light untouched.
    let mut w = orig.clone();
    let r = w.mirror(&MirrorOptions {
        camera: false,
        light: false,
        morph_names: false,
    });
    assert_eq!(w.camera_keys, orig.camera_keys);
    assert_eq!(w.light_keys, orig.light_keys);
    assert_eq!((r.changed.camera, r.changed.light), (0, 0));
}

// ---- speed ----------------------------------------------------------------------------

#[test]
fn speed_times_two_then_half_reports_drops() {
    let mut v = Vmd::new_v2("m").unwrap();
    for f in 0..=10 {
        v.bone_keys
            .push(bone("センター", f, [f as f32, 0.0, 0.0], IDENTITY));
    }
    let orig = v.clone();
    // ×2: f → round(f / 2), half away from zero: 0→0, 1→1 (0.5), 2→1, 3→2 (1.5), 4→2, …
    // At each new frame 1..=5 the odd frame (rounded by 0.5) loses to the even (exact).
    let r = v.speed(2.0, &SpeedOptions::default()).unwrap();
    let dropped: Vec<u32> = r.dropped.iter().map(|d| d.frame).collect();
    assert_eq!(dropped, [1, 3, 5, 7, 9]);
    assert_eq!(r.dropped_counts.bone, 5);
    assert_eq!(r.dropped[0].new_frame, 1);
    assert_eq!(r.dropped[0].kept_frame, 2);
    assert_eq!(r.dropped[0].name, "センター");
    let frames: Vec<u32> = v.bone_keys.iter().map(|k| k.frame).collect();
    assert_eq!(frames, [0, 1, 2, 3, 4, 5]);
    // ×0.5 doubles: nothing collides, the even keys are back where they were, bytes and all.
    let r = v.speed(0.5, &SpeedOptions::default()).unwrap();
    assert!(r.dropped.is_empty());
    assert_eq!(r.dropped_counts.total(), 0);
    let evens: Vec<BoneKey> = orig
        .bone_keys
        .iter()
        .filter(|k| k.frame % 2 == 0)
        .copied()
        .collect();
    assert_eq!(v.bone_keys, evens);
}

#[test]
fn speed_keeps_cuts_and_repeated_frames() {
    let mut v = Vmd::new_v2("camera").unwrap();
    let c = |f| camera(f, -45.0, [0.0; 3], [0.0; 3]);
    v.camera_keys = Some(vec![c(0), c(60), c(61), c(120), c(200), c(201), c(202)]);
    let mut plain = v.clone();
    let r = v.speed(0.5, &SpeedOptions::default()).unwrap();
    let frames: Vec<u32> = v.camera_keys.iter().flatten().map(|k| k.frame).collect();
    // The lone pair 60/61 is a cut: it stays one frame apart (120, 121). The run
    // 200/201/202 is per-frame animation, not a cut: it is rescaled like the rest.
    assert_eq!(frames, [0, 120, 121, 240, 400, 402, 404]);
    assert_eq!(r.cuts_kept, 1);
    plain
        .speed(0.5, &SpeedOptions { keep_cuts: false })
        .unwrap();
    let frames: Vec<u32> = plain
        .camera_keys
        .iter()
        .flatten()
        .map(|k| k.frame)
        .collect();
    assert_eq!(frames, [0, 120, 122, 240, 400, 402, 404]);
    // Two records at one frame before the change both stay: they collided already.
    let mut d = Vmd::new_v2("m").unwrap();
    d.morph_keys = Some(vec![
        morph("あ", 4, 0.0),
        morph("あ", 4, 1.0),
        morph("あ", 5, 0.5),
    ]);
    let r = d.speed(2.0, &SpeedOptions::default()).unwrap();
    // 4 → 2 (exact), 5 → 3 (2.5 rounds away from zero): no collision at all.
    assert!(r.dropped.is_empty());
    assert_eq!(d.morph_keys.as_ref().unwrap().len(), 3);
}

#[test]
fn speed_rejects_bad_factors_and_overflow_changing_nothing() {
    let mut v = full_motion();
    let orig = v.clone();
    for f in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            v.speed(f, &SpeedOptions::default()),
            Err(EditError::Factor(_))
        ));
    }
    v.light_keys
        .as_mut()
        .unwrap()
        .push(light(u32::MAX / 2 + 1, 0.1));
    let before = v.clone();
    let e = v.speed(0.5, &SpeedOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            EditError::FrameOverflow {
                block: Block::Light,
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains("light key at frame 2147483648"),
        "{e}"
    );
    assert_eq!(v, before);
    assert_ne!(v, orig);
}

#[test]
fn speed_on_fixtures_reports_every_dropped_key() {
    for (file, _, vmd) in fixtures() {
        let mut v = vmd.clone();
        let r = v.speed(2.0, &SpeedOptions::default()).unwrap();
        let count = |v: &Vmd| v.frames().count();
        assert_eq!(count(&vmd) - count(&v), r.dropped.len(), "{file}");
        assert_eq!(r.dropped.len(), r.dropped_counts.total(), "{file}");
        // Slowing down again never collides.
        let r = v.speed(0.5, &SpeedOptions::default()).unwrap();
        assert!(r.dropped.is_empty(), "{file}");
        v.to_bytes().unwrap();
    }
}

// ---- trim and merge ---------------------------------------------------------------

fn sorted_by_frame(v: &Vmd) -> Vmd {
    let mut v = v.clone();
    v.bone_keys.sort_by_key(|k| k.frame);
    for keys in v.morph_keys.iter_mut() {
        keys.sort_by_key(|k| k.frame);
    }
    for keys in v.camera_keys.iter_mut() {
        keys.sort_by_key(|k| k.frame);
    }
    for keys in v.light_keys.iter_mut() {
        keys.sort_by_key(|k| k.frame);
    }
    for keys in v.self_shadow_keys.iter_mut() {
        keys.sort_by_key(|k| k.frame);
    }
    for keys in v.show_ik_keys.iter_mut() {
        keys.sort_by_key(|k| k.frame);
    }
    v
}

/// Trims `v` at `cut` into [0, cut − 1] and [cut, last], then merges them back.
fn split_and_merge(v: &Vmd, cut: u32) -> (Vmd, TrimReport, TrimReport, MergeReport) {
    let last = v.frames().max().unwrap_or(0).max(cut);
    let mut a = v.clone();
    let ra = a.trim(0, cut - 1, &TrimOptions::default()).unwrap();
    let mut b = v.clone();
    let rb = b.trim(cut, last, &TrimOptions::default()).unwrap();
    let rm = a
        .merge(
            &b,
            &MergeOptions {
                offset: cut,
                rule: MergeRule::SecondWins,
            },
        )
        .unwrap();
    (a, ra, rb, rm)
}

#[test]
fn trim_then_merge_restores_the_keys() {
    let v = full_motion();
    let (merged, ra, rb, rm) = split_and_merge(&v, 41);
    // Keys below 41 went to the first part, the rest (shifted to start at 0) to the second.
    assert_eq!(ra.kept.total() + rb.kept.total(), v.frames().count());
    assert_eq!(ra.kept.total(), rb.dropped.total());
    assert_eq!(rb.shift, 41);
    assert!(rm.conflicts.is_empty());
    assert_eq!(rm.added.total(), rb.kept.total());
    // The keys are sorted by frame, so the concatenation is the same file, byte for byte.
    assert_bytes_eq(
        &merged.to_bytes().unwrap(),
        &v.to_bytes().unwrap(),
        "split at 41",
    );
}

#[test]
fn trim_then_merge_restores_the_keys_of_every_fixture() {
    for (file, _, vmd) in fixtures() {
        let sorted = sorted_by_frame(&vmd);
        let last = vmd.frames().max().unwrap_or(0);
        let cut = (last / 2).max(1);
        let (merged, ..) = split_and_merge(&sorted, cut);
        assert_bytes_eq(
            &merged.to_bytes().unwrap(),
            &sorted.to_bytes().unwrap(),
            &file,
        );
    }
}

#[test]
fn trim_keeps_records_blocks_and_trailing_bytes() {
    let mut v = full_motion();
    v.trailing = b"tail".to_vec();
    v.light_keys = None;
    v.self_shadow_keys = None;
    v.show_ik_keys = None;
    let orig = v.clone();
    let r = v
        .trim(
            10,
            40,
            &TrimOptions {
                shift: false,
                boundary: false,
            },
        )
        .unwrap();
    assert_eq!(r.shift, 0);
    assert_eq!(v.trailing, b"tail");
    assert_eq!(
        (v.light_keys.as_ref(), v.show_ik_keys.as_ref()),
        (None, None),
        "absent stays absent"
    );
    // Kept keys are the original records, unshifted, in file order.
    let kept: Vec<BoneKey> = orig
        .bone_keys
        .iter()
        .filter(|k| (10..=40).contains(&k.frame))
        .copied()
        .collect();
    assert_eq!(v.bone_keys, kept);
    assert_eq!(r.kept.bone, kept.len());
    assert_eq!(r.dropped.bone, orig.bone_keys.len() - kept.len());
    // Camera keys 0, 40, 41, 100: only 40 is in 10..=40.
    assert_eq!(v.camera_keys.as_ref().unwrap().len(), 1);
    assert_eq!(
        v.trim(5, 4, &TrimOptions::default()).unwrap_err(),
        EditError::Range {
            what: "trim",
            from: 5,
            to: 4
        }
    );
}

#[test]
fn trim_with_boundary_keys_keeps_the_pose_at_the_ends() {
    let v = full_motion();
    let mut t = v.clone();
    let r = t
        .trim(
            15,
            65,
            &TrimOptions {
                shift: true,
                boundary: true,
            },
        )
        .unwrap();
    // 左腕 keys at 10, 20, …: 15 and 65 fall inside segments. 右ひじ keys at 11, 21, …:
    // likewise. Camera keys 0, 40, 41, 100: 15 and 65 inside segments. Morph keys 0, 25,
    // 50, 75, 100: both. Light 0, 100: both. Self-shadow (0 only): a copy at 15. IK keys
    // 0 and 60: a copy of the one in force at 15.
    let added: Vec<(Block, u32)> = r.added.iter().map(|a| (a.block, a.frame)).collect();
    for block in [Block::Bone, Block::Morph, Block::Camera, Block::Light] {
        assert!(
            added.contains(&(block, 0)) && added.contains(&(block, 50)),
            "{block}: {added:?}"
        );
    }
    assert_eq!(added.iter().filter(|a| a.0 == Block::SelfShadow).count(), 1);
    assert_eq!(added.iter().filter(|a| a.0 == Block::ShowIk).count(), 1);
    // Every track samples (nearly) as the original between the ends; the curves of the
    // cut segments are rounded to the 0..127 grid.
    for n in ["左腕", "右ひじ"] {
        let (a, b) = (v.bone_track(n), t.bone_track(n));
        for f in 15..=65 {
            let (pa, pb) = (
                a.sample(f64::from(f)).unwrap(),
                b.sample(f64::from(f - 15)).unwrap(),
            );
            for i in 0..3 {
                assert_close(
                    f64::from(pb.position[i]),
                    f64::from(pa.position[i]),
                    0.05,
                    n,
                );
            }
            for i in 0..4 {
                assert_close(
                    f64::from(pb.rotation[i]),
                    f64::from(pa.rotation[i]),
                    0.01,
                    n,
                );
            }
        }
    }
    for f in 15..=65 {
        let (a, b) = (
            v.camera_track().sample(f64::from(f)).unwrap(),
            t.camera_track().sample(f64::from(f - 15)).unwrap(),
        );
        assert_close(
            f64::from(b.distance),
            f64::from(a.distance),
            0.05,
            "camera distance",
        );
        let (m0, m1) = (v.morph_track("まばたき"), t.morph_track("まばたき"));
        assert_close(
            f64::from(m1.sample(f64::from(f - 15)).unwrap()),
            f64::from(m0.sample(f64::from(f)).unwrap()),
            1e-5,
            "morph",
        );
        assert_eq!(
            t.show_ik_track().sample(f64::from(f - 15)).unwrap().ik,
            v.show_ik_track().sample(f64::from(f)).unwrap().ik
        );
    }
    assert!(r.curves_cut > 0);
    t.to_bytes().unwrap();
}

#[test]
fn merge_conflicts_follow_the_rule_and_are_reported() {
    let mut a = Vmd::new_v2("a").unwrap();
    a.bone_keys = vec![
        bone("頭", 0, [1.0, 0.0, 0.0], IDENTITY),
        bone("頭", 10, [1.0, 0.0, 0.0], IDENTITY),
    ];
    let mut b = Vmd::new_v2("b").unwrap();
    b.bone_keys = vec![
        bone("頭", 0, [2.0, 0.0, 0.0], IDENTITY),
        bone("首", 1, [2.0, 0.0, 0.0], IDENTITY),
    ];
    b.trailing = b"xyz".to_vec();
    let opts = |rule| MergeOptions { offset: 10, rule };
    let mut second = a.clone();
    let r = second.merge(&b, &opts(MergeRule::SecondWins)).unwrap();
    assert_eq!(
        r.conflicts,
        [Conflict {
            block: Block::Bone,
            name: "頭".into(),
            frame: 10
        }]
    );
    assert_eq!((r.replaced.bone, r.added.bone, r.skipped.bone), (1, 2, 0));
    assert_eq!(r.second_trailing_dropped, 3);
    assert_eq!(
        second.bone_track("頭").sample(10.0).unwrap().position[0],
        2.0
    );
    assert_eq!(second.header, a.header, "the first file's header stays");
    let mut first = a.clone();
    let r = first.merge(&b, &opts(MergeRule::FirstWins)).unwrap();
    assert_eq!(r.conflicts.len(), 1);
    assert_eq!((r.replaced.bone, r.added.bone, r.skipped.bone), (0, 1, 1));
    assert_eq!(
        first.bone_track("頭").sample(10.0).unwrap().position[0],
        1.0
    );
    // Overflow (首 at 1 + u32::MAX) fails and changes nothing.
    let mut c = a.clone();
    let e = c
        .merge(
            &b,
            &MergeOptions {
                offset: u32::MAX,
                ..Default::default()
            },
        )
        .unwrap_err();
    assert!(matches!(e, EditError::FrameOverflow { .. }));
    assert_eq!(c, a);
}

#[test]
fn merge_makes_blocks_present_in_order() {
    let mut a = Vmd::new_v2("a").unwrap();
    a.bone_keys.push(bone("頭", 0, [0.0; 3], IDENTITY));
    a.morph_keys = None;
    a.camera_keys = None;
    a.light_keys = None;
    a.self_shadow_keys = None;
    a.show_ik_keys = None;
    let mut b = Vmd::new_v2("b").unwrap();
    b.camera_keys = Some(vec![camera(0, -45.0, [0.0; 3], [0.0; 3])]);
    b.light_keys = None;
    b.self_shadow_keys = None;
    b.show_ik_keys = None;
    let r = a.merge(&b, &MergeOptions::default()).unwrap();
    // b's morph block (present, empty) and camera block come over; nothing is missing
    // before the camera block, so nothing had to be made present.
    assert_eq!(r.blocks_made_present, 0);
    assert_eq!(a.morph_keys, Some(vec![]));
    let bytes = a.to_bytes().unwrap();
    assert_eq!(Vmd::from_bytes(&bytes).unwrap(), a);
    // Here b's morph block is absent: a's absent morph block must become present (empty).
    let mut c = Vmd::new_v2("c").unwrap();
    c.morph_keys = None;
    c.camera_keys = None;
    c.light_keys = None;
    c.self_shadow_keys = None;
    c.show_ik_keys = None;
    let mut d = c.clone();
    d.light_keys = Some(vec![light(0, 1.0)]);
    let r = c.merge(&d, &MergeOptions::default()).unwrap();
    assert_eq!(r.blocks_made_present, 2);
    assert_eq!(
        (c.morph_keys.as_deref(), c.camera_keys.as_deref()),
        (Some(&[][..]), Some(&[][..]))
    );
    assert_eq!(Vmd::from_bytes(&c.to_bytes().unwrap()).unwrap(), c);
}

// ---- rest-key fill-in ------------------------------------------------------------

#[test]
fn fill_in_gives_every_named_bone_keys_at_start_and_end() {
    // Seed 004: an arm raised only at frame 30 stays raised from 0 to the end unless the
    // other frames say "rest" explicitly; the fix is the union of the bone names with the
    // initial pose written where nothing is.
    let up = [
        0.0,
        0.0,
        std::f32::consts::FRAC_1_SQRT_2,
        std::f32::consts::FRAC_1_SQRT_2,
    ];
    let mut v = Vmd::new_v2("m").unwrap();
    v.bone_keys.push(bone("左腕", 30, [0.0; 3], up));
    v.bone_keys.push(bone("頭", 0, [0.0; 3], IDENTITY));
    v.bone_keys.push(bone("頭", 60, [0.0, 1.0, 0.0], IDENTITY));
    assert_eq!(
        v.bone_track("左腕").sample(0.0).unwrap().rotation,
        up,
        "before: raised at 0"
    );
    let orig = v.clone();
    let r = v.fill_rest_keys(&FillOptions::default()).unwrap();
    assert_eq!((r.start, r.end, r.bones), (0, 60, 2));
    let added: Vec<(&str, u32)> = r.added.iter().map(|k| (k.name.as_str(), k.frame)).collect();
    assert_eq!(added, [("左腕", 0), ("左腕", 60)]);
    let t = v.bone_track("左腕");
    assert_eq!(t.sample(0.0).unwrap().rotation, IDENTITY);
    assert_eq!(t.sample(30.0).unwrap().rotation, up);
    assert_eq!(t.sample(60.0).unwrap().rotation, IDENTITY);
    assert_eq!(
        &v.bone_keys[..3],
        &orig.bone_keys[..],
        "existing keys untouched, new ones appended"
    );
    // Names given by the caller join the union.
    let mut w = orig.clone();
    let r = w
        .fill_rest_keys(&FillOptions {
            names: vec![name("右腕"), name("頭")],
            ..Default::default()
        })
        .unwrap();
    assert_eq!(r.bones, 3);
    assert_eq!(r.added.len(), 4);
    // Hold: the new keys keep the pose, so playback does not change.
    let mut h = orig.clone();
    h.fill_rest_keys(&FillOptions {
        mode: FillMode::Hold,
        ..Default::default()
    })
    .unwrap();
    for f in 0..=60 {
        let (a, b) = (h.bone_track("左腕"), orig.bone_track("左腕"));
        let (a, b) = (
            a.sample(f64::from(f)).unwrap(),
            b.sample(f64::from(f)).unwrap(),
        );
        for i in 0..4 {
            assert_close(
                f64::from(a.rotation[i]),
                f64::from(b.rotation[i]),
                1e-6,
                "hold",
            );
        }
    }
    let e = h.fill_rest_keys(&FillOptions {
        start: 10,
        end: Some(5),
        ..Default::default()
    });
    assert_eq!(
        e.unwrap_err(),
        EditError::Range {
            what: "fill",
            from: 10,
            to: 5
        }
    );
}
