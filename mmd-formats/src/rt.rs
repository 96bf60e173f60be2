//! Helpers that only generated code calls. Not a stable interface.

pub use crate::codec::fixed_run;
pub use crate::fixed::fixed_one;

use crate::codec::{Decode, Encode};
use crate::error::show_bytes;
use crate::error::{ContextFault, Error, ErrorKind, PathSegment, Result};
use crate::fixed::FixedOut;
use crate::io::{Input, IoInput, IoOutput, Output};
use crate::layout::Describe;
use crate::path::Segment;
use crate::seq::Seq;
use std::io::{Read, Seek, Write};

/// Reads and checks a fixed signature.
pub fn expect_magic<I: Input + ?Sized>(input: &mut I, magic: &'static [u8]) -> Result<()> {
    let at = input.position();
    // A file that ends inside the signature is cut short only if what is there matches.
    let len = usize::try_from(input.remaining()).map_or(magic.len(), |r| r.min(magic.len()));
    let mut buf = vec![0u8; len];
    input.read_into(&mut buf).map_err(|e| e.in_field("magic"))?;
    if len < magic.len() && buf == magic[..len] {
        return Err(Error::truncated(at, magic.len() as u64, at + len as u64).in_field("magic"));
    }
    if buf != magic {
        return Err(Error::invalid(
            at,
            format!("magic {}", show_bytes(magic)),
            format!("magic {}", show_bytes(&buf)),
        )
        .in_field("magic"));
    }
    Ok(())
}

/// Writes a fixed signature.
pub fn write_magic<O: Output + ?Sized>(out: &mut O, magic: &'static [u8]) -> Result<()> {
    out.enter(Segment::Field("magic"));
    out.write_bytes(magic)?;
    out.leave();
    Ok(())
}

/// Why an expression of the grammar (a condition, a length, a selector, a context
/// argument or member) could not be evaluated: an element that is not there, or
/// arithmetic that overflows. Never a panic.
#[derive(Debug)]
pub struct ExprFault {
    /// The name the failing part starts from (a field, a parameter, `ctx`).
    pub root: &'static str,
    /// The place below it (the sequence whose element is missing).
    pub place: &'static [Segment],
    /// What the expression needs.
    pub expected: String,
    /// What it found.
    pub found: String,
}

impl ExprFault {
    /// The fault as a read or write error at `at`, with the path of the place.
    #[cold]
    pub fn error_at(self, at: u64) -> Error {
        let mut e = Error::invalid(at, self.expected, self.found);
        for seg in self.place.iter().rev() {
            e = e.in_segment(*seg);
        }
        e.in_field(self.root)
    }

    /// The fault as a context fault of `member`, whose parameters are `params`.
    #[cold]
    pub fn in_context(self, member: &'static str, params: &[&str]) -> ContextFault {
        let param = params.iter().position(|p| *p == self.root).unwrap_or(0);
        let expected = format!("{} for the {member}", self.expected);
        ContextFault::invalid(member, param, self.place, expected, self.found)
    }
}

/// Element `index` of a sequence an expression reads (`settings[1]`): a missing element
/// is a fault, never a panic.
#[inline]
pub fn at<'a, T>(
    items: &'a [T],
    index: usize,
    root: &'static str,
    place: &'static [Segment],
) -> std::result::Result<&'a T, ExprFault> {
    items.get(index).ok_or_else(|| ExprFault {
        root,
        place,
        expected: format!(
            "at least {} element{}",
            index.saturating_add(1),
            if index == 0 { "" } else { "s" }
        ),
        found: format!(
            "{} element{}",
            items.len(),
            if items.len() == 1 { "" } else { "s" }
        ),
    })
}

/// Numbers an expression may compute with: integers check for overflow (and division by
/// zero), floats compute as they do.
pub trait Arith: Copy + std::fmt::Display {
    /// `self OP other`, or `None` where an integer would overflow.
    fn apply(self, op: char, other: Self) -> Option<Self>;
}

macro_rules! arith_int {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline]
            fn apply(self, op: char, other: Self) -> Option<Self> {
                match op {
                    '+' => self.checked_add(other),
                    '-' => self.checked_sub(other),
                    '*' => self.checked_mul(other),
                    '/' => self.checked_div(other),
                    _ => self.checked_rem(other),
                }
            }
        }
    )*};
}
arith_int!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

macro_rules! arith_float {
    ($($t:ty),*) => {$(
        impl Arith for $t {
            #[inline]
            fn apply(self, op: char, other: Self) -> Option<Self> {
                Some(match op {
                    '+' => self + other,
                    '-' => self - other,
                    '*' => self * other,
                    '/' => self / other,
                    _ => self % other,
                })
            }
        }
    )*};
}
arith_float!(f32, f64);

/// `a OP b` of an expression (`text` as written): overflow is a fault, never a panic.
#[inline]
pub fn arith<T: Arith>(
    a: T,
    op: char,
    b: T,
    text: &'static str,
    root: &'static str,
    place: &'static [Segment],
) -> std::result::Result<T, ExprFault> {
    a.apply(op, b).ok_or_else(|| ExprFault {
        root,
        place,
        expected: format!("`{text}` in range"),
        found: format!("{a} {op} {b}, which overflows"),
    })
}

/// Numbers an expression may negate (`-x`): the signed integers, checked for overflow
/// (`-i32::MIN` has no `i32`), and the floats.
#[diagnostic::on_unimplemented(
    message = "`-` of `{Self}`: only signed integers and floats have a negative",
    label = "negated here",
    note = "an unsigned value negated has no value of its type; cast it to a signed type first (`-(*x as i64)`)"
)]
pub trait ArithNeg: Copy + std::fmt::Display {
    /// `-self`, or `None` where an integer would overflow.
    fn neg_checked(self) -> Option<Self>;
}

macro_rules! neg_int {
    ($($t:ty),*) => {$(
        impl ArithNeg for $t {
            #[inline]
            fn neg_checked(self) -> Option<Self> {
                self.checked_neg()
            }
        }
    )*};
}
neg_int!(i8, i16, i32, i64, isize);

impl ArithNeg for f32 {
    #[inline]
    fn neg_checked(self) -> Option<Self> {
        Some(-self)
    }
}

impl ArithNeg for f64 {
    #[inline]
    fn neg_checked(self) -> Option<Self> {
        Some(-self)
    }
}

/// `-a` of an expression (`text` as written): overflow is a fault, never a panic.
#[inline]
pub fn neg<T: ArithNeg>(
    a: T,
    text: &'static str,
    root: &'static str,
    place: &'static [Segment],
) -> std::result::Result<T, ExprFault> {
    a.neg_checked().ok_or_else(|| ExprFault {
        root,
        place,
        expected: format!("`{text}` in range"),
        found: format!("-({a}), which overflows"),
    })
}

