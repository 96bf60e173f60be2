//! Spans: the byte range of every field of a file, and `explain`: which field holds a
//! given byte, with its value.
//!
//! Spans are recorded by **writing** the value to a [`SpanRecorder`], an [`Output`] that
//! counts bytes instead of storing them and notes where the generated writer says each
//! field, element, count, tag and signature starts and ends. Because writing what was
//! read gives back the input byte for byte, the ranges recorded while writing are the
//! ranges the fields were read from (the tests check this for every built-in sample and
//! fixture: each leaf's bytes, cut from the input, decode to the leaf's value). Reading
//! itself records nothing and costs nothing extra; the recorder's calls compile away for
//! every other output.
//!
//! Leaves (a number, a text with its length prefix, an index, a count, a tag, a run of
//! raw bytes) tile a binary file: they follow each other with no gap and no overlap from
//! the first byte to the last. A span that holds no byte (an absent block, an empty
//! list) is not recorded.
//!
//! ```
//! use mmd_formats::inspect::Format;
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let bytes = mmd_formats::samples::pmx_samples().remove(0).1;
//! let e = Format::Pmx.explain(&bytes, 4)?.expect("inside the file");
//! assert_eq!(e.path.to_string(), "header.version");
//! assert_eq!((e.start, e.end), (4, 8));
//! # Ok(()) }
//! ```

use crate::codec::Encode;
use crate::error::Result;
use crate::io::Output;
use crate::walk::{Leaf, Path, Segment, Value, Variant, Visitor, Walk};

/// No parent: the node is at the top level.
const ROOT: u32 = u32::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    seg: Segment,
    parent: u32,
    /// The index just past the node's descendants (its next sibling, if any).
    next: u32,
    start: u64,
    end: u64,
}

/// The byte ranges of every field of a value, in file order (a field before the fields
/// inside it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spans {
    /// Pre-order: every node's parent comes before it, and its first child right after.
    nodes: Vec<Node>,
    /// The number of bytes the value takes.
    len: u64,
}

/// One recorded span.
#[derive(Debug, Clone, Copy)]
pub struct FieldSpan<'a> {
    spans: &'a Spans,
    index: usize,
}

impl<'a> FieldSpan<'a> {
    fn node(&self) -> &'a Node {
        &self.spans.nodes[self.index]
    }

    /// The first byte of the field.
    pub fn start(&self) -> u64 {
        self.node().start
    }

    /// One past the field's last byte.
    pub fn end(&self) -> u64 {
        self.node().end
    }

    /// The field's last path segment.
    pub fn segment(&self) -> Segment {
        self.node().seg
    }

    /// The path of the field from the top level.
    pub fn path(&self) -> Path {
        let mut segs = Vec::new();
        let mut i = self.index as u32;
        while i != ROOT {
            let Some(n) = self.spans.nodes.get(i as usize) else {
                break;
            };
            segs.push(n.seg);
            i = n.parent;
        }
        segs.reverse();
        Path(segs)
    }

    /// The enclosing field, `None` at the top level.
    pub fn parent(&self) -> Option<FieldSpan<'a>> {
        let p = self.node().parent;
        (p != ROOT).then_some(FieldSpan {
            spans: self.spans,
            index: p as usize,
        })
    }

    /// True when no recorded field lies inside this one.
    pub fn is_leaf(&self) -> bool {
        self.spans
            .nodes
            .get(self.index + 1)
            .is_none_or(|n| n.parent != self.index as u32)
    }

    /// True when `offset` is one of the field's bytes.
    pub fn contains(&self, offset: u64) -> bool {
        self.start() <= offset && offset < self.end()
    }
}

impl Spans {
    /// Records the spans of `value` by writing it with `ctx` to a [`SpanRecorder`].
    pub fn of<T: Encode<C> + ?Sized, C: ?Sized>(value: &T, ctx: &C) -> Result<Spans> {
        let mut rec = SpanRecorder::new();
        value.encode(&mut rec, ctx)?;
        Ok(rec.finish())
    }

    /// The spans recorded.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The number of bytes the value takes.
    pub fn byte_len(&self) -> u64 {
        self.len
    }

