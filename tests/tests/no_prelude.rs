//! Derived types inside a `#[no_implicit_prelude]` module: the generated reader, writer and
//! descriptor name everything by absolute path, so they compile (and work) where nothing is
//! imported implicitly. Every directive appears at least once, and so do `mmd_flags!` and
//! `#[mmd(crate = ...)]` (the runtime reached through another path).

#[no_implicit_prelude]
mod m {
    use ::mmd_formats::pmx::{Header, PmxContext};
    use ::mmd_formats::{BoneIndex, Mmd, PmxText};

    /// Every plain directive, with no context.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(magic = b"NP")]
    pub struct Plain {
        /// Bit 0: `weight` follows.
        pub flags: u8,
        /// Present when bit 0 of `flags` is set.
        #[mmd(if = *flags & 1 != 0)]
        pub weight: ::core::option::Option<f32>,
        /// A u16 count, then the values.
        #[mmd(count = u16)]
        pub values: ::std::vec::Vec<i16>,
        /// As many bytes as `flags` says in its high nibble.
        #[mmd(len = *flags >> 4)]
        pub nibbles: ::std::vec::Vec<u8>,
        /// The tail shape, chosen by bit 1 of `flags`.
        #[mmd(select = *flags & 2 != 0)]
        pub tail: Tail,
        /// A tagged shape.
        pub shape: Shape,
        /// Absent when the input ends here.
        #[mmd(unless_eof)]
        pub extra: ::core::option::Option<u32>,
        /// Whatever follows.
        #[mmd(rest)]
        pub trailing: ::std::vec::Vec<u8>,
    }

    /// Chosen by the enclosing struct.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(selected_by = bool, name = "tail kind")]
    pub enum Tail {
        /// Selector false: one byte.
        #[mmd(tag = false)]
        Short(u8),
        /// Selector true: a u32.
        #[mmd(tag = true)]
        Long {
            /// The value.
            value: u32,
        },
    }

    /// Chosen by an i8 tag.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(tag = i8, name = "shape kind")]
    pub enum Shape {
        /// Tag -1: nothing.
        #[mmd(tag = -1)]
        Nothing,
        /// Tag 2: a radius.
        #[mmd(tag = 2)]
        Circle(f32),
    }

    /// A context-driven struct: the header switches the context to the PMX one, whose
    /// widths and encoding the later fields use.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(ctx = ())]
    pub struct WithContext {
        /// The PMX header; its globals give the context.
        #[mmd(switch_ctx = header.context())]
        pub header: Header,
        /// Bones from the context's width.
        pub bones: Inner,
    }

    /// Fields that need the PMX context.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(ctx = PmxContext)]
    pub struct Inner {
        /// A name in the header's encoding.
        pub name: PmxText,
        /// Bones, an i32 count first.
        #[mmd(count = i32)]
        pub bones: ::std::vec::Vec<BoneIndex>,
        /// One additional UV per the context.
        #[mmd(len = ctx.additional_uv)]
        pub uvs: ::std::vec::Vec<[f32; 4]>,
    }

    ::mmd_formats::mmd_flags! {
        /// Flags declared with the runtime's macro.
        pub struct Bits(u16) {
            /// Bit 0.
            const LOW = 0x0001;
            /// Bit 15.
            const HIGH = 0x8000;
        }
    }

    /// The runtime reached through a re-export (`#[mmd(crate = ...)]`).
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(crate = super::renamed::runtime)]
    pub struct Renamed {
        /// Flags.
        pub bits: Bits,
        /// Bytes, a u8 count first.
        #[mmd(count = u8)]
        pub bytes: ::std::vec::Vec<u8>,
    }

    /// A record whose items name its fields (`parent`, `with_parent`), two levels deep.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    pub struct Holder {
        /// How many items.
        pub n: u8,
        /// The items.
        #[mmd(len = n, with_parent)]
        pub items: ::std::vec::Vec<Held>,
    }

    /// Held by `Holder`.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(parent = Holder)]
    pub struct Held {
        /// A byte, present in the first of a holder of two or more.
        pub k: u8,
        /// Present when the holder has more than one item.
        #[mmd(if = *parent.n > 1)]
        pub more: ::core::option::Option<u8>,
        /// Deeper still.
        #[mmd(with_parent)]
        pub deep: Deep,
    }

    /// Held by `Held`, reading `Holder` two levels up.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(parent = Held)]
    pub struct Deep {
        /// As many bytes as the holder has items.
        #[mmd(len = parent.parent.n)]
        pub bytes: ::std::vec::Vec<u8>,
    }
}

