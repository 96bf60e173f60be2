//! Pose evaluation over the fixture pairs whose tracks bind (the brief's list): how many
//! tracks bind (for the PMD pairs the counts babylon-mmd 1.3.0 gives, DESIGN.md), every
//! pose finite, every solved IK chain leaving its effector no farther from the goal than
//! before the solve, no allocation while evaluating after the first frame, and the IK
//! baked into the motion playing, with IK off, as the original plays with IK on.
//!
//! One `#[test]`, so no other test thread allocates while the allocations are counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};

use mmd_formats::pmd::Pmd;
use mmd_formats::pmx::Pmx;
use mmd_formats::pose::{bake_ik, Binding, Evaluator, Rig};
use mmd_formats::vmd::Vmd;
use mmd_tests::fixture;

/// A global allocator that counts allocations.
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, SeqCst);
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, SeqCst);
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, SeqCst);
        System.realloc(ptr, layout, new_size)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// (model, motion, bone tracks bound, bone tracks in the motion).
///
/// gene.pmx + mmdagent_walk.vmd: the one track that does not bind, 前クローク2_1xc, is
/// 15 bytes, the first 15 of two 16-byte bones (前クローク2_1xca and 前クローク2_1xc+,
/// `mmd pmx bones`): the motion's writer cut the name, and names bind exactly.
/// mei + mei_wait: 左つま先ＩＫ先0 is no bone of mei.pmd (babylon-mmd: 141/142 too).
const PAIRS: [(&str, &str, usize, usize); 5] = [
    ("pmx/gene.pmx", "vmd/mmdagent_walk.vmd", 221, 222),
    ("pmd/mei.pmd", "vmd/mei_wait.vmd", 141, 142),
    ("pmd/miku_v2.pmd", "vmd/wavefile_v2.vmd", 140, 140),
    ("pmd/sd_mei.pmd", "vmd/mmdagent_wait_moving.vmd", 57, 57),
    ("pmd/mmdagent_menu.pmd", "vmd/menu_rotation.vmd", 16, 16),
];

/// The angle between two rotations, precise near 0 (f32 `acos` of a dot product near 1
/// rounds small angles up to about 7e-4 rad).
fn angle(a: mmd_formats::pose::glam::Quat, b: mmd_formats::pose::glam::Quat) -> f32 {
    let d = a.conjugate() * b;
    2.0 * mmd_formats::pose::glam::Vec3::new(d.x, d.y, d.z)
        .length()
        .atan2(d.w.abs())
}

fn rig_of(path: &str, bytes: &[u8]) -> Rig {
    if path.ends_with(".pmx") {
        Rig::from_pmx(&Pmx::from_bytes(bytes).expect(path))
    } else {
        Rig::from_pmd(&Pmd::from_bytes(bytes).expect(path))
    }
}

#[test]
fn fixture_pairs_bind_evaluate_and_allocate_nothing_per_frame() {
    let mut pairs = PAIRS.to_vec();
    pairs.push(("pmx/alicia_solid.pmx", "vmd/nuekaze_motion.vmd", 0, 0));
    for (model, motion, bound, tracks) in pairs {
        let (Some(model_bytes), Some(motion_bytes)) = (fixture(model), fixture(motion)) else {
            return;
        };
        let rig = rig_of(model, &model_bytes);
        let vmd = Vmd::from_bytes(&motion_bytes).expect(motion);
        let binding = Binding::vmd(&rig, &vmd);
        let report = binding.report();
        if tracks > 0 {
            assert_eq!(
                (report.bone_bound, report.bone_tracks),
                (bound, tracks),
                "{model} + {motion}: {:?}",
                report.bone_unbound
            );
        } else {
            assert!(report.bone_bound > 0, "{model} + {motion}");
        }
        let last = vmd.bone_keys.iter().map(|k| k.frame).max().unwrap_or(0);
        let mut eval = Evaluator::new(&rig);
        eval.evaluate(&binding, 0.0);
        let frames = 60u32;
        let (mut solves, mut reached) = (0usize, 0usize);
        for step in 0..=frames {
            // Fractional frames spread over the whole motion.
            let frame = f64::from(last) * f64::from(step) / f64::from(frames) + 0.37;
            let before = ALLOCATIONS.load(SeqCst);
            eval.evaluate(&binding, frame);
            let after = ALLOCATIONS.load(SeqCst);
            assert_eq!(
                after, before,
                "{model} + {motion}: allocated at frame {frame}"
            );
            for (i, bone) in rig.bones().iter().enumerate() {
                assert!(
                    eval.world_position(i).is_finite() && eval.world_rotation(i).is_finite(),
                    "{model} + {motion}: bone {i} at frame {frame}"
                );
                let Some((start, end)) = eval.ik_distance(i) else {
                    continue;
                };
                solves += 1;
                reached += usize::from(end < 1e-2);
                assert!(
                    end <= start,
                    "{model} + {motion}: bone {i} ({}) at frame {frame}: {end} > {start}",
                    bone.name
                );
            }
        }
        eprintln!("{model} + {motion}: {reached} of {solves} IK solves end within 0.01");

        // The baked motion, played with IK off (its IK block says so), poses every bone
        // where the original puts it with IK on, at whole frames.
        let (baked, report) = bake_ik(&rig, &vmd).expect("a bake of a real motion");
        // gene.pmx's 前クローク2_1xcIK has a link of 16 bytes (前クローク2_1xca): that chain
        // stays on; every other chain of every model is baked.
        let kept: &[&str] = if model == "pmx/gene.pmx" {
            &["前クローク2_1xcIK"]
        } else {
            &[]
        };
        assert_eq!(report.kept_on, kept, "{model}: {:?}", report.skipped);
        let off = Binding::vmd(&rig, &baked);
        let mut played = Evaluator::new(&rig);
        let mut worst = (0.0f32, 0.0f32);
        for step in 0..=20u32 {
            let frame = f64::from(report.start + (report.end - report.start) * step / 20);
            eval.evaluate(&binding, frame);
            played.evaluate(&off, frame);
            for i in 0..rig.bones().len() {
                let kept_on = kept.contains(&rig.bones()[i].name.as_str());
                assert_eq!(
                    played.ik_solved(i),
                    kept_on,
                    "{model}: bone {i} after the bake"
                );
                let d = (eval.world_position(i) - played.world_position(i)).length();
                let a = angle(eval.world_rotation(i), played.world_rotation(i));
                worst = (worst.0.max(d), worst.1.max(a));
                assert!(
                    d < 1e-3 && a < 1e-3,
                    "{model} + {motion}: bone {i} ({}) at frame {frame}: {d} units, {a} rad",
                    rig.bones()[i].name
                );
            }
        }
        eprintln!(
            "{model} + {motion}: baked {} links × {} frames; worst {} units, {} rad",
            report.links.len(),
            report.end - report.start + 1,
            worst.0,
            worst.1
        );
    }
}