    /// Every span, in file order (an enclosing field before the fields inside it).
    pub fn iter(&self) -> impl Iterator<Item = FieldSpan<'_>> + '_ {
        (0..self.nodes.len()).map(move |index| FieldSpan { spans: self, index })
    }

    /// The leaf spans, in file order.
    pub fn leaves(&self) -> impl Iterator<Item = FieldSpan<'_>> + '_ {
        self.iter().filter(FieldSpan::is_leaf)
    }

    /// The innermost span that holds byte `offset` (`None` where no field holds it).
    pub fn deepest(&self, offset: u64) -> Option<FieldSpan<'_>> {
        // The last span that starts at or before `offset` is the innermost that could
        // hold it; if it ends before, one of its ancestors may still hold it.
        let after = self.nodes.partition_point(|n| n.start <= offset);
        let mut span = FieldSpan {
            spans: self,
            index: after.checked_sub(1)?,
        };
        loop {
            if span.contains(offset) {
                return Some(span);
            }
            span = span.parent()?;
        }
    }

    /// The span of the field at `path`, if one was recorded (the first, if a path was
    /// recorded twice). A field may be recorded in several pieces with the same segment
    /// (a positioned list, whose elements are written in the order of their offsets):
    /// each piece is searched. Takes time in proportion to the siblings passed on the way.
    pub fn get(&self, path: &[Segment]) -> Option<FieldSpan<'_>> {
        self.find_in(None, path)
            .map(|index| FieldSpan { spans: self, index })
    }

    /// The node at `path` below node `parent` (the top level for `None`).
    fn find_in(&self, parent: Option<usize>, path: &[Segment]) -> Option<usize> {
        let Some((seg, below)) = path.split_first() else {
            return parent;
        };
        let (mut i, until) = match parent {
            Some(p) => (p + 1, self.nodes[p].next as usize),
            None => (0, self.nodes.len()),
        };
        while i < until.min(self.nodes.len()) {
            let n = &self.nodes[i];
            if n.seg == *seg {
                if let Some(hit) = self.find_in(Some(i), below) {
                    return Some(hit);
                }
            }
            i = (n.next as usize).max(i + 1);
        }
        None
    }

    /// The innermost span of every byte, as runs: `(span, start, end)` in file order,
    /// one run for each stretch of bytes that a span holds and none of the spans inside
    /// it does. For a binary file these tile it: they are the leaves, and the bytes of
    /// a counted byte sequence after its count (the sequence's own span holds them).
    pub fn cells(&self) -> Vec<(FieldSpan<'_>, u64, u64)> {
        let mut out = Vec::new();
        // (node, first byte not yet given to a cell) for the open nodes.
        let mut stack: Vec<(usize, u64)> = Vec::new();
        let close = |stack: &mut Vec<(usize, u64)>, out: &mut Vec<_>| {
            if let Some((i, from)) = stack.pop() {
                let end = self.nodes[i].end;
                if from < end {
                    out.push((
                        FieldSpan {
                            spans: self,
                            index: i,
                        },
                        from,
                        end,
                    ));
                }
                if let Some(top) = stack.last_mut() {
                    top.1 = end;
                }
            }
        };
        for (i, n) in self.nodes.iter().enumerate() {
            while stack.last().is_some_and(|&(p, _)| p as u32 != n.parent) {
                close(&mut stack, &mut out);
            }
            if let Some(&(p, from)) = stack.last() {
                if from < n.start {
                    out.push((
                        FieldSpan {
                            spans: self,
                            index: p,
                        },
                        from,
                        n.start,
                    ));
                }
            }
            stack.push((i, n.start));
        }
        while !stack.is_empty() {
            close(&mut stack, &mut out);
        }
        out
    }

    /// Builds spans from (path, start, end) triples, for formats whose spans are not
    /// recorded by a writer (VPD). The triples must come in file order, an enclosing
    /// field before the fields inside it; one whose enclosing field was not given, or
    /// that holds no byte, is left out. `len` is the value's length in bytes.
    pub fn from_ranges(
        len: u64,
        ranges: impl IntoIterator<Item = (Vec<Segment>, u64, u64)>,
    ) -> Spans {
        let mut nodes: Vec<Node> = Vec::new();
        let mut open: Vec<(Vec<Segment>, usize)> = Vec::new();
        for (path, start, end) in ranges {
            while open
                .last()
                .is_some_and(|(p, _)| !(path.len() > p.len() && path.starts_with(p)))
            {
                open.pop();
            }
            let Some((last, parent_path)) = path.split_last() else {
                continue;
            };
            if parent_path.len() != open.len() || end <= start {
                continue;
            }
            let parent = open.last().map_or(ROOT, |(_, i)| *i as u32);
            open.push((path.clone(), nodes.len()));
            nodes.push(Node {
                seg: *last,
                parent,
                next: 0,
                start,
                end,
            });
        }
        // Each node's descendants are the nodes after it up to the first that is not.
        for i in (0..nodes.len()).rev() {
            let mut next = i + 1;
            while next < nodes.len() && is_within(&nodes, next, i) {
                next = nodes[next].next as usize;
            }
            nodes[i].next = next as u32;
        }
        Spans { nodes, len }
    }
}