/// The receiver of a method an expression calls (`h.abs()`): a number, or a reference
/// to one (a field is a reference), as Rust's method call takes either.
pub trait Receiver: Copy {
    /// The number.
    type Value;
    /// The number itself.
    fn value(self) -> Self::Value;
}

macro_rules! receiver {
    ($($t:ty),*) => {$(
        impl Receiver for $t {
            type Value = $t;
            #[inline(always)]
            fn value(self) -> $t {
                self
            }
        }
        impl Receiver for &$t {
            type Value = $t;
            #[inline(always)]
            fn value(self) -> $t {
                *self
            }
        }
    )*};
}
receiver!(i8, i16, i32, i64, isize, f32, f64);

/// `a.abs()` of an expression (`text` as written): `i32::MIN.abs()` is a fault, never a
/// panic.
#[inline]
pub fn abs<R>(
    a: R,
    text: &'static str,
    root: &'static str,
    place: &'static [Segment],
) -> std::result::Result<R::Value, ExprFault>
where
    R: Receiver,
    R::Value: ArithNeg + PartialOrd + Default,
{
    let a = a.value();
    if a < R::Value::default() {
        a.neg_checked().ok_or_else(|| ExprFault {
            root,
            place,
            expected: format!("`{text}` in range"),
            found: format!("the absolute value of {a}, which overflows"),
        })
    } else {
        Ok(a)
    }
}

/// Integers an expression may shift (`a << b`, `a >> b`) by an integer amount: an amount
/// that is negative or not below the width in bits is a fault, as Rust would panic.
#[diagnostic::on_unimplemented(
    message = "`{Self}` shifted by `{B}`: expressions shift integers by integers",
    label = "shifted here"
)]
pub trait Shift<B>: Copy + std::fmt::Display {
    /// `self << by` (`op` `'<'`) or `self >> by` (`'>'`), or `None` for a bad amount.
    fn shift(self, op: char, by: B) -> Option<Self>;
}

macro_rules! shift_int {
    ($($a:ty),*) => {$( shift_int!(@by $a; u8, u16, u32, u64, usize, i8, i16, i32, i64, isize); )*};
    (@by $a:ty; $($b:ty),*) => {$(
        impl Shift<$b> for $a {
            #[inline]
            fn shift(self, op: char, by: $b) -> Option<Self> {
                let n = u32::try_from(by).ok()?;
                if op == '<' {
                    self.checked_shl(n)
                } else {
                    self.checked_shr(n)
                }
            }
        }
    )*};
}
shift_int!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

/// `a << b` or `a >> b` of an expression (`text` as written, `op` its first character):
/// a shift by a negative amount, or by the width of `a` or more, is a fault.
#[inline]
pub fn shift<A: Shift<B>, B: Copy + std::fmt::Display>(
    a: A,
    op: char,
    b: B,
    text: &'static str,
    root: &'static str,
    place: &'static [Segment],
) -> std::result::Result<A, ExprFault> {
    a.shift(op, b).ok_or_else(|| ExprFault {
        root,
        place,
        expected: format!("`{text}` shifted by 0 to {} bits", 8 * size_of::<A>() - 1),
        found: format!("{a} {op}{op} {b}"),
    })
}

/// The casts an expression may make (`x as u16`): between integers only when the value
/// is kept (`300 as u8` is a fault, not 44); an integer to a float as Rust rounds it; a
/// float to an integer when it is finite and its whole part fits; a `bool` to an integer
/// as 0 or 1.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cast to `{T}`: expressions cast between numbers (and `bool` to integers)",
    label = "cast here"
)]
pub trait CastTo<T>: Copy + std::fmt::Display {
    /// The value as a `T`, or `None` where it does not fit.
    fn cast_to(self) -> Option<T>;
}

macro_rules! cast_from_int {
    ($($s:ty),*) => {$( cast_from_int!(@to $s; u8, u16, u32, u64, usize, i8, i16, i32, i64, isize); )*};
    (@to $s:ty; $($t:ty),*) => {$(
        impl CastTo<$t> for $s {
            #[inline]
            fn cast_to(self) -> Option<$t> {
                <$t>::try_from(self).ok()
            }
        }
    )*};
}
cast_from_int!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

macro_rules! cast_from_float {
    ($($s:ty),*) => {$( cast_from_float!(@to $s; u8, u16, u32, u64, usize, i8, i16, i32, i64, isize); )*};
    (@to $s:ty; $($t:ty),*) => {$(
        impl CastTo<$t> for $s {
            #[inline]
            fn cast_to(self) -> Option<$t> {
                if !self.is_finite() {
                    return None;
                }
                // Through i128, which holds every whole part that fits a 64-bit type
                // exactly and saturates beyond (where no target fits either).
                <$t>::try_from(self.trunc() as i128).ok()
            }
        }
    )*};
}
cast_from_float!(f32, f64);

// Any number to a float: as Rust rounds it.
macro_rules! cast_to_float {
    ($($s:ty),*) => {$(
        impl CastTo<f32> for $s {
            #[inline]
            fn cast_to(self) -> Option<f32> {
                Some(self as f32)
            }
        }
        impl CastTo<f64> for $s {
            #[inline]
            fn cast_to(self) -> Option<f64> {
                Some(self as f64)
            }
        }
    )*};
}
cast_to_float!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

macro_rules! cast_from_bool {
    ($($t:ty),*) => {$(
        impl CastTo<$t> for bool {
            #[inline]
            fn cast_to(self) -> Option<$t> {
                Some(<$t>::from(u8::from(self)))
            }
        }
    )*};
}
cast_from_bool!(u8, u16, u32, u64, usize, i16, i32, i64, isize);

impl CastTo<i8> for bool {
    #[inline]
    fn cast_to(self) -> Option<i8> {
        Some(i8::from(self))
    }
}

/// `a as T` of an expression (`text` as written, `ty` the target's name): a value the
/// target type does not hold is a fault, never a silent wrap.
#[inline]
pub fn cast<S: CastTo<T>, T>(
    a: S,
    ty: &'static str,
    text: &'static str,
    root: &'static str,
    place: &'static [Segment],
) -> std::result::Result<T, ExprFault> {
    a.cast_to().ok_or_else(|| ExprFault {
        root,
        place,
        expected: format!("`{text}` in range of {ty}"),
        found: format!("{a}, which {ty} does not hold"),
    })
}

