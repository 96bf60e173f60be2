//! The properties of one input read as one format. A failed property panics with a
//! message that says which, and libFuzzer keeps the input.

use crate::alloc;
use crate::api::{self, Format};
use mmd_formats::inspect::CheckOutcome;
use mmd_formats::Error;

/// Checks every property on `data` read as `format`:
///
/// 1. No function panics, and reading allocates at most [`alloc::read_bound`].
/// 2. The round trip is byte-exact or a read error: a value that was read always writes,
///    and always writes back the bytes it was read from.
/// 3. A read error lies inside the input; one that says the input was cut short says it
///    ended at the input's end.
/// 4. For a file that reads: writing it, reading that and writing again gives the same
///    bytes; the file cut at a probe offset reads, or fails as a truncation ending at the
///    cut (a short file is never blamed on corrupt data).
/// 5. `info`, spans and `explain` succeed exactly when the read does. The spans' cells
///    are in file order without overlap, and tile a binary file; `explain` at the probe names
///    a field that holds the probe, with its value. The field lookup by offset does not
///    panic.
pub fn check_file(format: Format, data: &[u8]) {
    let len = data.len() as u64;
    let probe = probe(data);

    let (read, peak) = alloc::peak_during(|| api::read(format, data));
    let bound = alloc::read_bound(data.len());
    assert!(
        peak <= bound,
        "reading {len} bytes allocated {peak} bytes at peak (bound {bound})"
    );

    let read_ok = match api::roundtrip(format, data) {
        CheckOutcome::ByteExact => true,
        CheckOutcome::ReadError(e) => {
            check_read_error(&e, len, "the input");
            false
        }
        CheckOutcome::WriteError(e) => panic!("a value that was read does not write: {e}"),
        CheckOutcome::Differs {
            offset,
            written_len,
        } => panic!(
            "the value writes back different bytes: first at offset {offset} \
             (input {len} bytes, written {written_len})"
        ),
    };
    assert_eq!(
        read.is_ok(),
        read_ok,
        "from_bytes and the round trip disagree on whether the input reads"
    );

    if read_ok {
        check_rewrite(format, data);
        check_cut(format, data, probe);
    }
    check_inspection(format, data, read_ok, probe);
}

/// A read error's offset is inside the input, its message renders, and a truncation ends
/// at the input's end.
fn check_read_error(e: &Error, len: u64, what: &str) {
    let shown = e.to_string();
    assert!(!shown.is_empty(), "an empty error message");
    assert!(
        e.offset() <= len,
        "read error at offset {} past the end of {what} ({len} bytes): {shown}",
        e.offset()
    );
    if e.is_truncated() {
        assert_eq!(
            e.input_end(),
            Some(len),
            "a truncation of {what} ({len} bytes) that ends elsewhere: {shown}"
        );
    }
}

/// Read -> write -> read -> write: both writes agree (bytes are compared, not values, as
/// NaN floats are not equal to themselves).
fn check_rewrite(format: Format, data: &[u8]) {
    let first = match api::rewrite(format, data) {
        Some(Ok(w)) => w,
        Some(Err(e)) => panic!("first write failed: {e}"),
        None => panic!("the input read in the round trip but not here"),
    };
    match api::rewrite(format, &first) {
        Some(Ok(second)) => assert!(
            second == first,
            "re-written bytes differ ({} then {} bytes)",
            first.len(),
            second.len()
        ),
        Some(Err(e)) => panic!("second write failed: {e}"),
        None => panic!("the written bytes do not read back"),
    }
}

/// The start of a file that reads still reads, or fails as a truncation at the cut.
fn check_cut(format: Format, data: &[u8], probe: u64) {
    let cut = &data[..probe as usize];
    if let Err(e) = api::read(format, cut) {
        assert!(
            e.is_truncated(),
            "cut at {probe}, a file that reads fails as corrupt data, not as a truncation: {e}"
        );
        check_read_error(&e, probe, "the cut file");
    }
}

fn check_inspection(format: Format, data: &[u8], read_ok: bool, probe: u64) {
    let len = data.len() as u64;
    let info = api::info(format, data);
    assert_eq!(info.is_ok(), read_ok, "info: {info:?}");

    let cells = api::cells(format, data);
    assert_eq!(cells.is_ok(), read_ok, "spans: {:?}", cells.as_ref().err());
    if let Ok(cells) = cells {
        let mut at = 0;
        for &(start, end) in &cells {
            assert!(
                start >= at && end > start && end <= len,
                "span cell {start}..{end} after {at} in a file of {len} bytes"
            );
            if api::is_binary(format) {
                assert_eq!(start, at, "the span cells leave bytes {at}..{start} out");
            }
            at = end;
        }
        if api::is_binary(format) {
            assert_eq!(at, len, "the span cells end at {at}, not at the file's end");
        }
    }

    let explained = api::explain(format, data, probe);
    assert_eq!(
        explained.is_ok(),
        read_ok,
        "explain: {:?}",
        explained.as_ref().err()
    );
    match explained {
        Ok(Some(e)) => {
            assert!(
                e.start <= probe && probe < e.end,
                "explain({probe}) names a field at {}..{}",
                e.start,
                e.end
            );
            assert!(e.has_value, "explain({probe}) found no value for its field");
        }
        Ok(None) => assert!(
            probe >= len || !api::is_binary(format),
            "explain({probe}) names no field in a binary file of {len} bytes"
        ),
        Err(_) => {}
    }

    let _ = api::field_at(format, data, probe);
}

/// An offset in `0..=len` that depends on every byte (FNV-1a), so mutations move it.
pub(crate) fn probe(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in data {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h % (data.len() as u64 + 1)
}