/// True when node `i` lies inside node `ancestor`.
fn is_within(nodes: &[Node], i: usize, ancestor: usize) -> bool {
    let mut p = nodes[i].parent;
    while p != ROOT {
        if p as usize == ancestor {
            return true;
        }
        p = nodes.get(p as usize).map_or(ROOT, |n| n.parent);
    }
    false
}

/// An [`Output`] that records where every field starts and ends, and stores no bytes.
///
/// [`SpanRecorder::containing`] keeps only the spans that hold one offset, which is all
/// that [`explain`] needs, in memory proportional to the depth of the value.
#[derive(Debug, Default)]
pub struct SpanRecorder {
    pos: u64,
    stack: Vec<usize>,
    nodes: Vec<Node>,
    only: Option<u64>,
}

impl SpanRecorder {
    /// A recorder that keeps every span.
    pub fn new() -> Self {
        SpanRecorder::default()
    }

    /// A recorder that keeps only the spans holding byte `offset`.
    pub fn containing(offset: u64) -> Self {
        SpanRecorder {
            only: Some(offset),
            ..SpanRecorder::default()
        }
    }

    /// The spans recorded.
    pub fn finish(self) -> Spans {
        Spans {
            nodes: self.nodes,
            len: self.pos,
        }
    }
}

impl Output for SpanRecorder {
    fn position(&self) -> u64 {
        self.pos
    }

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.pos += bytes.len() as u64;
        Ok(())
    }

    fn enter(&mut self, seg: Segment) {
        let parent = self.stack.last().map_or(ROOT, |&p| p as u32);
        self.stack.push(self.nodes.len());
        self.nodes.push(Node {
            seg,
            parent,
            next: 0,
            start: self.pos,
            end: self.pos,
        });
    }

    fn leave(&mut self) {
        let Some(i) = self.stack.pop() else {
            return;
        };
        let next = self.nodes.len() as u32;
        let Some(node) = self.nodes.get_mut(i) else {
            return;
        };
        node.end = self.pos;
        node.next = next;
        let keep = match self.only {
            Some(off) => node.start <= off && off < node.end,
            None => node.end > node.start,
        };
        if !keep {
            // Its descendants come after it and hold no byte it does not.
            self.nodes.truncate(i);
        }
    }
    fn records_spans(&self) -> bool {
        true
    }
}

/// What `explain` says about one byte: the innermost field that holds it, its byte range
/// and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The byte explained.
    pub offset: u64,
    /// The field's path.
    pub path: Path,
    /// The field's first byte.
    pub start: u64,
    /// One past the field's last byte.
    pub end: u64,
    /// The field's value (a leaf for every binary format; a count or a tag is a
    /// [`Leaf::Count`] or the tag's integer). `None` only if
    /// the walk and the writer disagree, which the tests rule out for every format.
    pub value: Option<Value>,
}

/// Explains byte `offset` of `value` written with `ctx`: the innermost field that holds
/// it. `None` when the offset is past the end.
pub fn explain<T, C>(value: &T, ctx: &C, offset: u64) -> Result<Option<Explanation>>
where
    T: Encode<C> + Walk + ?Sized,
    C: ?Sized,
{
    let mut rec = SpanRecorder::containing(offset);
    value.encode(&mut rec, ctx)?;
    let spans = rec.finish();
    let Some(span) = spans.deepest(offset) else {
        return Ok(None);
    };
    let path = span.path();
    // Only the value on the path is built: the walk passes everything else by.
    let value = pick(value, path.segments());
    Ok(Some(Explanation {
        offset,
        start: span.start(),
        end: span.end(),
        path,
        value,
    }))
}