/// "bone index width 3": what a fault found.
#[cold]
pub fn member_found<T: std::fmt::Display>(label: &str, value: &T) -> String {
    format!("{label} {value}")
}

/// The conversion from a member expression's value to the member's type: the value
/// itself, or a byte to the [`TextEncoding`](crate::kinds::TextEncoding) it declares.
pub trait FromMember<S> {
    /// Converts.
    fn from_member(s: S) -> Self;
}

impl<T> FromMember<T> for T {
    #[inline(always)]
    fn from_member(s: T) -> T {
        s
    }
}

impl FromMember<u8> for crate::kinds::TextEncoding {
    #[inline]
    fn from_member(s: u8) -> Self {
        crate::kinds::TextEncoding::from_byte(s)
    }
}

/// Where the value at `path` starts inside `value` written with `ctx`, if it can be
/// found (the spans of `value` locate it).
#[cold]
pub fn offset_in<T: Encode<C> + ?Sized, C: ?Sized>(
    value: &T,
    ctx: &C,
    path: &[PathSegment],
) -> Option<u64> {
    offset_in_with(path, |out| value.encode(out, ctx))
}

/// Where the value at `path` starts inside what `write` writes (a field that is not one
/// value: a sequence with its count, an optional value), if it can be found.
#[cold]
pub fn offset_in_with(
    path: &[PathSegment],
    write: impl FnOnce(&mut dyn Output) -> Result<()>,
) -> Option<u64> {
    let target = path;
    let mut loc = Locator {
        target,
        stack: Vec::new(),
        pos: 0,
        found: None,
        // An element of a byte run at the top starts the data at 0, unless a count
        // precedes it (see `leave`).
        parent_data: (target.len() == 1).then_some(0),
    };
    write(&mut loc).ok()?;
    loc.found.or_else(|| {
        // An element of a byte run, which is written as one piece: the run's data (after
        // its count, if it has one) plus the index.
        let (Segment::Index(i), _) = target.split_last()? else {
            return None;
        };
        loc.parent_data?.checked_add(*i as u64)
    })
}

/// An [`Output`] that counts bytes and notes where the value at one path starts.
struct Locator<'p> {
    target: &'p [Segment],
    stack: Vec<Segment>,
    pos: u64,
    found: Option<u64>,
    /// Where the data of the target's parent starts (after its count, if any).
    parent_data: Option<u64>,
}

impl Locator<'_> {
    fn parent(&self) -> &[Segment] {
        &self.target[..self.target.len().saturating_sub(1)]
    }
}

impl Output for Locator<'_> {
    fn position(&self) -> u64 {
        self.pos
    }
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.pos += bytes.len() as u64;
        Ok(())
    }
    fn enter(&mut self, seg: Segment) {
        self.stack.push(seg);
        if self.found.is_none() && self.stack == self.target {
            self.found = Some(self.pos);
        }
        if self.parent_data.is_none() && self.stack == self.parent() {
            self.parent_data = Some(self.pos);
        }
    }
    fn leave(&mut self) {
        // The parent's count ends where its data starts.
        if let Some((Segment::Count, above)) = self.stack.split_last() {
            if above == self.parent() {
                self.parent_data = Some(self.pos);
            }
        }
        self.stack.pop();
    }
    fn records_spans(&self) -> bool {
        true
    }
}

/// Where the value at a path below a field starts, relative to the field (see
/// [`offset_in`]).
pub type Locate<'a> = dyn Fn(&[PathSegment]) -> Option<u64> + 'a;

/// The error for a context fault: the field `field` (which starts at `field_start`) holds
/// the context parameter at `arg_path` below it, and the fault's place is below that. The
/// offset is where that place starts, found by `locate` (given the path below the field)
/// when it can be; else the field's start. Without a field, the path starts below it
/// (the parameter is the value the caller holds).
#[cold]
#[inline(never)]
pub fn context_error(
    fault: ContextFault,
    field: Option<&'static str>,
    arg_path: &'static [PathSegment],
    field_start: u64,
    locate: Option<&Locate<'_>>,
) -> Error {
    let below: Vec<PathSegment> = arg_path.iter().chain(fault.place()).cloned().collect();
    let offset = locate
        .and_then(|l| l(&below))
        .map_or(field_start, |o| field_start + o);
    let mut e = Error::invalid(offset, fault.expected(), fault.found());
    for seg in below.iter().rev() {
        e = e.in_segment(*seg);
    }
    match field {
        Some(f) => e.in_field(f),
        None => e,
    }
}

