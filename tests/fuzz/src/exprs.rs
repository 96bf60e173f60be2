//! A downstream format whose expressions use every operator of the expression language
//! (`+ - * / %`, shifts, bits, unary `-` and `!`, comparisons, logic, `if`, casts and
//! widening, the helpers), over fields of every integer width and sign, read from the
//! fuzzer's bytes. Issue 29 asked for it: "the fuzz targets include a downstream format
//! whose expressions use every operator". Every expression that cannot be evaluated
//! (overflow, a division by 0, a lossy cast, a bad shift) must be a read error, never a
//! panic (the targets build with overflow checks on).

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::Mmd;

/// The fields every expression reads, then the parts they size or make present.
#[derive(Mmd, Debug)]
#[mmd(ctx = ())]
pub struct Exprs {
    /// An unsigned byte.
    pub a: u8,
    /// A signed byte.
    pub b: i8,
    /// An unsigned 16-bit value.
    pub c: u16,
    /// A signed 16-bit value.
    pub d: i16,
    /// An unsigned 32-bit value.
    pub e: u32,
    /// A signed 32-bit value.
    pub f: i32,
    /// An unsigned 64-bit value.
    pub g: u64,
    /// A signed 64-bit value.
    pub h: i64,
    /// Sums, differences, a product and a quotient, each at its own width.
    #[mmd(len = (*a + *a) as i64 - (*b - *b) as i64 + (*c * 2 / (*c | 1)) as i64 % 3)]
    pub arith: Vec<u8>,
    /// Widening, shifts, bits and unary minus.
    #[mmd(if = (i32::from(*d) << (*a % 40)) >> 1 != -*f && !*e & 0xff ^ 3 == 0 || *g as i64 == *h)]
    pub bits: Option<u8>,
    /// The BMP height rule, `abs`, `min` and `max` at 64 bits.
    #[mmd(len = if *h < 0 { -*h } else { *h }.min(4) + (*h).abs().max(0).min(1) * (*f as i64 % 2).abs())]
    pub helpers: Vec<u8>,
    /// Division and remainder of signed values, and a cast back to a byte.
    #[mmd(len = ((*f / i32::from(*b)) % 7 + (*d % 5) as i32 - *e as i32 / 3) as u8 % 4)]
    pub signed: Vec<u8>,
    /// Every byte after.
    #[mmd(rest)]
    pub rest: Vec<u8>,
}

/// Reads `data`: an error or a value that writes back the same bytes; never a panic.
pub fn check(data: &[u8]) {
    if let Ok(v) = decode_all::<Exprs, _>(data, &()) {
        let out = encode_all(&v, &()).expect("a value that was read writes");
        assert_eq!(out, data, "written back differently: {v:?}");
    }
}
