//! Paths into a value: the one vocabulary errors, spans and the walk share, and the one
//! way they are written (`bones[12].ik.links[1].limit_min`).

use std::fmt;

/// One step of a path into a value: what the generated writer reports around each field
/// and element (see [`crate::inspect::spans`]), what the walk's tree is indexed by, and
/// what an error's path is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Segment {
    /// A named field (`bones`), a tuple field (`0`), an enum variant (`Bdef2`), or the
    /// fixed signature (`magic`).
    Field(&'static str),
    /// An element of a sequence or array.
    Index(usize),
    /// The count that precedes a counted sequence (shown as `.count`).
    Count,
    /// The tag that chooses an enum's variant in the file (shown as `.tag`).
    Tag,
}

/// A path from the top of a value down: `bones[3].ik.links[0].limit_min[2]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(pub Vec<Segment>);

impl Path {
    /// The segments, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_path(f, &self.0)
    }
}

/// Writes `segments` in the `a.b[3].c` form (nothing for the top level).
pub fn write_path<'a>(
    f: &mut dyn fmt::Write,
    segments: impl IntoIterator<Item = &'a Segment>,
) -> fmt::Result {
    for (i, seg) in segments.into_iter().enumerate() {
        let dot = if i == 0 { "" } else { "." };
        match seg {
            Segment::Field(name) => write!(f, "{dot}{name}")?,
            Segment::Index(n) => write!(f, "[{n}]")?,
            Segment::Count => write!(f, "{dot}count")?,
            Segment::Tag => write!(f, "{dot}tag")?,
        }
    }
    Ok(())
}

/// `segments` in the `a.b[3].c` form.
pub fn path_string<'a>(segments: impl IntoIterator<Item = &'a Segment>) -> String {
    let mut s = String::new();
    let _ = write_path(&mut s, segments);
    s
}