/// The integer types a count may have on disk.
pub trait CountInt: Sized + Copy {
    /// The type name, for messages.
    const NAME: &'static str;
    /// The size in bytes.
    const SIZE: u64;
    /// Reads the count; a negative count is an error.
    fn read_count<I: Input + ?Sized>(input: &mut I) -> Result<u64>;
    /// Writes `len` as a count, failing if it does not fit.
    fn write_count<O: Output + ?Sized>(len: usize, out: &mut O) -> Result<()>;
    /// Writes `len` as a count on the fixed path (`None` if it does not fit the type or
    /// the buffer).
    fn put_count(len: usize, out: &mut FixedOut<'_>) -> Option<()>;
    /// Reads the count in the byte order `big` says (`#[mmd(endian = ...)]`).
    fn read_count_in<I: Input + ?Sized>(input: &mut I, big: bool) -> Result<u64>;
    /// Writes `len` as a count in the byte order `big` says.
    fn write_count_in<O: Output + ?Sized>(len: usize, out: &mut O, big: bool) -> Result<()>;
}

macro_rules! count_int {
    ($($t:ty),*) => {$(
        impl CountInt for $t {
            const NAME: &'static str = stringify!($t);
            const SIZE: u64 = core::mem::size_of::<$t>() as u64;
            #[inline]
            fn read_count<I: Input + ?Sized>(input: &mut I) -> Result<u64> {
                let at = input.position();
                let v = <$t>::from_le_bytes(input.read_array()?);
                u64::try_from(v).map_err(|_| {
                    Error::invalid(at, "a count of 0 or more", format!("count {v}"))
                })
            }
            #[inline(always)]
            fn put_count(len: usize, out: &mut FixedOut<'_>) -> Option<()> {
                out.put(<$t>::try_from(len).ok()?.to_le_bytes())
            }
            #[inline]
            fn write_count<O: Output + ?Sized>(len: usize, out: &mut O) -> Result<()> {
                <$t as CountInt>::write_count_in(len, out, false)
            }
            #[inline]
            fn read_count_in<I: Input + ?Sized>(input: &mut I, big: bool) -> Result<u64> {
                let at = input.position();
                let v = <$t as Ordered>::read_ordered(input, big)?;
                u64::try_from(v).map_err(|_| {
                    Error::invalid(at, "a count of 0 or more", format!("count {v}"))
                })
            }
            #[inline]
            fn write_count_in<O: Output + ?Sized>(len: usize, out: &mut O, big: bool) -> Result<()> {
                match <$t>::try_from(len) {
                    Ok(v) => <$t as Ordered>::write_ordered(&v, out, big),
                    Err(_) => Err(Error::inconsistent(
                        out.position(),
                        format!("a count that fits {}", stringify!($t)),
                        format!("{len} elements"),
                    )),
                }
            }
        }
    )*};
}
mmd_derive::__for_each_count_type!(count_int);

/// Numbers (and arrays of them) read and written in a byte order chosen per field
/// (`#[mmd(endian = big)]`, or `if cond { big } else { little }`): `big` true for most
/// significant byte first. The ordinary [`Decode`]/[`Encode`] impls of numbers are the
/// little-endian ones; the derive calls these only for a field whose order it is told.
pub trait Ordered: Sized {
    /// Reads one value, most significant byte first when `big`.
    fn read_ordered<I: Input + ?Sized>(input: &mut I, big: bool) -> Result<Self>;
    /// Writes the value, most significant byte first when `big`.
    fn write_ordered<O: Output + ?Sized>(&self, out: &mut O, big: bool) -> Result<()>;
}

macro_rules! ordered {
    ($($t:ty),*) => {$(
        impl Ordered for $t {
            #[inline]
            fn read_ordered<I: Input + ?Sized>(input: &mut I, big: bool) -> Result<Self> {
                let b = input.read_array()?;
                Ok(if big { <$t>::from_be_bytes(b) } else { <$t>::from_le_bytes(b) })
            }
            #[inline]
            fn write_ordered<O: Output + ?Sized>(&self, out: &mut O, big: bool) -> Result<()> {
                out.write_bytes(&if big { self.to_be_bytes() } else { self.to_le_bytes() })
            }
        }
    )*};
}
ordered!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl<T: Ordered, const N: usize> Ordered for [T; N] {
    fn read_ordered<I: Input + ?Sized>(input: &mut I, big: bool) -> Result<Self> {
        let mut items = Vec::with_capacity(N);
        for i in 0..N {
            items.push(T::read_ordered(input, big).map_err(|e| e.in_index(i))?);
        }
        match items.try_into() {
            Ok(arr) => Ok(arr),
            Err(_) => unreachable!("exactly N values were read"),
        }
    }
    fn write_ordered<O: Output + ?Sized>(&self, out: &mut O, big: bool) -> Result<()> {
        write_each(self, out, |v, out| v.write_ordered(out, big))
    }
}

/// Reads a count of type `N` in the byte order `big` says, then that many values in it.
pub fn read_counted_ordered<N, T, I>(input: &mut I, big: bool) -> Result<Vec<T>>
where
    N: CountInt,
    T: Ordered + Describe,
    I: Input + ?Sized,
{
    let at = input.position();
    let n = N::read_count_in(input, big)?;
    read_n_ordered(input, at, n, big)
}

/// Reads `len` values (a length given by an expression) in the byte order `big` says.
pub fn read_len_ordered<T, I, L>(input: &mut I, len: L, big: bool) -> Result<Vec<T>>
where
    T: Ordered + Describe,
    I: Input + ?Sized,
    L: ToLen,
{
    let at = input.position();
    let n = len_of(len, at)?;
    read_n_ordered(input, at, n, big)
}

/// Reads `n` values in the byte order `big` says, after checking that they fit.
fn read_n_ordered<T, I>(input: &mut I, at: u64, n: u64, big: bool) -> Result<Vec<T>>
where
    T: Ordered + Describe,
    I: Input + ?Sized,
{
    if let Err(err) = check_count(input, at, n, T::MIN_SIZE) {
        // Cut short rather than corrupt: name the value that runs past the end (each
        // value takes at least one byte, so this ends within the input's length).
        for i in 0..n {
            if let Err(e) = T::read_ordered(input, big) {
                return Err(match e.cut_point() {
                    Some((below, end)) => {
                        let mut path =
                            vec![PathSegment::Index(usize::try_from(i).unwrap_or(usize::MAX))];
                        path.extend(below);
                        err.cut_at(path, end)
                    }
                    None => err,
                });
            }
        }
        return Err(err);
    }
    // A stream's end is a claim a read may still contradict: reserve in full only what
    // is in memory.
    let reserve = if input.holds_all() { n } else { n.min(4096) };
    let mut items = Vec::with_capacity(reserve as usize);
    for i in 0..n as usize {
        items.push(T::read_ordered(input, big).map_err(|e| e.in_index(i))?);
    }
    Ok(items)
}

/// Reads a count of type `N` in the byte order `big` says, then that many records (which
/// keep their own byte order).
#[inline]
pub fn read_counted_in<N, T, C, I, S>(input: &mut I, ctx: &C, big: bool) -> Result<S>
where
    N: CountInt,
    T: Decode<C> + Describe,
    C: ?Sized,
    I: Input + ?Sized,
    S: Seq<T>,
{
    let at = input.position();
    let n = N::read_count_in(input, big)?;
    read_n(input, ctx, at, n)
}

/// Writes a count of type `N` in the byte order `big` says, then the records.
#[inline]
pub fn write_counted_in<N, T, C, O, S>(items: &S, out: &mut O, ctx: &C, big: bool) -> Result<()>
where
    N: CountInt,
    T: Encode<C>,
    C: ?Sized,
    O: Output + ?Sized,
    S: Seq<T> + ?Sized,
{
    write_count_ordered::<N, O>(items.len(), out, big)?;
    items.encode_all(out, ctx)
}

/// Writes a count of type `N` for `len` values in the byte order `big` says.
pub fn write_count_ordered<N: CountInt, O: Output + ?Sized>(
    len: usize,
    out: &mut O,
    big: bool,
) -> Result<()> {
    out.enter(Segment::Count);
    let r = N::write_count_in(len, out, big);
    out.leave();
    r
}

/// Fails unless `count` records of at least `min` bytes each fit in the remaining input.
#[inline]
pub fn check_count<I: Input + ?Sized>(input: &I, at: u64, count: u64, min: u64) -> Result<()> {
    let remaining = input.remaining();
    if count.saturating_mul(min.max(1)) > remaining {
        return Err(Error::new(
            at,
            ErrorKind::CountTooLarge {
                count,
                min_record_size: min.max(1),
                remaining,
            },
        ));
    }
    Ok(())
}

/// Tells a count that runs past the end of the input because the file was cut short from
/// one that is corrupt: reads the records that are there, one at a time and keeping none
/// (so memory stays that of one record), until one fails. If it fails because the input
/// ended, `err` becomes a truncation that names where; otherwise `err` is returned as it is.
/// Each record read consumes at least one byte, so this ends within the input's length.
#[cold]
#[inline(never)]
fn short_count_cause<T, C, I>(input: &mut I, ctx: &C, n: u64, err: Error) -> Error
where
    T: Decode<C>,
    C: ?Sized,
    I: Input + ?Sized,
{
    for i in 0..n {
        let before = input.position();
        match T::decode(input, ctx) {
            Ok(_) if input.position() > before => {}
            // A record of no bytes would let this loop run `n` times: give up instead.
            Ok(_) => return err,
            Err(e) => {
                return match e.cut_point() {
                    Some((below, end)) => {
                        let mut path = Vec::with_capacity(below.len() + 1);
                        path.push(crate::error::PathSegment::Index(
                            usize::try_from(i).unwrap_or(usize::MAX),
                        ));
                        path.extend(below);
                        err.cut_at(path, end)
                    }
                    None => err,
                };
            }
        }
    }
    err
}

/// Reads `n` records after checking them against the remaining bytes, into the field's
/// container (`Vec<T>`, or another [`Seq`]).
#[inline]
pub fn read_n<T, C, I, S>(input: &mut I, ctx: &C, at: u64, n: u64) -> Result<S>
where
    T: Decode<C> + Describe,
    C: ?Sized,
    I: Input + ?Sized,
    S: Seq<T>,
{
    if let Err(e) = check_count(input, at, n, T::MIN_SIZE) {
        return Err(short_count_cause::<T, C, I>(input, ctx, n, e));
    }
    S::decode_n(input, ctx, n as usize)
}

/// Reads a count of type `N`, then that many records.
#[inline]
pub fn read_counted<N, T, C, I, S>(input: &mut I, ctx: &C) -> Result<S>
where
    N: CountInt,
    T: Decode<C> + Describe,
    C: ?Sized,
    I: Input + ?Sized,
    S: Seq<T>,
{
    let at = input.position();
    let n = N::read_count(input)?;
    read_n(input, ctx, at, n)
}

/// Writes a count of type `N`, then the records.
#[inline]
pub fn write_counted<N, T, C, O, S>(items: &S, out: &mut O, ctx: &C) -> Result<()>
where
    N: CountInt,
    T: Encode<C>,
    C: ?Sized,
    O: Output + ?Sized,
    S: Seq<T> + ?Sized,
{
    out.enter(Segment::Count);
    N::write_count(items.len(), out)?;
    out.leave();
    items.encode_all(out, ctx)
}

/// Values a `len = ...` expression may produce.
pub trait ToLen {
    /// The length, or a description of why it is not one.
    fn to_len(&self) -> std::result::Result<u64, String>;
}

macro_rules! to_len {
    ($($t:ty),*) => {$(
        impl ToLen for $t {
            fn to_len(&self) -> std::result::Result<u64, String> {
                u64::try_from(*self).map_err(|_| format!("length {}", self))
            }
        }
    )*};
}
to_len!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

impl<T: ToLen + ?Sized> ToLen for &T {
    fn to_len(&self) -> std::result::Result<u64, String> {
        (**self).to_len()
    }
}

/// The value of a length expression on the fixed path (`None` when it is not a length:
/// the ordinary writer reports it).
#[inline(always)]
pub fn fixed_len<L: ToLen>(len: L) -> Option<usize> {
    usize::try_from(len.to_len().ok()?).ok()
}

/// Evaluates a length expression at `at`.
pub fn len_of<L: ToLen>(len: L, at: u64) -> Result<u64> {
    len.to_len()
        .map_err(|found| Error::invalid(at, "a length of 0 or more", found))
}

/// Reads `len` records (a length given by an expression).
#[inline]
pub fn read_len<T, C, I, L, S>(input: &mut I, ctx: &C, len: L) -> Result<S>
where
    T: Decode<C> + Describe,
    C: ?Sized,
    I: Input + ?Sized,
    L: ToLen,
    S: Seq<T>,
{
    let at = input.position();
    let n = len_of(len, at)?;
    read_n(input, ctx, at, n)
}

/// Writes a count of type `N` for `len` values.
pub fn write_count<N: CountInt, O: Output + ?Sized>(len: usize, out: &mut O) -> Result<()> {
    out.enter(Segment::Count);
    let r = N::write_count(len, out);
    out.leave();
    r
}

/// Checks that a list written with values of a declared size has the number of values
/// its length expression gives.
pub fn check_len<L: ToLen>(len: usize, at: u64, want: L, expr: &str) -> Result<()> {
    let want = len_of(want, at)?;
    if len as u64 != want {
        return Err(Error::inconsistent(
            at,
            format!("{want} elements (`{expr}`)"),
            format!("{len} elements"),
        ));
    }
    Ok(())
}

/// Writes records whose number an expression fixes, checking that it matches.
#[inline]
pub fn write_len<T, C, O, L, S>(items: &S, out: &mut O, ctx: &C, len: L, expr: &str) -> Result<()>
where
    T: Encode<C>,
    C: ?Sized,
    O: Output + ?Sized,
    L: ToLen,
    S: Seq<T> + ?Sized,
{
    let want = len_of(len, out.position())?;
    if items.len() as u64 != want {
        return Err(Error::inconsistent(
            out.position(),
            format!("{want} elements (`{expr}`)"),
            format!("{} elements", items.len()),
        ));
    }
    items.encode_all(out, ctx)
}

/// Reads values up to the end of the input (or of the region a `size` bounds): each
/// value must take at least one byte, or the list would never end.
pub fn read_to_end<T, I: Input + ?Sized>(
    input: &mut I,
    mut read: impl FnMut(&mut I) -> Result<T>,
) -> Result<Vec<T>> {
    let mut items = Vec::new();
    while !input.at_end() {
        let at = input.position();
        let item = read(input).map_err(|e| e.in_index(items.len()))?;
        if input.position() == at {
            return Err(
                Error::invalid(at, "a value of at least one byte", "a value of no bytes")
                    .in_index(items.len()),
            );
        }
        items.push(item);
    }
    Ok(items)
}

/// Reads values until `stop` holds of the one just read (given where it started), which
/// is kept as the last. The input ending first is an error at the value that could not
/// be read.
pub fn read_until<T, I: Input + ?Sized>(
    input: &mut I,
    mut read: impl FnMut(&mut I) -> Result<T>,
    mut stop: impl FnMut(&T, u64) -> Result<bool>,
) -> Result<Vec<T>> {
    let mut items = Vec::new();
    loop {
        let at = input.position();
        let i = items.len();
        let item = read(input).map_err(|e| e.in_index(i))?;
        let done = stop(&item, at).map_err(|e| e.in_index(i))?;
        if !done && input.position() == at {
            return Err(
                Error::invalid(at, "a value of at least one byte", "a value of no bytes")
                    .in_index(i),
            );
        }
        items.push(item);
        if done {
            return Ok(items);
        }
    }
}

/// Checks, before an `until` list is written, that its last value is the first for which
/// `stop` holds (given each value's index), so that it reads back as the same list.
pub fn check_until<T>(
    items: &[T],
    at: u64,
    cond: &str,
    mut stop: impl FnMut(&T) -> Result<bool>,
) -> Result<()> {
    if items.is_empty() {
        return Err(Error::inconsistent(
            at,
            format!("at least the element for which `{cond}` holds, which ends the list"),
            "no elements",
        ));
    }
    let last = items.len() - 1;
    for (i, item) in items.iter().enumerate() {
        let done = stop(item).map_err(|e| e.in_index(i))?;
        if done != (i == last) {
            let (want, found) = if done {
                (
                    format!("an element for which `{cond}` does not hold (it ends the list)"),
                    format!("one that ends it, with {} more after it", last - i),
                )
            } else {
                (
                    format!("the last element to be one for which `{cond}` holds"),
                    "one for which it does not".to_string(),
                )
            };
            return Err(Error::inconsistent(at, want, found).in_index(i));
        }
    }
    Ok(())
}

/// Reads one value from exactly `size` bytes: the input is bounded to them while `read`
/// runs, and the value must account for every one of them.
pub fn read_sized<T, I: Input + ?Sized, L: ToLen>(
    input: &mut I,
    size: L,
    expr: &str,
    read: impl FnOnce(&mut I) -> Result<T>,
) -> Result<T> {
    let at = input.position();
    let n = len_of(size, at)?;
    if n > input.remaining() {
        return Err(Error::truncated(at, n, input.end()));
    }
    let end = at + n;
    let old = input.set_end(end)?;
    let value = read(input);
    let left = input.remaining();
    input.set_end(old)?;
    let value = value.map_err(|e| e.past_region(end, expr))?;
    if left != 0 {
        return Err(Error::inconsistent(
            input.position(),
            format!(
                "a value that takes all {n} bytes of its size (`{expr}`); a type that keeps \
                 bytes it does not read ends with a `rest` field"
            ),
            format!("one that ends {left} bytes before"),
        ));
    }
    Ok(value)
}

/// Writes one value that must take exactly `size` bytes.
pub fn write_sized<O: Output + ?Sized, L: ToLen>(
    out: &mut O,
    size: L,
    expr: &str,
    write: impl FnOnce(&mut O) -> Result<()>,
) -> Result<()> {
    let at = out.position();
    let n = len_of(size, at)?;
    write(out)?;
    let wrote = out.position() - at;
    if wrote != n {
        return Err(Error::inconsistent(
            at,
            format!("a value of {n} bytes (`{expr}`)"),
            format!("one of {wrote} bytes"),
        ));
    }
    Ok(())
}

/// Writes a list element by element, each between `enter(Index(i))` and `leave`.
pub fn write_each<T, O: Output + ?Sized>(
    items: &[T],
    out: &mut O,
    mut write: impl FnMut(&T, &mut O) -> Result<()>,
) -> Result<()> {
    for (i, item) in items.iter().enumerate() {
        out.enter(Segment::Index(i));
        let r = write(item, out).map_err(|e| e.in_index(i));
        out.leave();
        r?;
    }
    Ok(())
}

/// Reads `len` values one by one with `read` (for values of a declared size), after
/// checking that `len` values of at least one byte fit.
pub fn read_len_with<T, I: Input + ?Sized, L: ToLen>(
    input: &mut I,
    len: L,
    mut read: impl FnMut(&mut I) -> Result<T>,
) -> Result<Vec<T>> {
    let at = input.position();
    let n = len_of(len, at)?;
    check_count(input, at, n, 1)?;
    let mut items = Vec::with_capacity(n.min(4096) as usize);
    for i in 0..n as usize {
        items.push(read(input).map_err(|e| e.in_index(i))?);
    }
    Ok(items)
}

/// Reads every remaining byte.
pub fn read_rest<I: Input + ?Sized>(input: &mut I) -> Result<Vec<u8>> {
    let n = input.remaining();
    input.read_vec(n)
}

/// The error for an `Option` field whose presence disagrees with its condition.
pub fn presence_mismatch(at: u64, cond: &str, present: bool) -> Error {
    if present {
        Error::inconsistent(
            at,
            format!("None, because `{cond}` does not hold"),
            "Some(..)",
        )
    } else {
        Error::inconsistent(at, format!("Some(..), because `{cond}` holds"), "None")
    }
}

/// The error for a value written after a field that was absent at end of file.
pub fn after_absent(at: u64, absent: &str) -> Error {
    Error::inconsistent(
        at,
        format!("nothing after `{absent}`, which is absent (the file ends there)"),
        "a value present after it",
    )
}

/// The error for an end-of-file field that is present but writes no bytes.
pub fn empty_at_eof(at: u64) -> Error {
    Error::inconsistent(
        at,
        "at least one byte for a present `unless_eof` field (no bytes read back as absent)",
        "a value that writes nothing",
    )
}

/// A FourCC tag (`#[mmd(tag = u32, tag_form = fourcc)]`) as messages show it: its text
/// in double quotes, as [`crate::layout::fourcc_text`] writes it (`"fmt "`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FourCc(pub u32);

impl std::fmt::Display for FourCc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::layout::fourcc_text(self.0))
    }
}

