//! A little-endian byte writer for the samples' hand-written layouts.
//!
//! The samples' bytes are written field by field from the seeds' layout tables, with no
//! help from the library's writer (the derive-generated `Encode` impls): the two are
//! separate statements of each layout, and a test checks that the reader, given these
//! bytes, gives back every value the layouts put in.

/// Bytes written so far; every number little-endian (seed 000: 「数値はリトルエンディアン」,
/// seed 004: 「数値はすべてリトルエンディアン」).
#[derive(Default)]
pub(super) struct Out(pub(super) Vec<u8>);

impl Out {
    /// One byte.
    pub(super) fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }

    /// A `u16`.
    pub(super) fn u16(&mut self, v: u16) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }

    /// A `u32`.
    pub(super) fn u32(&mut self, v: u32) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }

    /// An `i32`.
    pub(super) fn i32(&mut self, v: i32) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }

    /// `f32`s, one after the other, as their bits.
    pub(super) fn f32s(&mut self, v: &[f32]) -> &mut Self {
        for x in v {
            self.raw(&x.to_bits().to_le_bytes());
        }
        self
    }

    /// One `f32`.
    pub(super) fn f32(&mut self, v: f32) -> &mut Self {
        self.f32s(&[v])
    }

    /// Bytes as they are.
    pub(super) fn raw(&mut self, v: &[u8]) -> &mut Self {
        self.0.extend_from_slice(v);
        self
    }

    /// The low `width` bytes of `v` (two's complement for a negative `v`): an index of
    /// 1, 2 or 4 bytes. `None` for any other width, or when `v` does not fit `width`
    /// bytes signed (`signed`) or unsigned.
    pub(super) fn int(&mut self, width: u8, v: i64, signed: bool) -> Option<&mut Self> {
        let bits = 8 * u32::from(width);
        let fits = match (width, signed) {
            (1 | 2, true) => (-(1i64 << (bits - 1))..1i64 << (bits - 1)).contains(&v),
            (1 | 2, false) => (0..1i64 << bits).contains(&v),
            (4, _) => i32::try_from(v).is_ok(),
            _ => false,
        };
        fits.then(|| self.raw(&v.to_le_bytes()[..usize::from(width)]))
    }
}

/// Whether the optional blocks that are present are a prefix of them (a file that ends
/// early leaves out the last blocks, never one in the middle).
pub(super) fn is_prefix(present: &[bool]) -> bool {
    present.windows(2).all(|w| w[0] || !w[1])
}
