//! The VPD reader: a hand-written line parser that records where each value's text is.
//!
//! Shift_JIS safety: every byte the parser looks for (`;`, `,`, `/`, `{` right after the
//! index digits, `}` at the start of a line, spaces, TABs, CR, LF) is below 0x40 or sits
//! where a character must start, so it can never be the second byte of a two-byte
//! character.

use super::{BoneBlock, MorphBlock, Num, Span, Vpd, Warning, MAGIC};
use crate::error::{Error, Result};

/// Where a value is, for error paths and warnings.
#[derive(Debug, Clone, Copy)]
enum Place {
    Signature,
    ModelFile,
    BoneCount,
    Bone(usize, Option<&'static str>),
    Morph(usize, Option<&'static str>),
}

impl Place {
    fn apply(self, e: Error) -> Error {
        let inner = |e: Error, f: Option<&'static str>| match f {
            Some(f) => e.in_field(f),
            None => e,
        };
        match self {
            Place::Signature => e.in_field("signature"),
            Place::ModelFile => e.in_field("model_file"),
            Place::BoneCount => e.in_field("bone_count"),
            Place::Bone(i, f) => inner(e, f).in_index(i).in_field("bones"),
            Place::Morph(i, f) => inner(e, f).in_index(i).in_field("morphs"),
        }
    }

    fn path(self) -> String {
        Place::apply(self, Error::invalid(0, "", "")).path_string()
    }
}

/// One line: content `start..end` (terminator excluded) and its 1-based number.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    end: usize,
    number: usize,
}

/// Blank space inside a line: spaces, TABs and CRs (a CR is blank anywhere in a line, not
/// only before its LF). The spans of `walk` use the same rule.
pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    line_no: usize,
    warnings: Vec<Warning>,
}

