//! Mirroring a motion left to right (across the model's YZ plane).

use crate::text::decode_sjis;
use crate::vmd::{BlockCounts, Vmd};

/// 左 (left) in Shift_JIS.
const LEFT: [u8; 2] = [0x8D, 0xB6];
/// 右 (right) in Shift_JIS.
const RIGHT: [u8; 2] = [0x89, 0x45];

/// What [`Vmd::mirror`] mirrors besides the bone keys and IK names, which it always does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MirrorOptions {
    /// Mirror the camera keys: target X negated, Euler angles (x, −y, −z). Default on.
    pub camera: bool,
    /// Mirror the light keys: direction X negated. Default on.
    pub light: bool,
    /// Swap 左 and 右 in morph names too. Default off: in standard models a morph name
    /// with 右 or 左 (ウィンク右) does not always have a mirrored twin.
    pub morph_names: bool,
}

impl Default for MirrorOptions {
    fn default() -> Self {
        MirrorOptions {
            camera: true,
            light: true,
            morph_names: false,
        }
    }
}

/// What [`Vmd::mirror`] changed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MirrorReport {
    /// Keys whose bytes changed, per block (a key counts once whatever changed in it).
    pub changed: BlockCounts,
    /// The distinct bone names renamed, `(before, after)`, in the order first met.
    pub bone_names: Vec<(String, String)>,
    /// The distinct IK names renamed in the IK / show keys, `(before, after)`.
    pub ik_names: Vec<(String, String)>,
    /// The distinct morph names renamed (only with [`MirrorOptions::morph_names`]).
    pub morph_names: Vec<(String, String)>,
}

impl MirrorReport {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changed.total() == 0
    }
}

/// Negates a value that has a sign worth flipping: 0 (either sign) and NaN are left as
/// they are, so no byte changes where the value does not, and twice is the identity.
fn flip(v: &mut f32) -> bool {
    if *v == 0.0 || v.is_nan() {
        return false;
    }
    *v = -*v;
    true
}

/// Swaps 左 and 右 in a fixed-length Shift_JIS name, in place: only whole characters of
/// the name (up to the NUL) are looked at, the bytes after the NUL and a lead byte cut at
/// the end of the field are kept. Both are 2 bytes, so the length never changes. Returns
/// true when a byte changed.
pub fn swap_left_right(field: &mut [u8]) -> bool {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let mut changed = false;
    let mut i = 0;
    while i < end {
        let lead = field[i];
        let double = matches!(lead, 0x81..=0x9F | 0xE0..=0xFC);
        if !double {
            i += 1;
            continue;
        }
        if i + 1 >= end {
            break;
        }
        let pair = [lead, field[i + 1]];
        let swapped = if pair == LEFT {
            Some(RIGHT)
        } else if pair == RIGHT {
            Some(LEFT)
        } else {
            None
        };
        if let Some(s) = swapped {
            field[i..i + 2].copy_from_slice(&s);
            changed = true;
        }
        i += 2;
    }
    changed
}

/// Renames a field and records the distinct `(before, after)` pair.
fn rename(field: &mut [u8], seen: &mut Vec<(String, String)>) -> bool {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let before = decode_sjis(&field[..end]).into_owned();
    if !swap_left_right(field) {
        return false;
    }
    let after = decode_sjis(&field[..end]).into_owned();
    if !seen.iter().any(|(b, _)| *b == before) {
        seen.push((before, after));
    }
    true
}