/// The error for a tag (or selector) no variant has.
pub fn unknown_tag<T: std::fmt::Display>(at: u64, name: &str, found: T, expected: &str) -> Error {
    Error::invalid(at, expected, format!("unknown {name} {found}"))
}

/// The error for a default variant (`#[mmd(default)]`) that holds a tag another variant
/// lists: written, it would read back as that variant.
pub fn default_holds_listed<T: std::fmt::Display>(
    at: u64,
    name: &str,
    found: T,
    listed: &str,
    default: &str,
) -> Error {
    Error::inconsistent(
        at,
        format!(
            "a {name} no other variant lists (the default variant `{default}` keeps only those)"
        ),
        format!("{name} {found}, which is variant `{listed}`'s (it would read back as `{listed}`)"),
    )
}

/// Whether the variant held has the selector an earlier field computes: one type for both
/// sides, so the comparison never rests on inference (another crate's `PartialEq` impls,
/// serde_json's for one, would else make it ambiguous).
#[inline]
pub fn same_selector<S: PartialEq>(want: &S, have: &S) -> bool {
    want == have
}

/// The error for a selected enum whose variant disagrees with the selector.
pub fn selector_mismatch<T: std::fmt::Debug>(at: u64, expr: &str, want: T, have: T) -> Error {
    Error::inconsistent(
        at,
        format!("the variant for {want:?} (`{expr}`)"),
        format!("the variant for {have:?}"),
    )
}