impl<'a> Parser<'a> {
    fn get(&self, start: usize, end: usize) -> &'a [u8] {
        self.src.get(start..end).unwrap_or(&[])
    }

    fn content(&self, line: Line) -> &'a [u8] {
        self.get(line.start, line.end)
    }

    /// The next line, or `None` at the end of the input.
    fn next_line(&mut self) -> Option<Line> {
        let start = self.pos;
        let rest = self.src.get(start..).filter(|r| !r.is_empty())?;
        let (end, next) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let lf = start + i;
                let cr = i > 0 && rest.get(i - 1) == Some(&b'\r');
                (if cr { lf - 1 } else { lf }, lf + 1)
            }
            None => (self.src.len(), self.src.len()),
        };
        self.pos = next;
        self.line_no += 1;
        Some(Line {
            start,
            end,
            number: self.line_no,
        })
    }

    /// The content of `start..end` with spaces, TABs and CRs removed at both ends.
    fn trim(&self, mut start: usize, mut end: usize) -> (usize, usize) {
        while start < end && self.src.get(start).copied().is_some_and(is_ws) {
            start += 1;
        }
        while end > start && self.src.get(end - 1).copied().is_some_and(is_ws) {
            end -= 1;
        }
        (start, end)
    }

    fn is_filler(&self, line: Line) -> bool {
        let (s, e) = self.trim(line.start, line.end);
        s == e || self.get(s, e).starts_with(b"//")
    }

    /// The next line that is not empty, blank or a comment.
    fn next_statement(&mut self) -> Option<Line> {
        loop {
            let line = self.next_line()?;
            if !self.is_filler(line) {
                return Some(line);
            }
        }
    }

    fn error(
        &self,
        offset: usize,
        line: usize,
        place: Place,
        expected: &str,
        found: &str,
    ) -> Error {
        place.apply(Error::invalid(
            offset as u64,
            expected,
            format!("{found} on line {line}"),
        ))
    }

    /// The file ends where `expected` should be: a truncation.
    fn end_error(&self, place: Place, expected: &str) -> Error {
        self.error(
            self.src.len(),
            self.line_no + 1,
            place,
            expected,
            "the end of the file",
        )
        .cut_at(Vec::new(), self.src.len() as u64)
    }

    fn warn(&mut self, offset: usize, line: usize, place: Place, message: String) {
        self.warnings.push(Warning {
            offset: offset as u64,
            line,
            path: place.path(),
            message,
        });
    }

    /// Shows text from the file in messages: decoded and quoted, or, when it is not valid
    /// Shift_JIS, its bytes with `\xNN` for the non-ASCII ones; cut after 40 characters.
    fn show(bytes: &[u8]) -> String {
        let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
        if had_errors {
            let mut shown = String::from("bytes \"");
            for &b in bytes.iter().take(40) {
                if b.is_ascii_graphic() || b == b' ' {
                    shown.push(char::from(b));
                } else {
                    shown.push_str(&format!("\\x{b:02x}"));
                }
            }
            shown.push_str(if bytes.len() > 40 { "…\"" } else { "\"" });
            return shown;
        }
        let mut shown: String = text.chars().take(40).collect();
        if text.chars().nth(40).is_some() {
            shown.push('…');
        }
        format!("{shown:?}")
    }

    /// Marks `e` as a truncation when `line` is the last one, runs to the end of the file
    /// with no line break, and `partial` says its text is the start of what belongs there
    /// (digits without their `;`, `Bon` for `Bone`): the file was cut inside it.
    /// A last line that is a lone `/` is a `//` comment cut short, whatever was expected.
    fn cut_inside(&self, e: Error, line: Line, partial: bool) -> Error {
        let (s, end) = self.trim(line.start, line.end);
        let partial = partial || self.get(s, end) == b"/";
        if partial && line.end == self.src.len() {
            e.cut_at(Vec::new(), self.src.len() as u64)
        } else {
            e
        }
    }

    /// Warns about text after a `;` or `}` that is neither blank nor a `//` comment.
    fn check_tail(&mut self, start: usize, line: Line, place: Place) {
        let (s, e) = self.trim(start, line.end);
        let tail = self.get(s, e);
        if !tail.is_empty() && !tail.starts_with(b"//") {
            let message = format!("text {} that is not a `//` comment", Self::show(tail));
            self.warn(s, line.number, place, message);
        }
    }

    /// The value part of a line (up to the first `;`, else up to `//`, else all of it),
    /// trimmed, and the offset just after the `;` when there is one.
    fn value_part(&self, line: Line) -> (Span, Option<usize>) {
        let content = self.content(line);
        let semi = content.iter().position(|&b| b == b';');
        let stop = semi.or_else(|| content.windows(2).position(|w| w == b"//"));
        let value_end = line.start + stop.unwrap_or(content.len());
        let (start, end) = self.trim(line.start, value_end);
        (Span { start, end }, semi.map(|i| line.start + i + 1))
    }

    fn signature(&mut self) -> Result<()> {
        if !self.src.starts_with(MAGIC) {
            let head = self.get(0, MAGIC.len().min(self.src.len()));
            let found = format!("{} (not a VPD file)", Self::show(head));
            let e = self.error(0, 1, Place::Signature, "`Vocaloid Pose Data file`", &found);
            // A file cut inside the signature is the start of one.
            if MAGIC.starts_with(self.src) {
                return Err(e.cut_at(Vec::new(), self.src.len() as u64));
            }
            return Err(e);
        }
        let Some(line) = self.next_line() else {
            return Err(self.end_error(Place::Signature, "the signature line"));
        };
        let after = self.get(MAGIC.len(), line.end);
        if !after.is_empty() {
            let message = format!(
                "text {} after the signature (MMD writes nothing there)",
                Self::show(after)
            );
            self.warn(MAGIC.len(), 1, Place::Signature, message);
        }
        Ok(())
    }

    fn model_file(&mut self) -> Result<Span> {
        let Some(line) = self.next_statement() else {
            return Err(
                self.end_error(Place::ModelFile, "the parent model file line `<name>.osm;`")
            );
        };
        let (span, semi) = self.value_part(line);
        if let Some(after) = semi {
            self.check_tail(after, line, Place::ModelFile);
        }
        self.check_name(span, line, Place::ModelFile);
        Ok(span)
    }

    /// The count line: the count, where its digits are and its line number.
    fn bone_count(&mut self) -> Result<(u32, Span, usize)> {
        let expected = "the bone count: decimal digits, then `;`";
        let Some(line) = self.next_statement() else {
            return Err(self.end_error(Place::BoneCount, expected));
        };
        let (span, semi) = self.value_part(line);
        let digits = self.get(span.start, span.end);
        let count = std::str::from_utf8(digits)
            .ok()
            .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<u32>().ok());
        let Some(count) = count else {
            let content = self.content(line);
            let found = Self::show(content);
            let e = self.error(span.start, line.number, Place::BoneCount, expected, &found);
            // Digits, then the first `/` of a `//` comment, is a line cut short.
            let after_digits = content
                .iter()
                .skip_while(|b| is_ws(**b))
                .skip_while(|b| b.is_ascii_digit())
                .skip_while(|b| is_ws(**b));
            let partial = after_digits.eq(b"/".iter());
            return Err(self.cut_inside(e, line, partial));
        };
        if let Some(after) = semi {
            self.check_tail(after, line, Place::BoneCount);
        }
        Ok((count, span, line.number))
    }

    fn check_name(&mut self, span: Span, line: Line, place: Place) {
        let bytes = self.get(span.start, span.end);
        let (_, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
        if had_errors {
            let message = format!(
                "name {} is not valid Shift_JIS (kept as bytes)",
                Self::show(bytes)
            );
            self.warn(span.start, line.number, place, message);
        }
    }

    /// A block opening `Bone<i>{name` / `Morph<i>{name`: checks the keyword, reads the
    /// index digits (warning when they are not `position`) and returns the name's span.
    fn block_open(
        &mut self,
        line: Line,
        keyword: &[u8],
        position: usize,
        place: Place,
    ) -> Result<Span> {
        let (start, _) = self.trim(line.start, line.end);
        let digits_start = start + keyword.len();
        let rest = self.get(digits_start, line.end);
        let n_digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if n_digits == 0 || rest.get(n_digits) != Some(&b'{') {
            let kw = String::from_utf8_lossy(keyword);
            let expected = format!("`{kw}<index>{{<name>`");
            let found = Self::show(self.content(line));
            let e = self.error(start, line.number, place, &expected, &found);
            return Err(self.cut_inside(e, line, n_digits == rest.len()));
        }
        let digits = self.get(digits_start, digits_start + n_digits);
        if digits != position.to_string().as_bytes() {
            let message = format!(
                "block index {} where {} was expected (blocks are numbered from 0 in file order)",
                String::from_utf8_lossy(digits),
                position
            );
            self.warn(digits_start, line.number, place, message);
        }
        let name = Span {
            start: digits_start + n_digits + 1,
            end: line.end,
        };
        let name_place = match place {
            Place::Bone(i, _) => Place::Bone(i, Some("name")),
            Place::Morph(i, _) => Place::Morph(i, Some("name")),
            other => other,
        };
        self.check_name(name, line, name_place);
        Ok(name)
    }

    /// A line of `N` comma-separated numbers ended by `;`.
    fn numbers<const N: usize>(&mut self, place: Place, what: &str) -> Result<[Num; N]> {
        let expected = format!(
            "{what}: {N} decimal number{} separated by `,`, then `;`",
            if N == 1 { "" } else { "s" }
        );
        let Some(line) = self.next_statement() else {
            return Err(self.end_error(place, &expected));
        };
        let content = self.content(line);
        let Some(semi) = content.iter().position(|&b| b == b';') else {
            let found = format!("{} (no `;`)", Self::show(content));
            let e = self.error(line.start, line.number, place, &expected, &found);
            return Err(self.cut_inside(e, line, is_numbers_prefix(content, N)));
        };
        let mut nums = Vec::with_capacity(N);
        let mut part_start = line.start;
        let value_end = line.start + semi;
        for part in self.get(line.start, value_end).split(|&b| b == b',') {
            let part_end = part_start + part.len();
            let (s, e) = self.trim(part_start, part_end);
            if nums.len() == N {
                let found = format!("more than {N} values: {}", Self::show(content));
                return Err(self.error(part_start, line.number, place, &expected, &found));
            }
            let text = self.get(s, e);
            let value = std::str::from_utf8(text)
                .ok()
                .and_then(|t| t.parse::<f32>().ok());
            let Some(value) = value else {
                let found = format!("{} in {}", Self::show(text), Self::show(content));
                return Err(self.error(s, line.number, place, &expected, &found));
            };
            if !value.is_finite() {
                let message = format!("{} is not a finite number", Self::show(text));
                self.warn(s, line.number, place, message);
            }
            nums.push(Num {
                span: Span { start: s, end: e },
                value,
                edited: None,
            });
            part_start = part_end + 1;
        }
        let got = nums.len();
        self.check_tail(value_end + 1, line, place);
        nums.try_into().map_err(|_| {
            let found = format!(
                "{got} value{}: {}",
                if got == 1 { "" } else { "s" },
                Self::show(content)
            );
            self.error(line.start, line.number, place, &expected, &found)
        })
    }

    /// The `}` line that closes a block.
    fn close(&mut self, place: Place) -> Result<()> {
        let expected = "`}` closing the block";
        let Some(line) = self.next_statement() else {
            return Err(self.end_error(place, expected));
        };
        let (s, e) = self.trim(line.start, line.end);
        let text = self.get(s, e);
        let rest = text.strip_prefix(b"}").map(|r| {
            let skip = r.iter().take_while(|&&b| is_ws(b)).count();
            r.get(skip..).unwrap_or(&[])
        });
        match rest {
            Some(r) if r.is_empty() || r.starts_with(b"//") => Ok(()),
            // `}` and the first `/` of a `//` comment: a line cut short.
            Some(r) => {
                let e = self.error(s, line.number, place, expected, &Self::show(text));
                Err(self.cut_inside(e, line, r == b"/"))
            }
            // Not a `}`: corrupt, unless the file ends in the first `/` of a comment.
            None => {
                let e = self.error(s, line.number, place, expected, &Self::show(text));
                Err(self.cut_inside(e, line, false))
            }
        }
    }
}

