//! Bit-set types whose every bit is documented and described.

/// Declares a flag type: a newtype over an unsigned integer with named, documented bits.
///
/// Unknown bits are kept as they are (the value is the raw integer); the layout descriptor
/// lists every named bit with its doc comment, so the reference shows them.
///
/// ```
/// mmd_formats::mmd_flags! {
///     /// Example flags.
///     pub struct Example(u8) {
///         /// The first bit.
///         const FIRST = 0x01;
///         /// The second bit.
///         const SECOND = 0x02;
///     }
/// }
/// let f = Example(0x83);
/// assert!(f.contains(Example::FIRST | Example::SECOND));
/// assert_eq!(f.unknown_bits(), 0x80);
/// ```
#[macro_export]
macro_rules! mmd_flags {
    (
        $(#[doc = $tdoc:literal])*
        $vis:vis struct $name:ident($repr:ty) {
            $(
                $(#[doc = $doc:literal])*
                const $flag:ident = $value:expr;
            )*
        }
    ) => {
        $(#[doc = $tdoc])*
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::cmp::PartialEq,
            ::core::cmp::Eq,
            ::core::hash::Hash,
            ::core::default::Default,
        )]
        $vis struct $name(pub $repr);

        #[allow(dead_code)]
        impl $name {
            $(
                $(#[doc = $doc])*
                pub const $flag: Self = Self($value);
            )*
            /// Every named bit.
            pub const KNOWN: $repr = 0 $(| $value)*;

            /// The raw value, unknown bits included.
            pub const fn bits(self) -> $repr {
                self.0
            }

            /// True when every bit of `other` is set.
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }

            /// True when any bit of `other` is set.
            pub const fn intersects(self, other: Self) -> bool {
                self.0 & other.0 != 0
            }

            /// Sets or clears the bits of `other`, leaving every other bit as it is.
            pub fn set(&mut self, other: Self, on: bool) {
                if on {
                    self.0 |= other.0;
                } else {
                    self.0 &= !other.0;
                }
            }

            /// The bits that have no name (kept, never cleared).
            pub const fn unknown_bits(self) -> $repr {
                self.0 & !Self::KNOWN
            }
        }

        impl ::core::ops::BitOr for $name {
            type Output = Self;
            fn bitor(self, rhs: Self) -> Self {
                Self(self.0 | rhs.0)
            }
        }

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let mut first = true;
                ::core::write!(f, "{}(", ::core::stringify!($name))?;
                $(
                    if $value != 0 && self.0 & $value == $value {
                        if !first { f.write_str(" | ")?; }
                        first = false;
                        f.write_str(::core::stringify!($flag))?;
                    }
                )*
                let unknown = self.unknown_bits();
                if unknown != 0 {
                    if !first { f.write_str(" | ")?; }
                    first = false;
                    ::core::write!(f, "{:#x}", unknown)?;
                }
                if first { f.write_str("empty")?; }
                f.write_str(")")
            }
        }

        impl<C: ?::core::marker::Sized> $crate::__private::Decode<C> for $name {
            #[inline]
            fn decode<I: $crate::__private::Input + ?::core::marker::Sized>(
                input: &mut I,
                ctx: &C,
            ) -> $crate::__private::Result<Self> {
                <$repr as $crate::__private::Decode<C>>::decode(input, ctx).map(Self)
            }
            #[inline(always)]
            fn fixed_size(ctx: &C) -> ::core::option::Option<usize> {
                <$repr as $crate::__private::Decode<C>>::fixed_size(ctx)
            }
            #[inline(always)]
            fn decode_fixed(
                bytes: &mut $crate::__private::FixedBytes<'_>,
                ctx: &C,
            ) -> ::core::option::Option<Self> {
                <$repr as $crate::__private::Decode<C>>::decode_fixed(bytes, ctx).map(Self)
            }
        }

        impl<C: ?::core::marker::Sized> $crate::__private::Encode<C> for $name {
            #[inline]
            fn encode<O: $crate::__private::Output + ?::core::marker::Sized>(
                &self,
                out: &mut O,
                ctx: &C,
            ) -> $crate::__private::Result<()> {
                <$repr as $crate::__private::Encode<C>>::encode(&self.0, out, ctx)
            }
            #[inline(always)]
            fn size_hint(&self, _ctx: &C) -> usize {
                ::core::mem::size_of::<$repr>()
            }
            #[inline(always)]
            fn seq_size_hint(items: &[Self], _ctx: &C) -> usize {
                ::core::mem::size_of::<$repr>().saturating_mul(items.len())
            }
            #[inline(always)]
            fn encode_fixed(
                &self,
                out: &mut $crate::__private::FixedOut<'_>,
                ctx: &C,
            ) -> ::core::option::Option<()> {
                <$repr as $crate::__private::Encode<C>>::encode_fixed(&self.0, out, ctx)
            }
        }

        impl $crate::__private::walk::Walk for $name {
            fn walk(&self, v: &mut dyn $crate::__private::walk::Visitor) {
                v.leaf($crate::__private::walk::Leaf::Flags {
                    type_name: ::core::stringify!($name),
                    bits: self.0 as u64,
                    size: ::core::mem::size_of::<$repr>() as u8,
                    names: &[$((::core::stringify!($flag), $value as u64),)*],
                });
            }
        }

        /// Flags from JSON: `{"bits": N}`, `{"names": [..]}` (exactly the named bits), or
        /// both, which must agree.
        impl<C: ?::core::marker::Sized> $crate::__private::FromJson<C> for $name {
            fn from_json(
                json: &$crate::__private::Json<'_>,
                _ctx: &C,
            ) -> ::core::result::Result<Self, $crate::__private::JsonError> {
                $crate::flags::flags_from_json(
                    json,
                    ::core::stringify!($name),
                    ::core::mem::size_of::<$repr>(),
                    &[$((::core::stringify!($flag), $value as u64),)*],
                )
                .map(|bits| Self(bits as $repr))
            }
        }

        impl $crate::__private::Describe for $name {
            const SIZE: $crate::layout::Size =
                $crate::layout::Size::Fixed(::core::mem::size_of::<$repr>() as u64);
            const MIN_SIZE: u64 = ::core::mem::size_of::<$repr>() as u64;
            fn layout() -> ::core::option::Option<&'static $crate::layout::TypeLayout> {
                static LAYOUT: $crate::layout::TypeLayout = $crate::layout::TypeLayout {
                    name: ::core::stringify!($name),
                    doc: ::core::concat!($($tdoc, "\n",)*),
                    context: ::core::option::Option::None,
                    magic: ::core::option::Option::None,
                    file: ::core::option::Option::None,
                    parent: ::core::option::Option::None,
                    body: $crate::layout::Body::Flags {
                        repr: ::core::stringify!($repr),
                        prim: <$repr as $crate::layout::PrimType>::PRIM,
                        bits: &[$(
                            $crate::layout::FlagBit {
                                name: ::core::stringify!($flag),
                                mask: $value as u64,
                                doc: ::core::concat!($($doc, "\n",)*),
                            },
                        )*],
                    },
                };
                ::core::option::Option::Some(&LAYOUT)
            }
        }
    };
}