/// The body of every generated `BinRead::read_options`.
pub fn binrw_read<T, C, R>(reader: &mut R, ctx: &C) -> binrw::BinResult<T>
where
    T: Decode<C>,
    C: ?Sized,
    R: Read + Seek + ?Sized,
{
    let mut input = IoInput::new(reader)?;
    Ok(T::decode(&mut input, ctx)?)
}

/// The body of every generated `BinWrite::write_options`.
pub fn binrw_write<T, C, W>(value: &T, writer: &mut W, ctx: &C) -> binrw::BinResult<()>
where
    T: Encode<C> + ?Sized,
    C: ?Sized,
    W: Write + Seek + ?Sized,
{
    let mut out = IoOutput::new(writer)?;
    Ok(value.encode(&mut out, ctx)?)
}

/// The body of the `BinRead` impl of an enum chosen by a selector.
pub fn binrw_read_selected<T, C, S, R>(reader: &mut R, ctx: &C, sel: S) -> binrw::BinResult<T>
where
    T: crate::codec::DecodeSelected<C, S>,
    C: ?Sized,
    R: Read + Seek + ?Sized,
{
    let mut input = IoInput::new(reader)?;
    Ok(T::decode_selected(&mut input, ctx, sel)?)
}

// ---- positioned fields (`#[mmd(pos = expr, size = expr)]`) and the gaps between them ----