/// True when `content`, a line without its `;`, is the start of a line of `n` numbers:
/// at most `n` comma-separated parts, every one but the last a whole number, the last the
/// start of one (`-`, `1.`, `2e`, `in` of `inf`, or nothing yet).
fn is_numbers_prefix(content: &[u8], n: usize) -> bool {
    let parts: Vec<&[u8]> = content.split(|&b| b == b',').collect();
    let Some((last, whole)) = parts.split_last() else {
        return true;
    };
    let last_core = trim(last);
    parts.len() <= n
        && whole.iter().all(|p| parse_number(trim(p)).is_some())
        && if last.last().is_some_and(|b| is_ws(*b)) {
            // Blank after it: the number is complete (or not begun).
            last_core.is_empty() || parse_number(last_core).is_some()
        } else {
            is_number_start(last_core)
        }
}

/// `b` without spaces, TABs and CRs at either end.
fn trim(b: &[u8]) -> &[u8] {
    let start = b.iter().take_while(|c| is_ws(**c)).count();
    let end = b.len() - b[start..].iter().rev().take_while(|c| is_ws(**c)).count();
    &b[start..end]
}

/// The number the VPD reader takes `b` for, if any.
fn parse_number(b: &[u8]) -> Option<f32> {
    std::str::from_utf8(b).ok()?.parse::<f32>().ok()
}