/// A path to the runtime other than `::mmd_formats`, as a crate that renames its
/// dependency or re-exports it would have.
mod renamed {
    pub use mmd_formats as runtime;
}

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::{BoneIndex, Describe, Encode, PmxText, TextEncoding};

#[test]
fn plain_round_trips() {
    #[rustfmt::skip]
    let bytes = [
        b'N', b'P',             // magic
        0x23,                   // flags: bit 0 (weight), bit 1 (long tail), 2 nibble bytes
        0, 0, 0x80, 0x3f,       // weight 1.0
        2, 0,                   // u16 count 2
        0xff, 0xff, 5, 0,       // values -1, 5
        7, 8,                   // nibbles
        9, 0, 0, 0,             // tail: Long { value: 9 }
        2, 0, 0, 0, 0x40,       // shape: tag 2, Circle(2.0)
        4, 0, 0, 0,             // extra: 4
        0xaa,                   // trailing
    ];
    let v: m::Plain = decode_all(&bytes, &()).unwrap();
    assert_eq!(
        v,
        m::Plain {
            flags: 0x23,
            weight: Some(1.0),
            values: vec![-1, 5],
            nibbles: vec![7, 8],
            tail: m::Tail::Long { value: 9 },
            shape: m::Shape::Circle(2.0),
            extra: Some(4),
            trailing: vec![0xaa],
        }
    );
    assert_eq!(encode_all(&v, &()).unwrap(), bytes);
    assert_eq!(v.size_hint(&()), bytes.len());

    // Shortest form: no weight, short tail, tag -1, input ends before `extra`.
    let short = [b'N', b'P', 0x00, 0, 0, 3, 0xff];
    let v: m::Plain = decode_all(&short, &()).unwrap();
    assert_eq!(v.tail, m::Tail::Short(3));
    assert_eq!(v.shape, m::Shape::Nothing);
    assert_eq!(v.extra, None);
    assert_eq!(encode_all(&v, &()).unwrap(), short);
    assert_eq!(v.size_hint(&()), short.len());
    // magic 2 + flags 1 + count 2 + shortest tail 1 + shape tag 1: the short form above.
    assert_eq!(<m::Plain as Describe>::MIN_SIZE, 2 + 1 + 2 + 1 + 1);
    assert_eq!(<m::Plain as Describe>::MIN_SIZE, short.len() as u64);
}

#[test]
fn context_switch_round_trips() {
    #[rustfmt::skip]
    let bytes = [
        b'P', b'M', b'X', b' ', 0, 0, 0, 0x40, // magic, version 2.0
        8, 1, 1, 1, 1, 1, 2, 1, 1,             // 8 globals: UTF-8, 1 UV, bone width 2
        2, 0, 0, 0, b'h', b'i',                // name "hi" (UTF-8)
        1, 0, 0, 0, 0xff, 0xff,                // 1 bone: -1 (2 bytes)
        0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xbf, // uv (1, 0, 0, -1)
    ];
    let v: m::WithContext = decode_all(&bytes, &()).unwrap();
    assert_eq!(v.bones.name, PmxText::new("hi", TextEncoding::Utf8));
    assert_eq!(v.bones.bones, vec![BoneIndex::NONE]);
    assert_eq!(v.bones.uvs, vec![[1.0, 0.0, 0.0, -1.0]]);
    assert_eq!(encode_all(&v, &()).unwrap(), bytes);
    assert_eq!(v.size_hint(&()), bytes.len());
}

#[test]
fn flags_and_a_renamed_runtime_round_trip() {
    let bytes = [0x01, 0x80, 2, 7, 9];
    let v: m::Renamed = decode_all(&bytes, &()).unwrap();
    assert!(v.bits.contains(m::Bits::LOW | m::Bits::HIGH));
    assert_eq!(format!("{:?}", v.bits), "Bits(LOW | HIGH)");
    assert_eq!(v.bytes, vec![7, 9]);
    assert_eq!(encode_all(&v, &()).unwrap(), bytes);
    assert_eq!(v.size_hint(&()), bytes.len());
}

#[test]
fn records_that_name_their_parents_round_trip() {
    let bytes = [2u8, 7, 1, 0xA, 0xB, 8, 2, 0xC, 0xD];
    let v: m::Holder = mmd_formats::file::decode_all(&bytes, &()).unwrap();
    assert_eq!(v.items[1].more, Some(2));
    assert_eq!(v.items[1].deep.bytes, [0xC, 0xD]);
    assert_eq!(mmd_formats::file::encode_all(&v, &()).unwrap(), bytes);
}