/// The bits of a flag value given in JSON (see [`mmd_flags!`]): `{"bits": N}` (any value
/// that fits `size` bytes, unknown bits included), `{"names": ["A", ..]}` (exactly the
/// named bits), or both, which must name the same bits. Called by the code `mmd_flags!`
/// generates.
#[doc(hidden)]
pub fn flags_from_json(
    json: &crate::json::Json<'_>,
    type_name: &str,
    size: usize,
    names: &[(&str, u64)],
) -> Result<u64, crate::json::JsonError> {
    use crate::json::{Json, JsonError};
    let Json::Object(members) = json else {
        return Err(JsonError::expected(
            &format!("{type_name} as {{\"bits\": N, \"names\": [..]}}"),
            json,
        ));
    };
    for (k, _) in members {
        if k != "bits" && k != "names" {
            return Err(JsonError::new(format!(
                "unknown member `{k}` of {type_name} (it has `bits` and `names`)"
            )));
        }
    }
    let max: u64 = if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size * 8)) - 1
    };
    let bits = match json.get("bits") {
        None => None,
        Some(b) => {
            let v = match b {
                Json::Number(n) => n.as_integer(),
                _ => None,
            };
            match v {
                Some(v) if v >= 0 && v <= i128::from(max) => Some(v as u64),
                _ => {
                    return Err(JsonError::expected(
                        &format!("bits as an integer from 0 to {max}"),
                        b,
                    )
                    .in_field("bits"))
                }
            }
        }
    };
    let named = match json.get("names") {
        None => None,
        Some(list) => {
            let items = list
                .elements()
                .ok_or_else(|| JsonError::expected("an array of names", list).in_field("names"))?;
            let mut mask = 0u64;
            let mut given = Vec::new();
            for (i, item) in items.enumerate() {
                let item = item.map_err(|e| e.in_index(i).in_field("names"))?;
                let name = item.as_str().unwrap_or("");
                match names.iter().find(|(n, m)| *n == name && *m != 0) {
                    Some((n, m)) => {
                        mask |= m;
                        given.push(*n);
                    }
                    None => {
                        let known: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                        return Err(JsonError::new(format!(
                            "{} is not a bit of {type_name}; its bits are {}",
                            item.describe(),
                            known.join(", ")
                        ))
                        .in_index(i)
                        .in_field("names"));
                    }
                }
            }
            Some((mask, given))
        }
    };
    match (bits, named) {
        (Some(bits), None) => Ok(bits),
        (None, Some((mask, _))) => Ok(mask),
        (Some(bits), Some((_, mut given))) => {
            let mut implied: Vec<&str> = names
                .iter()
                .filter(|(_, m)| *m != 0 && bits & m == *m)
                .map(|(n, _)| *n)
                .collect();
            implied.sort_unstable();
            given.sort_unstable();
            given.dedup();
            if implied == given {
                Ok(bits)
            } else {
                Err(JsonError::new(format!(
                    "`bits` {bits:#x} sets [{}] but `names` lists [{}]: change both, or give \
                     only one",
                    implied.join(", "),
                    given.join(", ")
                )))
            }
        }
        (None, None) => Err(JsonError::new(format!(
            "{type_name} needs `bits` or `names`"
        ))),
    }
}
