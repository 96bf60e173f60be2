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

/// The differences between `a` and `b`, as [`diff`] gives them, handed to `each` as they
/// are found: the two values are walked at once, each on its own thread, and compared
/// event by event, so nothing is held but the values of the differences (and of the
/// elements only one side has) and a few thousand events in flight. `each` returning an
/// error stops the comparison with it.
///
/// ```
/// use mmd_formats::inspect::diff::{diff, diff_each};
/// let bytes = mmd_formats::samples::pmx_samples().remove(0).1;
/// let a = mmd_formats::pmx::Pmx::from_bytes(&bytes).unwrap();
/// let mut b = a.clone();
/// b.header.version = 2.1;
/// let mut found = Vec::new();
/// diff_each(&a, &b, |d| -> Result<(), ()> {
///     found.push(d);
///     Ok(())
/// })
/// .unwrap();
/// assert_eq!(found, diff(&a, &b));
/// ```
pub fn diff_each<T, E>(a: &T, b: &T, each: impl FnMut(Difference) -> Result<(), E>) -> Result<(), E>
where
    T: Walk + Sync + ?Sized,
{
    diff_walks(|v| a.walk(v), |v| b.walk(v), each)
}

/// The differences between two walks, handed to `each` as they are found (see
/// [`diff_each`]): `walk_a` and `walk_b` each report one value to the visitor they are
/// given, on a thread of their own. A walk that reports nothing (a file that did not read,
/// whose closure kept the error) ends the comparison quietly; one that panics passes the
/// panic on.
pub fn diff_walks<E>(
    walk_a: impl FnOnce(&mut dyn Visitor) + Send,
    walk_b: impl FnOnce(&mut dyn Visitor) + Send,
    mut each: impl FnMut(Difference) -> Result<(), E>,
) -> Result<(), E> {
    std::thread::scope(|s| {
        let (ta, ra) = mpsc::sync_channel(CHANNEL_CHUNKS);
        let (tb, rb) = mpsc::sync_channel(CHANNEL_CHUNKS);
        let ha = s.spawn(move || {
            let mut send = Sender::new(ta);
            walk_a(&mut send);
            send.flush();
        });
        let hb = s.spawn(move || {
            let mut send = Sender::new(tb);
            walk_b(&mut send);
            send.flush();
        });
        let mut ea = Events::new(ra);
        let mut eb = Events::new(rb);
        let result = stream_value(&mut ea, &mut eb, &mut Vec::new(), &mut each);
        // The walks stop sending once nobody listens.
        drop((ea, eb));
        for h in [ha, hb] {
            if let Err(panic) = h.join() {
                std::panic::resume_unwind(panic);
            }
        }
        match result {
            Ok(()) | Err(Stop::Ended) => Ok(()),
            Err(Stop::By(e)) => Err(e),
        }
    })
}

use std::sync::mpsc;

use crate::walk::{Leaf, Tree, Variant, Visitor};

/// Events per message between a walk and the comparison.
const CHUNK: usize = 1024;
/// Messages in flight per walk.
const CHANNEL_CHUNKS: usize = 4;

