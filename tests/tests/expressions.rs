//! Expressions of the grammar never panic (issue 29: "a BMP whose height is `i32::MIN`,
//! read through `len = if h < 0 { -h } else { h }`, panics the reader (`attempt to negate
//! with overflow`)"). Every operator the derive rewrites (`+ - * / %`, `<< >>`, unary `-`,
//! `as`) and the ones that cannot fail (`& | ^ !`) is derived here for every integer type
//! a field can have (`u8` to `i64`; `usize` only comes from `len()`)
//! and read at the extreme values of that type: each read either succeeds with the value
//! Rust's checked arithmetic gives (the oracle: `checked_add`, `checked_shl`, `try_from`,
//! ...) or fails with an error at the field the expression reads, never a panic. The tests
//! run with overflow checks on (a debug build), where an unchecked operator would panic.
//!
//! The file denies warnings: parentheses the user needs (`(*a + *b) * 2`) must not make
//! rustc warn about `unnecessary parentheses` once the derive rewrites what is inside.
#![deny(warnings)]

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::{Decode, Encode, Mmd};
use std::fmt::Debug;

/// Reads `bytes` as `S` and checks the outcome against `want` (`None`: the expression
/// faults; `Some(hit)`: whether the optional field is there). A fault is an error at the
/// field the failing part reads first (`a` at offset 0, or `b` after it, for `*b - *a`);
/// a success writes back the same bytes.
fn check_read<S>(what: &str, bytes: &[u8], want: Option<bool>, hit: impl Fn(&S) -> bool)
where
    S: Decode<()> + Encode<()> + Debug,
{
    match (want, decode_all::<S, _>(bytes, &())) {
        (None, Err(e)) => {
            match e.path_string().as_str() {
                "a" => assert_eq!(e.offset(), 0, "{what}: {e}"),
                "b" => assert_eq!(e.offset() as usize, (bytes.len() - 1) / 2, "{what}: {e}"),
                _ => panic!("{what}: {e}"),
            }
            let m = e.to_string();
            assert!(
                m.contains("overflows") || m.contains("does not hold") || m.contains("bits"),
                "{what}: {m}"
            );
        }
        (Some(h), Ok(v)) => {
            assert_eq!(hit(&v), h, "{what}: {v:?}");
            assert_eq!(encode_all(&v, &()).unwrap(), bytes, "{what}");
        }
        (w, r) => panic!("{what}: expected {w:?}, read {r:?}"),
    }
}

/// A record `a: T, b: T`, then a byte present when `$cond` (over `a` and `b`) is 0, then
/// the rest. The fields are named by the caller, so that `$cond` (written there) sees
/// them through `macro_rules!` hygiene.
macro_rules! record {
    ($name:ident, $t:ty, $a:ident, $b:ident, $($cond:tt)*) => {
        #[derive(Mmd, Debug, Clone, PartialEq)]
        #[mmd(ctx = ())]
        pub struct $name {
            pub $a: $t,
            pub $b: $t,
            #[mmd(if = $($cond)* == 0)]
            pub hit: Option<u8>,
            #[mmd(rest)]
            pub tail: Vec<u8>,
        }
    };
}

/// Checks record `$name` at every pair of `values` against `$oracle(a, b)` (the value of
/// the expression, `None` where it faults), on the reader's and the writer's side.
/// Whether an oracle's value is its type's zero (`false` for `bool`), whatever the type.
fn is_default<T: Default + PartialEq>(v: T) -> bool {
    v == T::default()
}

macro_rules! check_all {
    ($name:ident, $t:ty, $values:expr, $oracle:expr) => {{
        let oracle = $oracle;
        for &a in &$values {
            for &b in &$values {
                let want: Option<bool> = oracle(a, b).map(is_default);
                let mut bytes = Vec::new();
                bytes.extend_from_slice(&<$t>::to_le_bytes(a));
                bytes.extend_from_slice(&<$t>::to_le_bytes(b));
                bytes.push(7);
                let what = format!("{} a={a} b={b}", stringify!($name));
                check_read::<$name>(&what, &bytes, want, |v| v.hit.is_some());
                if want.is_none() {
                    // The writer evaluates the same expression: a fault, not a panic.
                    let value = $name {
                        a,
                        b,
                        hit: None,
                        tail: vec![7],
                    };
                    let e = encode_all(&value, &()).unwrap_err();
                    assert!(
                        ["a", "b"].contains(&e.path_string().as_str()),
                        "{what} (writing): {e}"
                    );
                }
            }
        }
    }};
}