/// Where a positioned value lies: `at` its first byte (absolute in the input or output),
/// `size` its length, `field` which positioned field of the record it belongs to (0 for
/// the first) and `index` which element of it (0 for a field of one value).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// The first byte.
    pub at: u64,
    /// The number of bytes.
    pub size: u64,
    /// The positioned field (0 for the record's first).
    pub field: usize,
    /// The element of that field (0 for a field of one value).
    pub index: usize,
}

/// The region of a positioned value: `base` (the record's first byte, or the start of
/// the field its positions are relative to) plus the position `pos`, `size` bytes long,
/// which must lie inside `[0, end)`. `here` is where the error points when the position
/// or size is not a length.
pub fn place<P: ToLen, L: ToLen>(
    here: u64,
    base: u64,
    pos: P,
    size: L,
    pos_text: &str,
    size_text: &str,
    end: u64,
) -> Result<(u64, u64)> {
    let p = pos.to_len().map_err(|found| {
        Error::invalid(
            here,
            format!("a position of 0 or more (`{pos_text}`)"),
            found,
        )
    })?;
    let n = size.to_len().map_err(|found| {
        Error::invalid(here, format!("a size of 0 or more (`{size_text}`)"), found)
    })?;
    let at = base.saturating_add(p);
    if at > end || n > end - at {
        return Err(Error::invalid(
            at.min(end),
            format!(
                "{n} bytes at offset {at:#x} (`{pos_text}` from {base:#x}, size `{size_text}`), \
                 inside the input, which ends at {end:#x}"
            ),
            format!(
                "a region that ends at {:#x}, past the end",
                u128::from(at) + u128::from(n)
            ),
        ));
    }
    Ok((at, n))
}

/// The number of elements of a positioned list (`len = expr` with `pos`), at most one
/// per byte of the input from `start` to `end`: positioned elements may overlap, so the
/// bytes do not bound their number otherwise, and a hostile count must not make the
/// reader loop or allocate without end.
pub fn positioned_len<L: ToLen>(here: u64, len: L, start: u64, end: u64) -> Result<usize> {
    let n = len_of(len, here)?;
    let bytes = end.saturating_sub(start);
    if n > bytes {
        return Err(Error::invalid(
            here,
            format!(
                "at most {bytes} positioned elements (one per byte of the input from \
                 {start:#x} to {end:#x})"
            ),
            format!("{n} elements"),
        ));
    }
    Ok(n as usize)
}

/// Reads one value from the region `(at, size)` (see [`place`]) without moving the
/// sequential position: the input is sent there, bounded to the region while `read`
/// runs (the value must account for every byte, as with `size`), then sent back. The
/// region is noted in `pieces` for [`read_gaps`].
pub fn read_at<T, I: Input + ?Sized>(
    input: &mut I,
    (at, size): (u64, u64),
    size_text: &str,
    pieces: &mut Vec<(u64, u64)>,
    read: impl FnOnce(&mut I) -> Result<T>,
) -> Result<T> {
    let back = input.position();
    let end = at + size;
    input.seek(at)?;
    let old = input.set_end(end)?;
    let value = read(input);
    let left = input.remaining();
    let stop = input.position();
    input.set_end(old)?;
    input.seek(back)?;
    let value = value.map_err(|e| e.past_region(end, size_text))?;
    if left != 0 {
        return Err(Error::inconsistent(
            stop,
            format!(
                "a value that takes all {size} bytes of its size (`{size_text}`); a type that \
                 keeps bytes it does not read ends with a `rest` field"
            ),
            format!("one that ends {left} bytes before"),
        ));
    }
    pieces.push((at, end));
    Ok(value)
}

/// The bytes from `from` (where the sequential fields end) to the end of the input that
/// no positioned value in `pieces` holds, as runs in file order (none empty), each read
/// from the input; the position is left at the end of the input.
pub fn read_gaps<I: Input + ?Sized>(
    input: &mut I,
    from: u64,
    pieces: &mut [(u64, u64)],
) -> Result<Vec<Vec<u8>>> {
    let end = input.end();
    pieces.sort_unstable();
    let mut runs = Vec::new();
    let mut c = from;
    for &(a, b) in pieces.iter() {
        if a > c {
            runs.push((c, a));
        }
        c = c.max(b);
    }
    if end > c {
        runs.push((c, end));
    }
    let mut gaps = Vec::with_capacity(runs.len());
    for (i, (a, b)) in runs.into_iter().enumerate() {
        input.seek(a)?;
        gaps.push(input.read_vec(b - a).map_err(|e| e.in_index(i))?);
    }
    input.seek(end)?;
    Ok(gaps)
}