impl Vmd {
    /// Mirrors the motion left to right: for bone keys, position X negated and rotation
    /// (x, y, z, w) → (x, −y, −z, w) (the rotation axis is a pseudo-vector, so only its
    /// components parallel to the mirror change sign), and 左 ↔ 右 swapped in bone names
    /// and in the IK names of the IK / show keys; camera and light keys as
    /// [`MirrorOptions`] says.
    ///
    /// Only the bytes that change are written: a 0 or NaN is left as it is (negating 0
    /// would turn `00 00 00 00` into `00 00 00 80`), names keep their length (左 and 右 are
    /// both 2 bytes in Shift_JIS) and the bytes after their NUL. Mirroring twice gives the
    /// same bytes back.
    ///
    /// ```
    /// use mmd_formats::vmd::edit::MirrorOptions;
    /// use mmd_formats::vmd::{BoneKey, Vmd};
    /// use mmd_formats::ShiftJis;
    /// # fn main() -> Result<(), mmd_formats::Error> {
    /// let mut vmd = Vmd::new_v2("model")?;
    /// let key = BoneKey::new(ShiftJis::new("左腕")?, 0, [1.0, 2.0, 3.0], [0.1, 0.2, 0.3, 0.9]);
    /// vmd.bone_keys.push(key);
    /// let before = vmd.to_bytes()?;
    /// let report = vmd.mirror(&MirrorOptions::default());
    /// assert_eq!(vmd.bone_keys[0].name.decode(), "右腕");
    /// assert_eq!(vmd.bone_keys[0].position, [-1.0, 2.0, 3.0]);
    /// assert_eq!(vmd.bone_keys[0].rotation, [0.1, -0.2, -0.3, 0.9]);
    /// assert_eq!(report.bone_names, [("左腕".to_string(), "右腕".to_string())]);
    /// vmd.mirror(&MirrorOptions::default());
    /// assert_eq!(vmd.to_bytes()?, before);
    /// # Ok(()) }
    /// ```
    pub fn mirror(&mut self, options: &MirrorOptions) -> MirrorReport {
        let mut report = MirrorReport::default();
        for key in &mut self.bone_keys {
            let mut changed = rename(&mut key.name.0, &mut report.bone_names);
            changed |= flip(&mut key.position[0]);
            changed |= flip(&mut key.rotation[1]);
            changed |= flip(&mut key.rotation[2]);
            report.changed.bone += usize::from(changed);
        }
        for key in self.show_ik_keys.iter_mut().flatten() {
            let mut changed = false;
            for ik in &mut key.ik {
                changed |= rename(&mut ik.name.0, &mut report.ik_names);
            }
            report.changed.show_ik += usize::from(changed);
        }
        if options.morph_names {
            for key in self.morph_keys.iter_mut().flatten() {
                let changed = rename(&mut key.name.0, &mut report.morph_names);
                report.changed.morph += usize::from(changed);
            }
        }
        if options.camera {
            for key in self.camera_keys.iter_mut().flatten() {
                let mut changed = flip(&mut key.target[0]);
                changed |= flip(&mut key.rotation[1]);
                changed |= flip(&mut key.rotation[2]);
                report.changed.camera += usize::from(changed);
            }
        }
        if options.light {
            for key in self.light_keys.iter_mut().flatten() {
                report.changed.light += usize::from(flip(&mut key.direction[0]));
            }
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::ShiftJis;

    #[test]
    fn left_and_right_are_the_encoder_s_bytes() {
        assert_eq!(ShiftJis::<2>::new("左").unwrap().0, LEFT);
        assert_eq!(ShiftJis::<2>::new("右").unwrap().0, RIGHT);
    }

    #[test]
    fn only_whole_characters_before_the_nul_are_swapped() {
        // `a`, then 左, NUL, then a 右 in the junk after the NUL, which must stay.
        let mut f = [b'a', 0x8D, 0xB6, 0, 0x89, 0x45, 0xFD];
        assert!(swap_left_right(&mut f));
        assert_eq!(f, [b'a', 0x89, 0x45, 0, 0x89, 0x45, 0xFD]);
        // 83 8D is one two-byte character, so its 8D is a trail byte and the B6 after it a
        // half-width katakana: the bytes 8D B6 are not 左 here.
        let mut g = [0x83, 0x8D, 0xB6, 0x00];
        assert!(!swap_left_right(&mut g));
        // A lead byte cut at the end of the field is left alone.
        let mut h = [b'x', 0x8D];
        assert!(!swap_left_right(&mut h));
    }
}