/// Every operator on integer type `$t`; `$signed` adds unary minus.
macro_rules! every_op {
    ($m:ident, $t:ty, $($signed:ident)?) => {
        mod $m {
            use super::*;
            record!(Add, $t, a, b, *a + *b);
            record!(Sub, $t, a, b, *a - *b);
            record!(Mul, $t, a, b, *a * *b);
            record!(Div, $t, a, b, *a / *b);
            record!(Rem, $t, a, b, *a % *b);
            record!(Shl, $t, a, b, *a << *b);
            record!(Shr, $t, a, b, *a >> *b);
            record!(And, $t, a, b, *a & *b);
            record!(Or, $t, a, b, *a | *b);
            record!(Xor, $t, a, b, *a ^ *b);
            record!(Not, $t, a, b, !*a);
            // User parentheses around rewritten operators (no warning: see the top).
            record!(Grouped, $t, a, b, (*a + *b) * (*b - *a) / 2);
            record!(ToU8, u8, a, b, *a as $t + *b as $t);
            record!(ToI8, i8, a, b, (*a as $t) / 1);
            record!(FromU8, $t, a, b, *a as u8);
            record!(FromI8, $t, a, b, *a as i8);
            record!(FromU64, $t, a, b, *a as u64);
            record!(FromI64, $t, a, b, *a as i64);
            $( record!(Neg, $t, a, b, -*a); const _: &str = stringify!($signed); )?

            /// The extremes of the type, the numbers around 0 and the shift widths.
            fn values() -> [$t; 10] {
                let bits = <$t>::BITS as $t;
                [
                    <$t>::MIN,
                    <$t>::MIN + 1,
                    (0 as $t).wrapping_sub(1),
                    0,
                    1,
                    2,
                    bits - 1,
                    bits,
                    <$t>::MAX - 1,
                    <$t>::MAX,
                ]
            }

            fn shift(a: $t, b: $t, left: bool) -> Option<$t> {
                let n = u32::try_from(b).ok()?;
                if left {
                    a.checked_shl(n)
                } else {
                    a.checked_shr(n)
                }
            }

            #[test]
            fn every_operator_at_the_extremes_is_a_value_or_an_error() {
                let v = values();
                check_all!(Add, $t, v, |a: $t, b: $t| a.checked_add(b));
                check_all!(Sub, $t, v, |a: $t, b: $t| a.checked_sub(b));
                check_all!(Mul, $t, v, |a: $t, b: $t| a.checked_mul(b));
                check_all!(Div, $t, v, |a: $t, b: $t| a.checked_div(b));
                check_all!(Rem, $t, v, |a: $t, b: $t| a.checked_rem(b));
                check_all!(Shl, $t, v, |a: $t, b: $t| shift(a, b, true));
                check_all!(Shr, $t, v, |a: $t, b: $t| shift(a, b, false));
                check_all!(And, $t, v, |a: $t, b: $t| Some(a & b));
                check_all!(Or, $t, v, |a: $t, b: $t| Some(a | b));
                check_all!(Xor, $t, v, |a: $t, b: $t| Some(a ^ b));
                check_all!(Not, $t, v, |a: $t, _b: $t| Some(!a));
                check_all!(Grouped, $t, v, |a: $t, b: $t| {
                    a.checked_add(b)?
                        .checked_mul(b.checked_sub(a)?)?
                        .checked_div(2)
                });
                check_all!(FromU8, $t, v, |a: $t, _b: $t| u8::try_from(a).ok());
                check_all!(FromI8, $t, v, |a: $t, _b: $t| i8::try_from(a).ok());
                check_all!(FromU64, $t, v, |a: $t, _b: $t| u64::try_from(a).ok());
                check_all!(FromI64, $t, v, |a: $t, _b: $t| i64::try_from(a).ok());
                // Widening from a byte: the sum of two bytes as `$t`.
                let bytes = [0u8, 1, 2, 127, 128, 254, 255];
                check_all!(ToU8, u8, bytes, |a: u8, b: u8| {
                    <$t>::try_from(a).ok()?.checked_add(<$t>::try_from(b).ok()?)
                });
                let bytes = [i8::MIN, -1, 0, 1, i8::MAX];
                check_all!(ToI8, i8, bytes, |a: i8, _b: i8| <$t>::try_from(a).ok());
                $(
                    const _: &str = stringify!($signed);
                    check_all!(Neg, $t, v, |a: $t, _b: $t| a.checked_neg());
                )?
            }
        }
    };
}