/// True when `b` can be continued into a number `f32::from_str` accepts.
fn is_number_start(b: &[u8]) -> bool {
    let b = b
        .strip_prefix(b"-")
        .or_else(|| b.strip_prefix(b"+"))
        .unwrap_or(b);
    let lower = b.to_ascii_lowercase();
    if b"infinity".starts_with(&lower) || b"nan".starts_with(&lower) {
        return true;
    }
    let digits = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
    let int = digits(b);
    let mut rest = &b[int..];
    let mut mantissa = int;
    if let Some(r) = rest.strip_prefix(b".") {
        let frac = digits(r);
        mantissa += frac;
        rest = &r[frac..];
    }
    if mantissa > 0 {
        if let Some(r) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
            let r = r
                .strip_prefix(b"-")
                .or_else(|| r.strip_prefix(b"+"))
                .unwrap_or(r);
            rest = &r[digits(r)..];
        }
    }
    rest.is_empty()
}

/// Reads a whole VPD file.
pub(super) fn parse(src: &[u8]) -> Result<Vpd> {
    let mut p = Parser {
        src,
        pos: 0,
        line_no: 0,
        warnings: Vec::new(),
    };
    p.signature()?;
    let model_file = p.model_file()?;
    let (declared_bone_count, bone_count_span, count_line) = p.bone_count()?;
    let count_offset = bone_count_span.start;
    let mut bones = Vec::new();
    let mut morphs: Vec<MorphBlock> = Vec::new();
    while let Some(line) = p.next_statement() {
        let (s, e) = p.trim(line.start, line.end);
        let text = p.get(s, e);
        if text.starts_with(b"Bone") {
            let i = bones.len();
            let name = p.block_open(line, b"Bone", i, Place::Bone(i, None))?;
            let translation =
                p.numbers::<3>(Place::Bone(i, Some("translation")), "translation x,y,z")?;
            let rotation = p.numbers::<4>(
                Place::Bone(i, Some("rotation")),
                "rotation quaternion x,y,z,w",
            )?;
            p.close(Place::Bone(i, None))?;
            bones.push(BoneBlock {
                name,
                translation,
                rotation,
            });
        } else if text.starts_with(b"Morph") {
            let i = morphs.len();
            let name = p.block_open(line, b"Morph", i, Place::Morph(i, None))?;
            let [weight] = p.numbers::<1>(Place::Morph(i, Some("weight")), "morph weight")?;
            p.close(Place::Morph(i, None))?;
            morphs.push(MorphBlock { name, weight });
        } else {
            let expected = "`Bone<index>{<name>`, `Morph<index>{<name>` or the end of the file";
            let place = Place::Bone(bones.len(), None);
            let e = p.error(s, line.number, place, expected, &Parser::show(text));
            let partial = [&b"Bone"[..], b"Morph"].iter().any(|k| k.starts_with(text));
            return Err(p.cut_inside(e, line, partial));
        }
    }
    if bones.len() as u64 != u64::from(declared_bone_count) {
        let message = format!(
            "the count line says {declared_bone_count} bones, the file has {} bone blocks (kept as written)",
            bones.len()
        );
        p.warn(count_offset, count_line, Place::BoneCount, message);
    }
    Ok(Vpd {
        src: src.to_vec(),
        model_file,
        declared_bone_count,
        bone_count_span,
        bones,
        morphs,
        warnings: p.warnings,
    })
}
