//! The VMD edits: mirror, trim, merge, speed and fill, each a call of the library's edit
//! on the motion read, reported as lines or JSON by [`edit`].

use std::io::Write;

use mmd_formats::vmd::edit::{
    BoundaryKey, Conflict, DroppedKey, FillMode, FillOptions, FilledKey, MergeOptions, MergeRule,
    MirrorOptions, SpeedOptions, TrimOptions,
};
use mmd_formats::vmd::BlockCounts;
use serde_json::{json, Value};

use super::{
    counts_json, edit, edit_error, keys, list, load, pairs_json, track, FillArgs, MergeArgs,
    MirrorArgs, SpeedArgs, TrimArgs,
};
use crate::tool::exit::{Outcome, Stop};

/// Parses FACTOR: a finite number (whether it is above 0 is the edit's to say).
pub fn parse_factor(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(x) => Err(format!("expected a finite number, found {x}")),
        Err(_) => Err(format!("expected a number, found {s:?}")),
    }
}

pub fn mirror(a: &MirrorArgs, out: &mut dyn Write) -> Outcome {
    edit("mirror", &a.out, &[&a.input], out, |mut vmd| {
        let options = MirrorOptions {
            camera: !a.no_camera,
            light: !a.no_light,
            morph_names: a.morph_names,
        };
        let r = vmd.mirror(&options);
        let report = json!({
            "changed": counts_json(&r.changed),
            "renamed": {
                "bone": pairs_json(&r.bone_names),
                "ik": pairs_json(&r.ik_names),
                "morph": pairs_json(&r.morph_names),
            },
            "dropped": counts_json(&BlockCounts::default()),
        });
        let mut lines = vec![format!("changed: {}", keys(&r.changed))];
        let show = |p: &(String, String)| {
            format!(
                "{} -> {}",
                crate::tool::shown::text(&p.0),
                crate::tool::shown::text(&p.1)
            )
        };
        for (what, pairs) in [
            ("bone", &r.bone_names),
            ("IK", &r.ik_names),
            ("morph", &r.morph_names),
        ] {
            if !pairs.is_empty() {
                lines.push(format!("renamed {what} names: {}", list(pairs, show)));
            }
        }
        if r.is_empty() {
            lines.push("nothing to mirror: no key moves and no name has 左 or 右".into());
        }
        lines.push("dropped: nothing".into());
        Ok((vmd, report, lines))
    })
}

pub fn trim(a: &TrimArgs, out: &mut dyn Write) -> Outcome {
    edit("trim", &a.out, &[&a.input], out, |mut vmd| {
        let options = TrimOptions {
            shift: !a.no_shift,
            boundary: a.boundary,
        };
        let (first, last) = (vmd.frames().min(), vmd.frames().max());
        let r = vmd
            .trim(a.from, a.to, &options)
            .map_err(|e| edit_error(&e))?;
        // A trim that leaves nothing of a motion that had keys is a mistaken range.
        if let (Some(first), Some(last), None) = (first, last, vmd.frames().next()) {
            return Err(Stop::failed(format!(
                "{}: no key lies in {}..={} (the motion's keys are at frames {first}..={last}): \
                 the result would be empty; nothing written",
                a.input.display(),
                a.from,
                a.to
            )));
        }
        let added: Vec<Value> = r
            .added
            .iter()
            .map(|k| json!({"block": k.block.name(), "name": k.name, "frame": k.frame}))
            .collect();
        let report = json!({
            "from": r.from, "to": r.to, "shift": r.shift,
            "kept": counts_json(&r.kept),
            "dropped": counts_json(&r.dropped),
            "added": added,
            "curves_cut": r.curves_cut,
        });
        let mut lines = vec![
            format!("range: {}..={}, frames moved by -{}", r.from, r.to, r.shift),
            format!("kept: {}", keys(&r.kept)),
            format!("dropped (outside the range): {}", keys(&r.dropped)),
        ];
        if a.boundary {
            let show = |k: &BoundaryKey| format!("{} at {}", track(k.block, &k.name), k.frame);
            lines.push(format!(
                "added: {} boundary keys{}{}",
                r.added.len(),
                if r.added.is_empty() { "" } else { ": " },
                list(&r.added, show)
            ));
            lines.push(format!("curves cut: {}", r.curves_cut));
        }
        Ok((vmd, report, lines))
    })
}

