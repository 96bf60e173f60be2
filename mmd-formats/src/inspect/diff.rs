//! Field-level differences between two values of the same format.
//!
//! Both values are [walked](crate::walk) and the trees compared path by path: struct
//! fields by name, sequence elements by position (the longer sequence's extra elements
//! are reported as added or removed, one by one), enum values by variant (a different
//! variant is one change at the enum's path). Leaves are compared as stored: floats by
//! their bits, text by its bytes. Two binary files of one format therefore have no
//! difference exactly when their bytes are equal.
//!
//! ```
//! use mmd_formats::inspect::diff::{diff, Change};
//! use mmd_formats::vmd::{BoneKey, Vmd};
//! use mmd_formats::ShiftJis;
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let mut a = Vmd::new_v2("model")?;
//! a.bone_keys.push(BoneKey::new(ShiftJis::new("center")?, 0, [0.0; 3], [0.0, 0.0, 0.0, 1.0]));
//! let mut b = a.clone();
//! b.bone_keys[0].position[1] = 2.5;
//! let d = diff(&a, &b);
//! assert_eq!(d.len(), 1);
//! assert_eq!(d[0].path.to_string(), "bone_keys[0].position[1]");
//! assert!(matches!(&d[0].change, Change::Changed { .. }));
//! # Ok(()) }
//! ```

use crate::walk::{Path, Segment, Value, Walk};
use std::fmt;

/// How a field differs.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The field is in both, with different values (an absent optional block that is
    /// present in the other value is a change from or to [`Value::Absent`]).
    Changed {
        /// The value in the first.
        old: Value,
        /// The value in the second.
        new: Value,
    },
    /// An element only the second value's sequence has.
    Added(Value),
    /// An element only the first value's sequence has.
    Removed(Value),
}

/// One difference: where, and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// The field's path.
    pub path: Path,
    /// What changed.
    pub change: Change,
}

impl fmt::Display for Difference {
    /// `path: old -> new`, `path: added new`, `path: removed old` (values in the
    /// one-line form of [`Value::summary`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.0.is_empty() {
            "(top level)".to_string()
        } else {
            self.path.to_string()
        };
        match &self.change {
            Change::Changed { old, new } => {
                write!(f, "{path}: {} -> {}", old.summary(), new.summary())
            }
            Change::Added(v) => write!(f, "{path}: added {}", v.summary()),
            Change::Removed(v) => write!(f, "{path}: removed {}", v.summary()),
        }
    }
}

/// The differences between `a` and `b`, in file order.
pub fn diff<T: Walk + ?Sized>(a: &T, b: &T) -> Vec<Difference> {
    diff_values(&Value::of(a), &Value::of(b))
}

/// The differences between two walked trees, in file order.
pub fn diff_values(a: &Value, b: &Value) -> Vec<Difference> {
    let mut out = Vec::new();
    go(a, b, &mut Vec::new(), &mut out);
    out
}

fn changed(path: &[Segment], a: &Value, b: &Value, out: &mut Vec<Difference>) {
    out.push(Difference {
        path: Path(path.to_vec()),
        change: Change::Changed {
            old: a.clone(),
            new: b.clone(),
        },
    });
}

fn go(a: &Value, b: &Value, path: &mut Vec<Segment>, out: &mut Vec<Difference>) {
    match (a, b) {
        (Value::Leaf(x), Value::Leaf(y)) => {
            if x != y {
                changed(path, a, b, out);
            }
        }
        (Value::Absent, Value::Absent) => {}
        (
            Value::Struct {
                name: na,
                fields: fa,
            },
            Value::Struct {
                name: nb,
                fields: fb,
            },
        ) if na == nb => {
            for (name, x) in fa {
                path.push(Segment::Field(name));
                match fb.iter().find(|(n, _)| n == name) {
                    Some((_, y)) => go(x, y, path, out),
                    None => out.push(Difference {
                        path: Path(path.clone()),
                        change: Change::Removed(x.clone()),
                    }),
                }
                path.pop();
            }
            for (name, y) in fb {
                if !fa.iter().any(|(n, _)| n == name) {
                    path.push(Segment::Field(name));
                    out.push(Difference {
                        path: Path(path.clone()),
                        change: Change::Added(y.clone()),
                    });
                    path.pop();
                }
            }
        }
        (Value::Seq(xs), Value::Seq(ys)) => {
            for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
                path.push(Segment::Index(i));
                go(x, y, path, out);
                path.pop();
            }
            for (i, x) in xs.iter().enumerate().skip(ys.len()) {
                path.push(Segment::Index(i));
                out.push(Difference {
                    path: Path(path.clone()),
                    change: Change::Removed(x.clone()),
                });
                path.pop();
            }
            for (i, y) in ys.iter().enumerate().skip(xs.len()) {
                path.push(Segment::Index(i));
                out.push(Difference {
                    path: Path(path.clone()),
                    change: Change::Added(y.clone()),
                });
                path.pop();
            }
        }
        (
            Value::Variant {
                variant: va,
                body: ba,
            },
            Value::Variant {
                variant: vb,
                body: bb,
            },
        ) if va.enum_name == vb.enum_name && va.name == vb.name => {
            path.push(Segment::Field(va.name));
            go(ba, bb, path, out);
            path.pop();
        }
        _ => changed(path, a, b, out),
    }
}