/// The value at `path` of `value`, as [`Value::lookup`] gives it from the whole tree, but
/// built from one walk that keeps only that value: memory in proportion to the value
/// found and the depth of the path, not to the whole of `value`.
///
/// ```
/// use mmd_formats::inspect::spans::pick;
/// use mmd_formats::walk::{Segment, Value};
/// let bytes = mmd_formats::samples::vmd_samples().remove(0).1;
/// let vmd = mmd_formats::vmd::Vmd::from_bytes(&bytes).unwrap();
/// let path = [Segment::Field("bone_keys"), Segment::Count];
/// assert_eq!(pick(&vmd, &path), Value::of(&vmd).lookup(&path).map(|v| v.into_owned()));
/// ```
pub fn pick<T: Walk + ?Sized>(value: &T, path: &[Segment]) -> Option<Value> {
    let mut p = Pick::new(path);
    value.walk(&mut p);
    p.found
}

/// What [`Pick`] looks for at the end of its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// The value at the path.
    Value,
    /// The length of the sequence at the path (a last segment [`Segment::Count`]).
    Count,
    /// The tag of the enum value at the path (a last segment [`Segment::Tag`]).
    Tag,
    /// The signature of the value at the path: an enum's declared one, else its field
    /// `magic` (a last segment `magic`).
    Magic,
}