pub fn merge(a: &MergeArgs, out: &mut dyn Write) -> Outcome {
    edit("merge", &a.out, &[&a.first, &a.second], out, |mut first| {
        let second = load(&a.second)?.vmd;
        let offset = match a.offset {
            Some(n) => n,
            None => first
                .frames()
                .max()
                .map_or(Ok(0), |last| last.checked_add(1).ok_or(()))
                .map_err(|()| {
                    Stop::failed("the first motion ends at frame 4294967295: give --offset")
                })?,
        };
        let rule = if a.first_wins {
            MergeRule::FirstWins
        } else {
            MergeRule::SecondWins
        };
        let r = first
            .merge(&second, &MergeOptions { offset, rule })
            .map_err(|e| edit_error(&e))?;
        let conflicts: Vec<Value> = r
            .conflicts
            .iter()
            .map(|c| json!({"block": c.block.name(), "name": c.name, "frame": c.frame}))
            .collect();
        let dropped = match rule {
            MergeRule::SecondWins => r.replaced,
            MergeRule::FirstWins => r.skipped,
        };
        let report = json!({
            "offset": r.offset,
            "rule": r.rule.name(),
            "added": counts_json(&r.added),
            "conflicts": conflicts,
            "dropped": counts_json(&dropped),
            "dropped_from": match rule { MergeRule::SecondWins => "first", MergeRule::FirstWins => "second" },
            "second_trailing_dropped": r.second_trailing_dropped,
            "blocks_made_present": r.blocks_made_present,
        });
        let show = |c: &Conflict| format!("{} at {}", track(c.block, &c.name), c.frame);
        let mut lines = vec![
            format!("offset: {} frames, rule: {}", r.offset, r.rule.name()),
            format!("added from the second motion: {}", keys(&r.added)),
            format!(
                "conflicts: {}{}{}",
                r.conflicts.len(),
                if r.conflicts.is_empty() { "" } else { ": " },
                list(&r.conflicts, show)
            ),
        ];
        lines.push(match rule {
            MergeRule::SecondWins => {
                format!(
                    "dropped from the first motion (replaced): {}",
                    keys(&r.replaced)
                )
            }
            MergeRule::FirstWins => {
                format!(
                    "dropped from the second motion (skipped): {}",
                    keys(&r.skipped)
                )
            }
        });
        if r.second_trailing_dropped > 0 {
            lines.push(format!(
                "dropped: {} trailing bytes of the second motion",
                r.second_trailing_dropped
            ));
        }
        Ok((first, report, lines))
    })
}

pub fn speed(a: &SpeedArgs, out: &mut dyn Write) -> Outcome {
    edit("speed", &a.out, &[&a.input], out, |mut vmd| {
        let options = SpeedOptions {
            keep_cuts: !a.no_keep_cuts,
        };
        let r = vmd.speed(a.factor, &options).map_err(|e| edit_error(&e))?;
        let dropped: Vec<Value> = r
            .dropped
            .iter()
            .map(|d| {
                json!({"block": d.block.name(), "name": d.name, "frame": d.frame,
                       "new_frame": d.new_frame, "kept_frame": d.kept_frame})
            })
            .collect();
        let report = json!({
            "factor": r.factor,
            "changed": counts_json(&r.moved),
            "dropped": counts_json(&r.dropped_counts),
            "dropped_keys": dropped,
            "cuts_kept": r.cuts_kept,
        });
        let show = |d: &DroppedKey| {
            format!(
                "{} at {} (-> {}, where {} stays)",
                track(d.block, &d.name),
                d.frame,
                d.new_frame,
                d.kept_frame
            )
        };
        let mut lines = vec![
            format!("factor: {} (frame f -> round(f / {}))", r.factor, r.factor),
            format!("moved: {}", keys(&r.moved)),
            format!(
                "dropped (rounded onto a frame their track already has): {}{}{}",
                keys(&r.dropped_counts),
                if r.dropped.is_empty() { "" } else { ": " },
                list(&r.dropped, show)
            ),
        ];
        if r.cuts_kept > 0 {
            lines.push(format!("camera cuts kept one frame apart: {}", r.cuts_kept));
        }
        Ok((vmd, report, lines))
    })
}

