//! The walk of a VPD file, and where each of its values is (the spans of the inspection
//! tools).
//!
//! VPD is text, so its spans come from the parser's record of where each value's text
//! is, not from a writer. The walk has the values (signature, model file, declared bone
//! count, bone names and numbers, morph names and weights); the layout text around them
//! (keywords, separators, comments, blank lines, line ends) is not walked, and belongs
//! to no leaf span: a byte of it is explained by the bone or morph block around it, or
//! by nothing.

use super::parse::is_ws;
use super::{Num, Span, Vpd, MAGIC};
use crate::error::Result;
use crate::text::decode_sjis;
use crate::walk::{Leaf, Segment, Text, TextKind, Visitor, Walk};

/// A path and its byte range.
pub(crate) type Ranged = (Vec<Segment>, u64, u64);

/// A bone or morph block, for its spans.
struct BlockRef<'a> {
    /// `bones` or `morphs`.
    kind: &'static str,
    /// Its position among the blocks of its kind.
    index: usize,
    name: Span,
    /// (field, numbers): translation and rotation, or weight.
    numbers: Vec<(&'static str, &'a [Num])>,
}

impl Vpd {
    fn text_leaf(&self, span: Span) -> Leaf {
        let raw = self.bytes(span).to_vec();
        let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&raw);
        let (back, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&text);
        let clean = !had_errors && !unmappable && back == raw.as_slice();
        Leaf::Text(Box::new(Text {
            text: if clean {
                text.into_owned()
            } else {
                decode_sjis(&raw).into_owned()
            },
            raw,
            kind: TextKind::ShiftJis,
            clean,
        }))
    }

    /// The file's length and the byte ranges of every value of the file as read, and of
    /// each bone and morph block (from its keyword to its closing `}`), in file order, an
    /// enclosing block before the values inside it. Edits made since reading are written
    /// first and the result read again, so the ranges are those of
    /// [`to_bytes`](Vpd::to_bytes).
    pub(crate) fn value_ranges(&self) -> Result<(u64, Vec<Ranged>)> {
        let edited = self
            .bones
            .iter()
            .flat_map(|b| b.translation.iter().chain(&b.rotation))
            .chain(self.morphs.iter().map(|m| &m.weight))
            .any(|n| n.edited.is_some());
        if edited {
            return Vpd::from_bytes(&self.to_bytes()?)?.value_ranges();
        }
        let range = |s: Span| (s.start as u64, s.end as u64);
        let mut out: Vec<Ranged> = Vec::new();
        let f = Segment::Field;
        out.push((vec![f("signature")], 0, MAGIC.len() as u64));
        let (s, e) = range(self.model_file);
        out.push((vec![f("model_file")], s, e));
        let (s, e) = range(self.bone_count_span);
        out.push((vec![f("bone_count")], s, e));

        // Blocks in file order; bones and morphs may alternate, so each run of blocks of
        // one kind gets its own `bones` / `morphs` span.
        let mut blocks: Vec<BlockRef> = self
            .bones
            .iter()
            .enumerate()
            .map(|(i, b)| BlockRef {
                kind: "bones",
                index: i,
                name: b.name,
                numbers: vec![
                    ("translation", &b.translation[..]),
                    ("rotation", &b.rotation[..]),
                ],
            })
            .chain(self.morphs.iter().enumerate().map(|(i, m)| BlockRef {
                kind: "morphs",
                index: i,
                name: m.name,
                numbers: vec![("weight", std::slice::from_ref(&m.weight))],
            }))
            .collect();
        blocks.sort_by_key(|b| b.name.start);
        let mut runs: Vec<(&'static str, Vec<Ranged>)> = Vec::new();
        for block in &blocks {
            let spans = self.block_spans(block);
            match runs.last_mut() {
                Some((k, run)) if *k == block.kind => run.extend(spans),
                _ => runs.push((block.kind, spans)),
            }
        }
        for (kind, run) in runs {
            let start = run.first().map_or(0, |r| r.1);
            let end = run.iter().map(|r| r.2).max().unwrap_or(start);
            out.push((vec![f(kind)], start, end));
            out.extend(run);
        }
        Ok((self.src.len() as u64, out))
    }

    /// The spans of one block: the block, its name and its numbers.
    fn block_spans(&self, block: &BlockRef<'_>) -> Vec<Ranged> {
        let f = Segment::Field;
        let name = block.name;
        let last = block
            .numbers
            .last()
            .and_then(|(_, n)| n.last())
            .map_or(name.end, |n| n.span.end);
        let at = vec![f(block.kind), Segment::Index(block.index)];
        let child = |more: &[Segment]| {
            let mut p = at.clone();
            p.extend_from_slice(more);
            p
        };
        let mut spans = vec![(
            at.clone(),
            self.line_start(name.start),
            self.block_end(last),
        )];
        spans.push((child(&[f("name")]), name.start as u64, name.end as u64));
        for &(field, values) in &block.numbers {
            let (Some(first), Some(end)) = (values.first(), values.last()) else {
                continue;
            };
            if field == "weight" {
                spans.push((
                    child(&[f(field)]),
                    first.span.start as u64,
                    first.span.end as u64,
                ));
                continue;
            }
            spans.push((
                child(&[f(field)]),
                first.span.start as u64,
                end.span.end as u64,
            ));
            for (k, n) in values.iter().enumerate() {
                let p = child(&[f(field), Segment::Index(k)]);
                spans.push((p, n.span.start as u64, n.span.end as u64));
            }
        }
        spans
    }

    /// The offset of the first byte of the line that holds `at` (leading blank space
    /// skipped, as the reader skips it).
    pub(super) fn line_start(&self, at: usize) -> u64 {
        let head = self.src.get(..at).unwrap_or(&[]);
        let mut start = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        while start < at && self.src.get(start).copied().is_some_and(is_ws) {
            start += 1;
        }
        start as u64
    }

    /// One past the `}` that closes the block whose last value ends at `after`: the first
    /// `}` that opens a line after it, after blank space as the reader skips it (spaces,
    /// TABs and CRs), or `after` if there is none.
    pub(super) fn block_end(&self, after: usize) -> u64 {
        let mut pos = after;
        while let Some(nl) = self
            .src
            .get(pos..)
            .and_then(|r| r.iter().position(|&b| b == b'\n'))
        {
            let mut p = pos + nl + 1;
            while self.src.get(p).copied().is_some_and(is_ws) {
                p += 1;
            }
            if self.src.get(p) == Some(&b'}') {
                return (p + 1) as u64;
            }
            pos = p;
        }
        after as u64
    }
}

