//! What a cut file has: the fields of a truncated file, as far as its bytes go.
//!
//! A file that ends too early does not read, but everything before the end is valid (that
//! is what [`Error::is_truncated`] says). [`complete`] reads it as the file it begins: it
//! adds zero bytes at the end, at least as many as the read error says are missing, until
//! the bytes read (zeros read as counts of 0, empty texts, absent blocks). A field that lies
//! wholly within the file then holds what the file holds, since every field is read from
//! its own bytes and those before it; a field the end cuts through has no value.

use mmd_formats::tool::{Document, FileFormat};
use mmd_formats::{Error, ErrorKind};

use crate::tool::guard;

/// The most zero bytes [`complete`] adds to a file. Read zeros can take several times
/// their size in memory (an empty PMX text is 4 bytes in the file and a vector in memory),
/// so this bounds what explaining a cut file costs, whatever its counts say: a count that
/// asks for more records than this many zeros make is not completed.
pub const MAX_PADDING: u64 = 4 << 20;

/// The most times [`complete`] reads the file again with more zeros.
const MAX_ROUNDS: usize = 64;

/// How many more bytes the read that failed with `error` wanted, when the input simply
/// ended (`None` for other errors).
fn missing_bytes(error: &Error) -> Option<u64> {
    if !error.is_truncated() {
        return None;
    }
    let missing = match *error.kind() {
        ErrorKind::Truncated { needed, end } => {
            (error.offset().saturating_add(needed)).saturating_sub(end)
        }
        ErrorKind::CountTooLarge {
            count,
            min_record_size,
            remaining,
        } => count
            .saturating_mul(min_record_size)
            .saturating_sub(remaining),
        _ => return None,
    };
    Some(missing.max(1))
}

/// The file that `bytes` (of `format`, cut short: its read failed with `error`) begins,
/// read with zeros added at the end. `None` when `error` is not a
/// truncation, or when zeros do not make the bytes read (the end cuts through a value that
/// decides the layout, such as the PMX globals), or would take more than [`MAX_PADDING`].
pub fn complete(format: FileFormat, bytes: &[u8], error: &Error) -> Option<Box<dyn Document>> {
    let mut missing = missing_bytes(error)?;
    let mut padded = bytes.to_vec();
    for _ in 0..MAX_ROUNDS {
        // At least double what was added: records the read's minimum size underrates
        // (every vertex wants a byte or two more) then take a few rounds, not thousands.
        // Zeros past what the read needs are read as trailing bytes or empty blocks.
        let before = (padded.len() - bytes.len()) as u64;
        let added = before + missing.max(before);
        if added > MAX_PADDING {
            return None;
        }
        padded.resize(bytes.len() + usize::try_from(added).ok()?, 0);
        match guard::catch(|| format.read(&padded)) {
            Ok(Ok(file)) => return Some(file),
            Ok(Err(e)) => missing = missing_bytes(&e)?,
            Err(_) => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use mmd_formats::inspect::spans::explain_in;
    use mmd_formats::inspect::Format;
    use mmd_formats::samples;
    use mmd_formats::walk::Value;

    /// Every built-in sample, cut at several points: wherever zeros complete it, every
    /// field wholly before the cut is explained as in the whole file (path, range, value).
    #[test]
    fn the_fields_before_the_cut_are_the_files_own() {
        let (mut completed, mut compared) = (0, 0);
        for sample in samples::all() {
            let format = Format::detect(&sample.bytes).expect("a known format");
            let (tree, spans) = format.tree_and_spans(&sample.bytes).expect("samples read");
            let len = sample.bytes.len();
            for cut in [len / 3, len / 2, len - 1] {
                let head = &sample.bytes[..cut];
                let Err(error) = format.tree_and_spans(head) else {
                    continue; // a prefix that reads (a VMD that ends after a block)
                };
                let Some(file) = complete(format.into(), head, &error) else {
                    continue;
                };
                let (cut_tree, cut_spans) = (Value::of(&*file), file.spans().expect("spans"));
                completed += 1;
                for leaf in cut_spans.leaves().filter(|l| l.end() <= cut as u64) {
                    let at = leaf.start();
                    let mine = explain_in(&cut_spans, &cut_tree, at);
                    assert_eq!(
                        mine,
                        explain_in(&spans, &tree, at),
                        "{} cut at {cut}, byte {at}",
                        sample.name
                    );
                    compared += 1;
                }
            }
        }
        assert!(
            completed > 20,
            "only {completed} cut samples were completed"
        );
        assert!(compared > 1000, "only {compared} fields compared");
    }

    #[test]
    fn a_corrupt_file_is_not_completed() {
        let mut bytes = samples::pmx_samples().remove(0).1;
        bytes[0] = b'X';
        let error = Format::Pmx.tree_and_spans(&bytes).unwrap_err();
        assert!(complete(Format::Pmx.into(), &bytes, &error).is_none());
    }
}
