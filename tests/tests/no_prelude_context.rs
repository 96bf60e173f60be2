//! A declared context and the records that switch to it, inside a `#[no_implicit_prelude]`
//! module: the context derive's computation, checked indexing, value checks, role impls
//! and descriptor, and the switch's error plumbing, name everything by absolute path.

#[no_implicit_prelude]
mod m {
    use ::mmd_formats::{Index, Mmd, MmdContext, PmxText, TextEncoding};

    ::mmd_formats::index_kind! {
        /// Nodes.
        pub struct Node = "node";
    }

    /// Settings.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    pub struct Settings {
        /// Encoding, then the node width.
        #[mmd(count = u8)]
        pub bytes: ::std::vec::Vec<u8>,
        /// A version.
        pub version: f32,
    }

    /// The context, with every kind of member.
    #[derive(MmdContext, ::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy)]
    #[mmd(from(settings: Settings, extra: u8))]
    pub struct Ctx {
        /// Text encoding (checked index).
        #[mmd(from = settings.bytes[0], text_encoding)]
        pub encoding: TextEncoding,
        /// Node width (checked index, a value list, a role).
        #[mmd(from = settings.bytes[1], valid = [1, 2, 4], name = "node width", index_width = Index<Node>)]
        pub width: u8,
        /// A gate from a float.
        #[mmd(from = settings.version > 1.5)]
        pub new: bool,
        /// From the second parameter, with an `expected` text.
        #[mmd(from = *extra, valid = [0, 7], expected = "0 or 7")]
        pub extra: u8,
    }

    /// A record that switches to it.
    #[derive(Mmd, ::core::fmt::Debug, ::core::cmp::PartialEq)]
    #[mmd(ctx = ())]
    pub struct File {
        /// A byte the context reads.
        pub extra: u8,
        /// The settings; the context switches after them.
        #[mmd(context = Ctx(settings, extra))]
        pub settings: Settings,
        /// A name in the settings' encoding.
        pub name: PmxText,
        /// A node at the settings' width.
        pub node: Index<Node>,
        /// Only when the version is new and `extra` is 7.
        #[mmd(if = ctx.new && ctx.extra == 7)]
        pub more: ::core::option::Option<u8>,
    }
}

use mmd_formats::file::{decode_all, encode_all};

#[test]
fn a_declared_context_round_trips_without_the_prelude() {
    #[rustfmt::skip]
    let bytes = [
        7,                  // extra
        2, 1, 2,            // settings: UTF-8, node width 2
        0, 0, 0, 0x40,      // version 2.0
        1, 0, 0, 0, b'n',   // name "n"
        0xff, 0xff,         // node -1
        5,                  // more
    ];
    let f: m::File = decode_all(&bytes, &()).unwrap();
    assert_eq!(f.more, Some(5));
    assert_eq!(encode_all(&f, &()).unwrap(), bytes);
    let mut bad = bytes;
    bad[0] = 3;
    let e = decode_all::<m::File, _>(&bad, &()).unwrap_err();
    assert_eq!(e.to_string(), "extra: extra 3 at 0x0 (expected 0 or 7)");
}