impl Walk for Vpd {
    /// `signature`, `model_file`, `bone_count` (as declared), `bones` (each `name`,
    /// `translation`, `rotation`) and `morphs` (each `name`, `weight`).
    fn walk(&self, v: &mut dyn Visitor) {
        v.begin_struct("Vpd");
        v.field("signature");
        v.leaf(Leaf::Magic(MAGIC));
        v.field("model_file");
        v.leaf(self.text_leaf(self.model_file));
        v.field("bone_count");
        v.leaf(Leaf::U32(self.declared_bone_count));
        v.field("bones");
        v.begin_seq(self.bones.len());
        for b in &self.bones {
            v.begin_struct("BonePose");
            v.field("name");
            v.leaf(self.text_leaf(b.name));
            v.field("translation");
            v.begin_seq(3);
            b.translation
                .iter()
                .for_each(|n| v.leaf(Leaf::F32(n.value)));
            v.end();
            v.field("rotation");
            v.begin_seq(4);
            b.rotation.iter().for_each(|n| v.leaf(Leaf::F32(n.value)));
            v.end();
            v.end();
        }
        v.end();
        v.field("morphs");
        v.begin_seq(self.morphs.len());
        for m in &self.morphs {
            v.begin_struct("MorphPose");
            v.field("name");
            v.leaf(self.text_leaf(m.name));
            v.field("weight");
            v.leaf(Leaf::F32(m.weight.value));
            v.end();
        }
        v.end();
        v.end();
    }
}