/// One event of a walk (see [`Visitor`]).
#[derive(Debug)]
enum Event {
    Leaf(Leaf),
    Absent,
    BeginStruct(&'static str),
    Field(&'static str),
    BeginSeq(usize),
    BeginVariant(Variant),
    End,
}

/// A [`Visitor`] that sends its events in chunks.
struct Sender {
    to: Option<mpsc::SyncSender<Vec<Event>>>,
    chunk: Vec<Event>,
}

impl Sender {
    fn new(to: mpsc::SyncSender<Vec<Event>>) -> Self {
        Sender {
            to: Some(to),
            chunk: Vec::with_capacity(CHUNK),
        }
    }

    fn push(&mut self, e: Event) {
        if self.to.is_none() {
            return;
        }
        self.chunk.push(e);
        if self.chunk.len() >= CHUNK {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let chunk = std::mem::replace(&mut self.chunk, Vec::with_capacity(CHUNK));
        if let Some(to) = &self.to {
            if !chunk.is_empty() && to.send(chunk).is_err() {
                // The comparison is over: the rest of the walk is not needed.
                self.to = None;
            }
        }
    }
}

impl Visitor for Sender {
    fn leaf(&mut self, leaf: Leaf) {
        self.push(Event::Leaf(leaf));
    }
    fn absent(&mut self) {
        self.push(Event::Absent);
    }
    fn begin_struct(&mut self, name: &'static str) {
        self.push(Event::BeginStruct(name));
    }
    fn field(&mut self, name: &'static str) {
        self.push(Event::Field(name));
    }
    fn begin_seq(&mut self, len: usize) {
        self.push(Event::BeginSeq(len));
    }
    fn begin_variant(&mut self, variant: Variant) {
        self.push(Event::BeginVariant(variant));
    }
    fn end(&mut self) {
        self.push(Event::End);
    }
}

/// The events of one walk, as they arrive.
struct Events {
    from: mpsc::Receiver<Vec<Event>>,
    chunk: std::vec::IntoIter<Event>,
    peeked: Option<Event>,
}

/// Why a comparison stopped early.
enum Stop<E> {
    /// A walk ended before its value did.
    Ended,
    /// `each` stopped it.
    By(E),
}

impl Events {
    fn new(from: mpsc::Receiver<Vec<Event>>) -> Self {
        Events {
            from,
            chunk: Vec::new().into_iter(),
            peeked: None,
        }
    }

    fn next<E>(&mut self) -> Result<Event, Stop<E>> {
        if let Some(e) = self.peeked.take() {
            return Ok(e);
        }
        loop {
            if let Some(e) = self.chunk.next() {
                return Ok(e);
            }
            self.chunk = self.from.recv().map_err(|_| Stop::Ended)?.into_iter();
        }
    }

    fn peek_is_end<E>(&mut self) -> Result<bool, Stop<E>> {
        let e = self.next()?;
        let end = matches!(e, Event::End);
        self.peeked = Some(e);
        Ok(end)
    }

    /// The whole value that `first` begins, built from the events that follow.
    fn build<E>(&mut self, first: Event) -> Result<Value, Stop<E>> {
        let mut tree = Tree::new();
        let mut depth = 0usize;
        let mut event = first;
        loop {
            match event {
                Event::Leaf(l) => tree.leaf(l),
                Event::Absent => tree.absent(),
                Event::BeginStruct(n) => {
                    depth += 1;
                    tree.begin_struct(n);
                }
                Event::Field(n) => tree.field(n),
                Event::BeginSeq(n) => {
                    depth += 1;
                    tree.begin_seq(n);
                }
                Event::BeginVariant(v) => {
                    depth += 1;
                    tree.begin_variant(v);
                }
                Event::End => {
                    depth = depth.saturating_sub(1);
                    tree.end();
                }
            }
            if depth == 0 {
                return Ok(tree.finish());
            }
            event = self.next()?;
        }
    }

    /// The fields of a struct from `first` (a field's name or the struct's end) on.
    fn rest_of_struct<E>(&mut self, name: &'static str, first: Event) -> Result<Value, Stop<E>> {
        let mut fields = Vec::new();
        let mut event = first;
        while let Event::Field(f) = event {
            let start = self.next()?;
            fields.push((f, self.build(start)?));
            event = self.next()?;
        }
        Ok(Value::Struct { name, fields })
    }
}

/// Hands every difference of `out` to `each`.
fn hand<E>(
    found: Vec<Difference>,
    each: &mut impl FnMut(Difference) -> Result<(), E>,
) -> Result<(), Stop<E>> {
    found
        .into_iter()
        .try_for_each(|d| each(d).map_err(Stop::By))
}

/// Compares the next value of each walk.
fn stream_value<E>(
    a: &mut Events,
    b: &mut Events,
    path: &mut Vec<Segment>,
    each: &mut impl FnMut(Difference) -> Result<(), E>,
) -> Result<(), Stop<E>> {
    let (x, y) = (a.next()?, b.next()?);
    match (x, y) {
        (Event::Leaf(x), Event::Leaf(y)) => {
            if x != y {
                let mut found = Vec::new();
                changed(path, &Value::Leaf(x), &Value::Leaf(y), &mut found);
                hand(found, each)?;
            }
            Ok(())
        }
        (Event::Absent, Event::Absent) => Ok(()),
        (Event::BeginStruct(na), Event::BeginStruct(nb)) if na == nb => loop {
            match (a.next()?, b.next()?) {
                (Event::Field(fa), Event::Field(fb)) if fa == fb => {
                    path.push(Segment::Field(fa));
                    stream_value(a, b, path, each)?;
                    path.pop();
                }
                (Event::End, Event::End) => return Ok(()),
                // Fields that differ: the rest of both structs, compared by name.
                (x, y) => {
                    let (ra, rb) = (a.rest_of_struct(na, x)?, b.rest_of_struct(nb, y)?);
                    let mut found = Vec::new();
                    go(&ra, &rb, path, &mut found);
                    return hand(found, each);
                }
            }
        },
        (Event::BeginSeq(_), Event::BeginSeq(_)) => {
            let mut i = 0;
            loop {
                match (a.peek_is_end()?, b.peek_is_end()?) {
                    (true, true) => {
                        a.next()?;
                        b.next()?;
                        return Ok(());
                    }
                    (false, false) => {
                        path.push(Segment::Index(i));
                        stream_value(a, b, path, each)?;
                        path.pop();
                    }
                    (false, true) => {
                        let first = a.next()?;
                        let v = a.build(first)?;
                        path.push(Segment::Index(i));
                        let d = Difference {
                            path: Path(path.clone()),
                            change: Change::Removed(v),
                        };
                        path.pop();
                        each(d).map_err(Stop::By)?;
                    }
                    (true, false) => {
                        let first = b.next()?;
                        let v = b.build(first)?;
                        path.push(Segment::Index(i));
                        let d = Difference {
                            path: Path(path.clone()),
                            change: Change::Added(v),
                        };
                        path.pop();
                        each(d).map_err(Stop::By)?;
                    }
                }
                i += 1;
            }
        }
        (Event::BeginVariant(va), Event::BeginVariant(vb))
            if va.enum_name == vb.enum_name && va.name == vb.name =>
        {
            path.push(Segment::Field(va.name));
            match (a.peek_is_end()?, b.peek_is_end()?) {
                (false, false) => stream_value(a, b, path, each)?,
                (ea, eb) => {
                    let body = |e: &mut Events, end: bool| -> Result<Value, Stop<E>> {
                        if end {
                            return Ok(Value::Absent);
                        }
                        let first = e.next()?;
                        e.build(first)
                    };
                    let (ba, bb) = (body(a, ea)?, body(b, eb)?);
                    let mut found = Vec::new();
                    go(&ba, &bb, path, &mut found);
                    hand(found, each)?;
                }
            }
            path.pop();
            a.next()?;
            b.next()?;
            Ok(())
        }
        (x, y) => {
            let (va, vb) = (a.build(x)?, b.build(y)?);
            let mut found = Vec::new();
            changed(path, &va, &vb, &mut found);
            hand(found, each)
        }
    }
}