/// An [`Output`] that passes everything on to `inner` and keeps a copy of the bytes
/// written through it, so that a positioned value written over bytes already written
/// (by a sequential field or another positioned value) can be checked against them.
#[derive(Debug)]
pub struct Tee<'o, O: ?Sized> {
    inner: &'o mut O,
    start: u64,
    bytes: Vec<u8>,
}

impl<'o, O: Output + ?Sized> Tee<'o, O> {
    /// Starts keeping the bytes written to `inner` from its current position.
    pub fn new(inner: &'o mut O) -> Self {
        let start = inner.position();
        Tee {
            inner,
            start,
            bytes: Vec::new(),
        }
    }
}

impl<O: Output + ?Sized> Output for Tee<'_, O> {
    #[inline]
    fn position(&self) -> u64 {
        self.inner.position()
    }
    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.inner.write_bytes(bytes)?;
        self.bytes.extend_from_slice(bytes);
        Ok(())
    }
    #[inline]
    fn enter(&mut self, seg: Segment) {
        self.inner.enter(seg);
    }
    #[inline]
    fn leave(&mut self) {
        self.inner.leave();
    }
    #[inline]
    fn records_spans(&self) -> bool {
        self.inner.records_spans()
    }
}

/// Writes the positioned values `pieces` at their positions, after the sequential fields
/// (written to `out` already), and `gaps` into the holes between them, as reading would
/// find them again:
///
/// * the pieces go in the order of their positions (the first declared first among equal
///   ones); a piece that starts where the bytes written so far end is written there; one
///   that starts past that end needs the next gap, which must fill the hole exactly; one
///   that starts before it (it overlaps the sequential fields or an earlier piece) is
///   written to a buffer and must agree with every byte already written, only its bytes
///   past the end being added;
/// * each piece must write exactly its size;
/// * after the last piece, at most one gap may be left: the bytes up to the end.
///
/// `fields` names the positioned fields (and whether each is a list, for the paths);
/// `write(out, field, index)` writes one value. Every mismatch is an error naming the
/// field and the offset, never bytes written where reading would not find them.
pub fn write_placed<O: Output + ?Sized>(
    out: &mut Tee<'_, O>,
    mut pieces: Vec<Piece>,
    gaps: &[Vec<u8>],
    gaps_name: &'static str,
    fields: &[(&'static str, bool)],
    mut write: impl FnMut(&mut dyn Output, usize, usize) -> Result<()>,
) -> Result<()> {
    pieces.sort_by_key(|p| p.at);
    let gap_error = |k: usize, e: Error| e.in_index(k).in_field(gaps_name);
    if let Some(k) = gaps.iter().position(Vec::is_empty) {
        return Err(gap_error(
            k,
            Error::inconsistent(
                out.position(),
                "a gap of at least one byte (reading finds no empty gap)",
                "an empty gap",
            ),
        ));
    }
    let mut next_gap = 0usize;
    for p in pieces {
        let (name, list) = fields.get(p.field).copied().unwrap_or(("?", false));
        let wrap = |e: Error| {
            let e = if list { e.in_index(p.index) } else { e };
            e.in_field(name)
        };
        let c = out.position();
        if p.at > c {
            let hole = p.at - c;
            let Some(g) = gaps.get(next_gap) else {
                return Err(Error::inconsistent(
                    c,
                    format!(
                        "a gap of {hole} bytes for the hole from {c:#x} to {:#x}, before the \
                         positioned value there",
                        p.at
                    ),
                    format!("no gap left ({} given)", gaps.len()),
                )
                .in_field(gaps_name));
            };
            if g.len() as u64 != hole {
                return Err(gap_error(
                    next_gap,
                    Error::inconsistent(
                        c,
                        format!(
                            "{hole} bytes, the hole from {c:#x} to the positioned value at {:#x}",
                            p.at
                        ),
                        format!("{} bytes", g.len()),
                    ),
                ));
            }
            out.enter(Segment::Field(gaps_name));
            out.enter(Segment::Index(next_gap));
            let r = out.write_bytes(g);
            out.leave();
            out.leave();
            r?;
            next_gap += 1;
        }
        let c = out.position();
        let enter = |out: &mut Tee<'_, O>| {
            out.enter(Segment::Field(name));
            if list {
                out.enter(Segment::Index(p.index));
            }
        };
        let leave = |out: &mut Tee<'_, O>| {
            if list {
                out.leave();
            }
            out.leave();
        };
        let wrong_size = |wrote: u64| {
            wrap(Error::inconsistent(
                p.at,
                format!("a value of {} bytes (its size) at {:#x}", p.size, p.at),
                format!("one of {wrote} bytes"),
            ))
        };
        if p.at == c {
            enter(out);
            let r = write(out, p.field, p.index);
            leave(out);
            r.map_err(wrap)?;
            let wrote = out.position() - c;
            if wrote != p.size {
                return Err(wrong_size(wrote));
            }
        } else {
            // Over bytes already written: they must agree.
            let mut buf = Vec::new();
            write(&mut buf, p.field, p.index).map_err(|e| wrap(e.offset_by(p.at)))?;
            if buf.len() as u64 != p.size {
                return Err(wrong_size(buf.len() as u64));
            }
            let from = (p.at - out.start) as usize;
            let have = out.bytes.get(from..).unwrap_or(&[]);
            let n = have.len().min(buf.len());
            if let Some(k) = (0..n).find(|&k| have[k] != buf[k]) {
                return Err(wrap(Error::inconsistent(
                    p.at + k as u64,
                    format!(
                        "byte {:#04x}, already written there (the positioned value at {:#x} \
                         overlaps bytes written before it, which it must agree with)",
                        have[k], p.at
                    ),
                    format!("byte {:#04x}", buf[k]),
                )));
            }
            if buf.len() > n {
                enter(out);
                let r = out.write_bytes(&buf[n..]);
                leave(out);
                r?;
            }
        }
    }
    match gaps.len().saturating_sub(next_gap) {
        0 => {}
        1 => {
            let g = &gaps[next_gap];
            out.enter(Segment::Field(gaps_name));
            out.enter(Segment::Index(next_gap));
            let r = out.write_bytes(g);
            out.leave();
            out.leave();
            r?;
        }
        left => {
            return Err(gap_error(
                next_gap + 1,
                Error::inconsistent(
                    out.position(),
                    "at most one gap after the last positioned value (the bytes up to the \
                     end); each other gap fills a hole before a positioned value",
                    format!("{left} gaps left"),
                ),
            ))
        }
    }
    Ok(())
}