every_op!(u8_ops, u8,);
every_op!(u16_ops, u16,);
every_op!(u32_ops, u32,);
every_op!(u64_ops, u64,);
every_op!(i8_ops, i8, signed);
every_op!(i16_ops, i16, signed);
every_op!(i32_ops, i32, signed);
every_op!(i64_ops, i64, signed);

/// The BMP rule of issue 29: the row count is the height's absolute value (a negative
/// height means the rows are stored top-down).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Bitmap {
    /// The height; negative for top-down rows.
    h: i32,
    /// One byte per row.
    #[mmd(len = if *h < 0 { -*h } else { *h })]
    rows: Vec<u8>,
}

#[test]
fn a_height_of_i32_min_is_an_error_not_a_panic() {
    // -2 is two rows, top-down.
    let mut b = (-2i32).to_le_bytes().to_vec();
    b.extend([5, 6]);
    let v: Bitmap = decode_all(&b, &()).unwrap();
    assert_eq!(v.rows, [5, 6]);
    // i32::MIN has no positive i32: the negation is the error, at `h` (offset 0).
    let e = decode_all::<Bitmap, _>(&i32::MIN.to_le_bytes(), &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "h: -(-2147483648), which overflows at 0x0 (expected `-*h` in range)"
    );
}

/// A length and a condition whose parentheses the user needs, outside any
/// `macro_rules!` (where rustc would not lint): no `unnecessary parentheses` warning.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Grouped {
    /// Used bytes.
    used: u8,
    /// Padding bytes.
    pad: u8,
    /// Twice the used and padding bytes.
    #[mmd(len = (*used + *pad) * 2)]
    rows: Vec<u8>,
    /// Present when there are no rows.
    #[mmd(if = (*used + *pad) * 2 == 0)]
    empty: Option<u8>,
}

#[test]
fn parentheses_the_user_needs_are_kept_and_checked() {
    let v: Grouped = decode_all(&[1, 1, 9, 9, 9, 9], &()).unwrap();
    assert_eq!((v.rows.len(), v.empty), (4, None));
    let v: Grouped = decode_all(&[0, 0, 5], &()).unwrap();
    assert_eq!((v.rows.len(), v.empty), (0, Some(5)));
    // 200 + 100 overflows a u8: the error is at `used`, the sum's first place.
    let e = decode_all::<Grouped, _>(&[200, 100], &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "used: 200 + 100, which overflows at 0x0 (expected `*used + *pad` in range)"
    );
}

/// The BMP rule written with the `abs` helper and a widening `From`.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct AbsBitmap {
    /// The height; negative for top-down rows.
    h: i32,
    /// The width.
    w: u8,
    /// `|h| * w` bytes.
    #[mmd(len = h.abs() * i32::from(*w))]
    rows: Vec<u8>,
}

#[test]
fn abs_of_i32_min_is_an_error_not_a_panic() {
    let mut b = (-2i32).to_le_bytes().to_vec();
    b.extend([2, 5, 6, 7, 8]);
    let v: AbsBitmap = decode_all(&b, &()).unwrap();
    assert_eq!(v.rows, [5, 6, 7, 8]);
    let mut b = i32::MIN.to_le_bytes().to_vec();
    b.push(1);
    let e = decode_all::<AbsBitmap, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "h: the absolute value of -2147483648, which overflows at 0x0 (expected `h.abs()` in range)"
    );
}

