//! `mmd vmd sample`: the value of one track at a frame.

use std::io::Write;

use serde_json::{json, Value};

use super::{load, SampleArgs};
use crate::tool::exit::{self, Exit, Outcome, Stop};

/// Parses `--frame`: a finite number (a fraction is a point between two frames).
pub fn parse_frame(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(x) => Err(format!(
            "expected a frame number (30 a second, fractions allowed), found {x}"
        )),
        Err(_) => Err(format!("expected a frame number, found {s:?}")),
    }
}

/// What is unusual about sampling at `frame`: a frame no motion has, where the track holds
/// the value of its first or last key.
pub fn frame_warnings(frame: f64) -> Vec<String> {
    let mut warnings = Vec::new();
    if frame < 0.0 {
        warnings.push(format!(
            "frame {frame} is before frame 0, where every motion starts: the track holds its \
             first key's value there"
        ));
    } else if frame > f64::from(u32::MAX) {
        warnings.push(format!(
            "frame {frame} is past frame {}, the last a VMD can hold: the track holds its last \
             key's value there",
            u32::MAX
        ));
    }
    warnings
}

/// Runs `mmd vmd sample`.
pub fn sample(a: &SampleArgs, out: &mut dyn Write) -> Outcome {
    let vmd = load(&a.input)?.vmd;
    let f = a.frame;
    let warnings = frame_warnings(f);
    let rh = a.right_handed;
    let (track, value): (String, Option<Value>) = if let Some(name) = &a.bone {
        let pose = vmd
            .bone_track(name)
            .sample(f)
            .map(|p| if rh { p.to_right_handed() } else { p });
        (
            format!("bone {name}"),
            pose.map(|p| json!({"position": p.position, "rotation": p.rotation})),
        )
    } else if let Some(name) = &a.morph {
        (
            format!("morph {name}"),
            vmd.morph_track(name)
                .sample(f)
                .map(|w| json!({"weight": w})),
        )
    } else if a.camera {
        let state = vmd.camera_track().sample(f).map(|s| {
            let position = if rh { s.position_rh() } else { s.position() };
            let shown = if rh { s.to_right_handed() } else { s };
            json!({"distance": shown.distance, "target": shown.target, "rotation": shown.rotation,
                   "fov": shown.fov, "perspective": shown.perspective, "position": position})
        });
        ("camera".to_owned(), state)
    } else {
        let light = vmd
            .light_track()
            .sample(f)
            .map(|l| if rh { l.to_right_handed() } else { l });
        (
            "light".to_owned(),
            light.map(|l| json!({"color": l.color, "direction": l.direction})),
        )
    };
    let Some(value) = value else {
        return Err(Stop::failed(format!(
            "{}: no key on the {track} track",
            a.input.display()
        )));
    };
    if !a.json {
        for w in &warnings {
            exit::warn("mmd vmd sample", w);
        }
    }
    let coordinates = if rh { "right-handed" } else { "mmd" };
    if a.json {
        let mut obj = json!({"input": a.input.display().to_string(), "track": track,
                             "frame": f, "coordinates": coordinates, "warnings": warnings});
        if let (Value::Object(map), Value::Object(v)) = (&mut obj, value) {
            map.extend(v);
        }
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "track: {}", crate::tool::shown::text(&track))?;
        writeln!(out, "frame: {f}")?;
        writeln!(out, "coordinates: {coordinates}")?;
        if let Value::Object(v) = value {
            for (k, x) in v {
                writeln!(out, "{k}: {x}")?;
            }
        }
    }
    Ok(Exit::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_a_finite_number() {
        assert_eq!(parse_frame("12.5"), Ok(12.5));
        assert_eq!(parse_frame("-5"), Ok(-5.0));
        for bad in ["nan", "NaN", "inf", "-infinity", "1e999", "", "twelve"] {
            assert!(parse_frame(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn frames_no_motion_has_are_warned_about() {
        assert!(frame_warnings(0.0).is_empty());
        assert!(frame_warnings(12.5).is_empty());
        assert!(frame_warnings(f64::from(u32::MAX)).is_empty());
        assert!(frame_warnings(-5.0)[0].contains("before frame 0"));
        assert!(frame_warnings(-0.5)[0].contains("before frame 0"));
        assert!(frame_warnings(5e9)[0].contains("past frame 4294967295"));
    }
}