pub fn fill(a: &FillArgs, out: &mut dyn Write) -> Outcome {
    edit("fill", &a.out, &[&a.input], out, |mut vmd| {
        let options = FillOptions {
            start: a.start,
            end: a.end,
            mode: if a.hold {
                FillMode::Hold
            } else {
                FillMode::Rest
            },
            names: Vec::new(),
        };
        let r = vmd.fill_rest_keys(&options).map_err(|e| edit_error(&e))?;
        let added: Vec<Value> = r
            .added
            .iter()
            .map(|k| json!({"name": k.name, "frame": k.frame}))
            .collect();
        let report = json!({
            "start": r.start, "end": r.end, "bones": r.bones,
            "added": added,
            "changed": counts_json(&BlockCounts { bone: r.added.len(), ..BlockCounts::default() }),
            "dropped": counts_json(&BlockCounts::default()),
        });
        let show = |k: &FilledKey| format!("{} at {}", crate::tool::shown::text(&k.name), k.frame);
        let lines = vec![
            format!("frames: {} and {}, {} bones named", r.start, r.end, r.bones),
            format!(
                "added: {} {} keys{}{}",
                r.added.len(),
                if a.hold { "hold" } else { "rest" },
                if r.added.is_empty() { "" } else { ": " },
                list(&r.added, show)
            ),
            "dropped: nothing".into(),
        ];
        Ok((vmd, report, lines))
    })
}

/// Runs `mmd vmd bake-ik`.
pub fn bake_ik(a: &super::BakeIkArgs, out: &mut dyn Write) -> Outcome {
    let rig = crate::tool::pose::load_rig(&a.model)?;
    edit("bake-ik", &a.out, &[&a.input, &a.model], out, |vmd| {
        let (baked, r) = mmd_formats::pose::bake_ik(&rig, &vmd)
            .map_err(|e| Stop::failed(format!("{}: {e}", a.input.display())))?;
        let esc = |n: &String| n.escape_debug().to_string();
        let names = |v: &[String]| v.iter().map(esc).collect::<Vec<_>>();
        let report = json!({
            "start": r.start, "end": r.end,
            "links": r.links, "switched_off": r.switched_off,
            "kept_on": r.kept_on, "skipped": r.skipped,
            "added": r.added, "replaced": r.replaced,
            "changed": counts_json(&BlockCounts { bone: r.added, ..BlockCounts::default() }),
            "dropped": counts_json(&BlockCounts { bone: r.replaced, ..BlockCounts::default() }),
        });
        let mut lines = vec![
            format!("frames: {} to {}", r.start, r.end),
            format!(
                "added: {} bone keys for {} IK links{}{}",
                r.added,
                r.links.len(),
                if r.links.is_empty() { "" } else { ": " },
                list(&names(&r.links), String::clone)
            ),
            format!("replaced: {} keys of those bones", r.replaced),
            format!(
                "switched off: {}",
                if r.switched_off.is_empty() {
                    "no IK".to_owned()
                } else {
                    list(&names(&r.switched_off), String::clone)
                }
            ),
        ];
        if !r.kept_on.is_empty() {
            lines.push(format!(
                "kept on (a name no VMD can hold: {}): {}",
                list(&names(&r.skipped), String::clone),
                list(&names(&r.kept_on), String::clone)
            ));
        }
        Ok((baked, report, lines))
    })
}