/// The fuzz target `read_exprs`'s format (tests/fuzz/src/exprs.rs), run here on inputs
/// built from the extremes of each field, so that the stable suite checks what the
/// fuzzer checks.
#[path = "../fuzz/src/exprs.rs"]
#[allow(dead_code)]
mod fuzz_exprs;

#[test]
fn the_every_operator_format_reads_to_a_value_or_an_error() {
    // Each header field at 0, 1, -1 (all bits set), its minimum or maximum, by a
    // counter in base 4; then 16 bytes of body.
    let pick = |k: u64, min: &[u8], max: &[u8]| -> Vec<u8> {
        match k % 4 {
            0 => vec![0; min.len()],
            1 => {
                let mut v = vec![0; min.len()];
                v[0] = 1;
                v
            }
            2 => vec![0xff; min.len()],
            _ => {
                if k % 8 == 3 {
                    min.to_vec()
                } else {
                    max.to_vec()
                }
            }
        }
    };
    let (mut ok, mut err) = (0, 0);
    for n in 0..(1u64 << 16) {
        let mut k = n.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 16;
        let mut b = Vec::new();
        for (min, max) in [
            (&u8::MIN.to_le_bytes()[..], &u8::MAX.to_le_bytes()[..]),
            (&i8::MIN.to_le_bytes()[..], &i8::MAX.to_le_bytes()[..]),
            (&u16::MIN.to_le_bytes()[..], &u16::MAX.to_le_bytes()[..]),
            (&i16::MIN.to_le_bytes()[..], &i16::MAX.to_le_bytes()[..]),
            (&u32::MIN.to_le_bytes()[..], &u32::MAX.to_le_bytes()[..]),
            (&i32::MIN.to_le_bytes()[..], &i32::MAX.to_le_bytes()[..]),
            (&u64::MIN.to_le_bytes()[..], &u64::MAX.to_le_bytes()[..]),
            (&i64::MIN.to_le_bytes()[..], &i64::MAX.to_le_bytes()[..]),
        ] {
            b.extend(pick(k, min, max));
            k /= 4;
        }
        b.extend(0..16u8);
        fuzz_exprs::check(&b);
        match decode_all::<fuzz_exprs::Exprs, _>(&b, &()) {
            Ok(_) => ok += 1,
            Err(_) => err += 1,
        }
    }
    // Both outcomes occur, so the check is not trivially one of them.
    assert!(ok > 100 && err > 100, "{ok} read, {err} errors");
}

#[test]
fn casts_keep_the_value_or_fail() {
    use mmd_formats::rt::CastTo;
    // Integers: the value, or nothing (never 300 as u8 = 44).
    assert_eq!(CastTo::<u8>::cast_to(300i32), None);
    assert_eq!(CastTo::<u8>::cast_to(-1i8), None);
    assert_eq!(CastTo::<i64>::cast_to(u64::MAX), None);
    assert_eq!(CastTo::<u64>::cast_to(i64::MAX), Some(i64::MAX as u64));
    // Floats to integers: the whole part when it fits; NaN, infinities and too large
    // values fail (2^64 is one past u64::MAX).
    assert_eq!(CastTo::<u8>::cast_to(2.9f32), Some(2));
    assert_eq!(CastTo::<i8>::cast_to(-2.9f32), Some(-2));
    assert_eq!(CastTo::<u8>::cast_to(-0.5f32), Some(0));
    assert_eq!(CastTo::<u8>::cast_to(256.0f64), None);
    assert_eq!(CastTo::<i32>::cast_to(f32::NAN), None);
    assert_eq!(CastTo::<i64>::cast_to(f64::INFINITY), None);
    assert_eq!(CastTo::<u64>::cast_to(18_446_744_073_709_551_616f64), None);
    assert_eq!(
        CastTo::<u64>::cast_to(9_007_199_254_740_992f64),
        Some(9_007_199_254_740_992)
    );
    // To floats, as Rust rounds; a bool to an integer is 0 or 1.
    assert_eq!(CastTo::<f32>::cast_to(16_777_217u32), Some(16_777_216.0));
    assert_eq!(CastTo::<i8>::cast_to(true), Some(1));
    assert_eq!(CastTo::<u64>::cast_to(false), Some(0));
}