/// One open container of the walk, as [`Pick`] follows it.
#[derive(Debug)]
enum Frame {
    /// A struct; the name of the field whose value comes next.
    Struct(&'static str),
    /// A sequence; the index of the element that comes next.
    Seq(usize),
    /// An enum value, whose body comes next under the variant's name.
    Variant(&'static str),
}

/// A [`Visitor`] that builds only the value at one path.
struct Pick {
    /// The path of the container (or value) looked for.
    target: Vec<Segment>,
    want: Want,
    /// The open containers, outermost first.
    frames: Vec<Frame>,
    /// How many of the open containers lie on the target path (a prefix of `frames`).
    on_path: usize,
    /// While the value is being built: the builder and the depth of `frames` it began at.
    building: Option<(crate::walk::Tree, usize)>,
    found: Option<Value>,
}

impl Pick {
    fn new(path: &[Segment]) -> Self {
        let (target, want) = match path.split_last() {
            Some((Segment::Count, parent)) => (parent, Want::Count),
            Some((Segment::Tag, parent)) => (parent, Want::Tag),
            Some((Segment::Field("magic"), parent)) => (parent, Want::Magic),
            _ => (path, Want::Value),
        };
        Pick {
            target: target.to_vec(),
            want,
            frames: Vec::new(),
            on_path: 0,
            building: None,
            found: None,
        }
    }

    /// The segment of the value that begins now (`None` at the top level), moving the
    /// sequence on.
    fn next_segment(&mut self) -> Option<Segment> {
        Some(match self.frames.last_mut()? {
            Frame::Struct(name) => Segment::Field(name),
            Frame::Seq(i) => {
                *i += 1;
                Segment::Index(*i - 1)
            }
            Frame::Variant(name) => Segment::Field(name),
        })
    }

    /// Where the value that begins now lies: `Some(true)` at the target, `Some(false)` on
    /// the way to it, `None` off the path (or when the value is found already).
    fn place(&mut self) -> Option<bool> {
        let depth = self.frames.len();
        let seg = self.next_segment();
        if self.found.is_some() || self.on_path != depth {
            return None;
        }
        if let Some(seg) = seg {
            if self.target.get(depth - 1) != Some(&seg) {
                return None;
            }
        }
        // The top-level value is at depth 0 with the empty path; a value inside `depth`
        // open containers has a path of `depth` segments.
        Some(depth == self.target.len())
    }

    /// A container begins: `frame` opens, on the path or not.
    fn open(&mut self, frame: Frame, on_path: bool) {
        self.frames.push(frame);
        if on_path {
            self.on_path = self.frames.len();
        }
    }
}

impl Visitor for Pick {
    fn leaf(&mut self, leaf: Leaf) {
        if let Some((tree, _)) = &mut self.building {
            tree.leaf(leaf);
            return;
        }
        let at = self.place();
        if at == Some(true) {
            self.found = match (self.want, leaf) {
                (Want::Value, l) => Some(Value::Leaf(l)),
                (Want::Count, Leaf::Bytes(b)) => Some(Value::Leaf(Leaf::Count(b.len() as u64))),
                _ => None,
            };
        }
    }

    fn absent(&mut self) {
        if let Some((tree, _)) = &mut self.building {
            tree.absent();
            return;
        }
        if self.place() == Some(true) && self.want == Want::Value {
            self.found = Some(Value::Absent);
        }
    }

    fn begin_struct(&mut self, name: &'static str) {
        if let Some((tree, _)) = &mut self.building {
            tree.begin_struct(name);
            self.frames.push(Frame::Struct(""));
            return;
        }
        let at = self.place();
        if at == Some(true) && self.want == Want::Value {
            let mut tree = crate::walk::Tree::new();
            tree.begin_struct(name);
            self.building = Some((tree, self.frames.len()));
        }
        // A struct's signature is its field `magic`: an ordinary value one level down.
        let magic = at == Some(true) && self.want == Want::Magic;
        if magic {
            self.target.push(Segment::Field("magic"));
            self.want = Want::Value;
        }
        self.open(Frame::Struct(""), at == Some(false) || magic);
    }

    fn field(&mut self, name: &'static str) {
        if let Some((tree, _)) = &mut self.building {
            tree.field(name);
        }
        if let Some(Frame::Struct(next)) = self.frames.last_mut() {
            *next = name;
        }
    }

    fn begin_seq(&mut self, len: usize) {
        if let Some((tree, _)) = &mut self.building {
            tree.begin_seq(len);
            self.frames.push(Frame::Seq(0));
            return;
        }
        let at = self.place();
        match (at, self.want) {
            (Some(true), Want::Value) => {
                let mut tree = crate::walk::Tree::new();
                tree.begin_seq(len);
                self.building = Some((tree, self.frames.len()));
            }
            (Some(true), Want::Count) => {
                self.found = Some(Value::Leaf(Leaf::Count(len as u64)));
            }
            _ => {}
        }
        self.open(Frame::Seq(0), at == Some(false));
    }

    fn begin_variant(&mut self, variant: Variant) {
        if let Some((tree, _)) = &mut self.building {
            let name = variant.name;
            tree.begin_variant(variant);
            self.frames.push(Frame::Variant(name));
            return;
        }
        let name = variant.name;
        let at = self.place();
        match (at, self.want) {
            (Some(true), Want::Value) => {
                let mut tree = crate::walk::Tree::new();
                tree.begin_variant(variant);
                self.building = Some((tree, self.frames.len()));
            }
            (Some(true), Want::Tag) if variant.tag_in_file => {
                self.found = Some(Value::Leaf(variant.tag));
            }
            (Some(true), Want::Magic) => {
                self.found = variant.magic.map(|m| Value::Leaf(Leaf::Magic(m)));
            }
            _ => {}
        }
        self.open(Frame::Variant(name), at == Some(false));
    }

    fn end(&mut self) {
        let depth = self.frames.len();
        self.frames.pop();
        self.on_path = self.on_path.min(self.frames.len());
        if let Some((tree, at)) = &mut self.building {
            tree.end();
            if depth == *at + 1 {
                let (tree, _) = self.building.take().expect("building");
                self.found = Some(tree.finish());
            }
        }
    }
}

/// Explains `offset` with spans already recorded and the tree already walked.
pub fn explain_in(spans: &Spans, tree: &Value, offset: u64) -> Option<Explanation> {
    let span = spans.deepest(offset)?;
    let path = span.path();
    let value = tree
        .lookup(path.segments())
        .map(std::borrow::Cow::into_owned);
    Some(Explanation {
        offset,
        start: span.start(),
        end: span.end(),
        path,
        value,
    })
}
