//! The layout descriptors `#[derive(Mmd)]` emits: fields in file order with their names,
//! types, sizes, repetition, presence and selection texts; enum tags; flag bits; and the
//! `SIZE` / `MIN_SIZE` constants. Expected values are worked out by hand from the types.

use mmd_formats::layout::{
    BinOp, Body, Expr, FieldLayout, Helper, Presence, Prim, Repeat, Size, TagSource, TypeLayout,
};
use mmd_formats::pmx::{Bone, BoneFlags, BoneTail, Material, Weight};
use mmd_formats::{BoneIndex, Describe, IndexKind, Mmd, PmxText, TextEncoding};

/// One line per field: `name: type size repeat presence [select ..] [switch ..]`, each
/// expression by its text (its tree is checked on its own below).
fn row(f: &FieldLayout) -> String {
    let repeat = match f.repeat {
        Repeat::Len(e) => format!("Len({:?})", e.text),
        other => format!("{other:?}"),
    };
    let presence = match f.presence {
        Presence::If(e) => format!("If({:?})", e.text),
        Presence::IfUnlessEof(e) => format!("IfUnlessEof({:?})", e.text),
        other => format!("{other:?}"),
    };
    let mut s = format!("{}: {} {:?} {repeat} {presence}", f.name, f.ty, f.size);
    if let Some(sel) = f.select {
        s.push_str(&format!(" select {sel}"));
    }
    if let Some(sw) = f.switch_ctx {
        s.push_str(&format!(" switch {sw}"));
    }
    s
}

fn layout_of<T: Describe>() -> &'static TypeLayout {
    T::layout().expect("a derived type has a layout")
}

fn struct_rows(l: &TypeLayout) -> Vec<String> {
    match &l.body {
        Body::Struct(fields) => fields.iter().map(row).collect(),
        other => panic!("{} is not a struct: {other:?}", l.name),
    }
}

#[track_caller]
fn assert_rows(actual: Vec<String>, expected: &[&str]) {
    let expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(actual, expected);
}

// ---------------------------------------------------------------------------------------
// Derived test types
// ---------------------------------------------------------------------------------------

/// A fixed-size record.
#[derive(Mmd, Debug, PartialEq)]
struct Fixed {
    /// Position (x, y, z).
    position: [f32; 3],
    /// Frame number.
    frame: u32,
}

/// A context for the index and text fields below.
#[derive(Debug, Clone, Copy)]
struct Ctx;

impl mmd_formats::IndexWidths for Ctx {
    fn index_width(&self, _: IndexKind) -> u8 {
        2
    }
}

impl mmd_formats::TextContext for Ctx {
    fn text_encoding(&self) -> TextEncoding {
        TextEncoding::Utf8
    }
}

/// Every directive once.
#[derive(Mmd, Debug, PartialEq)]
#[mmd(ctx = Ctx, magic = b"DSC1")]
struct Everything {
    /// Flags: bit 0 says `weight` follows.
    flags: u8,
    /// Present with bit 0.
    #[mmd(if = *flags & 1 != 0)]
    weight: Option<f32>,
    /// A u16 count, then records.
    #[mmd(count = u16)]
    records: Vec<Fixed>,
    /// How many `items`.
    n: u8,
    /// `n` bones.
    #[mmd(len = *n)]
    items: Vec<BoneIndex>,
    /// A name.
    name: PmxText,
    /// Chosen by bit 1.
    #[mmd(select = *flags & 2 != 0)]
    kind: Kind,
    /// A tagged shape.
    shape: Shape,
    /// Absent when the file ends here.
    #[mmd(unless_eof, count = i32)]
    extra: Option<Vec<u8>>,
    /// With bit 2, unless the file ends first.
    #[mmd(if = *flags & 4 != 0, unless_eof)]
    late: Option<u16>,
    /// Whatever follows.
    #[mmd(rest)]
    trailing: Vec<u8>,
}

/// Chosen by a bool.
#[derive(Mmd, Debug, PartialEq)]
#[mmd(selected_by = bool, name = "kind flag")]
enum Kind {
    /// False: one byte.
    #[mmd(tag = false)]
    Short(u8),
    /// True: four.
    #[mmd(tag = true)]
    Long(u32),
}

/// A signed tag.
#[derive(Mmd, Debug, PartialEq)]
#[mmd(tag = i16)]
enum Shape {
    /// Nothing.
    #[mmd(tag = -1)]
    Empty,
    /// A radius.
    #[mmd(tag = 3)]
    Circle(f32),
    /// Two sides.
    #[mmd(tag = 300)]
    Rect {
        /// Width.
        w: f32,
        /// Height.
        h: f32,
    },
}

/// A header that switches the context.
#[derive(Mmd, Debug, PartialEq)]
#[mmd(ctx = ())]
struct Switching {
    /// Its value gives the context.
    #[mmd(switch_ctx = Ok::<Ctx, mmd_formats::Error>(Ctx))]
    version: u8,
    /// Read with the new context.
    bone: BoneIndex,
}

#[test]
fn fixed_record_is_fixed() {
    assert_eq!(Fixed::SIZE, Size::Fixed(16));
    assert_eq!(Fixed::MIN_SIZE, 16);
    let l = layout_of::<Fixed>();
    assert_eq!(l.name, "Fixed");
    assert_eq!(l.doc, "A fixed-size record.");
    assert_eq!(l.context, None);
    assert_eq!(l.magic, None);
    assert_rows(
        struct_rows(l),
        &[
            "position: [f32; 3] Fixed(12) One Always",
            "frame: u32 Fixed(4) One Always",
        ],
    );
    let Body::Struct(fields) = &l.body else {
        unreachable!()
    };
    assert_eq!(fields[0].doc, "Position (x, y, z).");
    assert_eq!(fields[1].doc, "Frame number.");
    // Primitive fields have no layout of their own.
    assert!((fields[1].layout)().is_none());
}

#[test]
fn every_directive_is_described_in_file_order() {
    let l = layout_of::<Everything>();
    assert_eq!(l.context, Some("Ctx"));
    assert_eq!(l.magic, Some(&b"DSC1"[..]));
    assert_rows(
        struct_rows(l),
        &[
            "flags: u8 Fixed(1) One Always",
            "weight: f32 Fixed(4) One If(\"*flags & 1 != 0\")",
            "records: Fixed Fixed(16) Counted { count_ty: \"u16\", count_size: 2, count_prim: U16 } Always",
            "n: u8 Fixed(1) One Always",
            "items: BoneIndex Index(\"bone\") Len(\"*n\") Always",
            "name: PmxText Text One Always",
            "kind: Kind Variable One Always select *flags & 2 != 0",
            "shape: Shape Variable One Always",
            "extra: u8 Fixed(1) Counted { count_ty: \"i32\", count_size: 4, count_prim: I32 } UnlessEof",
            "late: u16 Fixed(2) One IfUnlessEof(\"*flags & 4 != 0\")",
            "trailing: Vec<u8> Variable Rest Always",
        ],
    );
    assert_eq!(Everything::SIZE, Size::Variable);
    // The expressions are trees too: `*` is the value itself, and the operators nest as
    // Rust groups them (`&` binds tighter than `!=`).
    let Body::Struct(fields) = &l.body else {
        unreachable!()
    };
    let Presence::If(weight) = fields[1].presence else {
        panic!("weight is conditional")
    };
    assert_eq!(
        *weight.tree,
        Expr::Binary(
            BinOp::Ne,
            &Expr::Binary(BinOp::BitAnd, &Expr::Name("flags"), &Expr::Int(1)),
            &Expr::Int(0)
        )
    );
    let Repeat::Len(n) = fields[4].repeat else {
        panic!("items has a length")
    };
    assert_eq!(*n.tree, Expr::Name("n"));
    // magic 4 + flags 1 + count 2 + n 1 + name length 4 + kind (shortest variant) 1
    // + shape (tag 2, Empty 0) 2; conditional, len, end-of-file and rest fields add 0.
    assert_eq!(Everything::MIN_SIZE, 4 + 1 + 2 + 1 + 4 + 1 + 2);
    // The nested layouts are reachable from the fields.
    let Body::Struct(fields) = &l.body else {
        unreachable!()
    };
    assert_eq!((fields[2].layout)().map(|t| t.name), Some("Fixed"));
    assert_eq!((fields[6].layout)().map(|t| t.name), Some("Kind"));
}

#[test]
fn enums_list_every_tag() {
    let l = layout_of::<Shape>();
    let Body::Enum { tag, variants } = &l.body else {
        panic!("not an enum")
    };
    match tag {
        TagSource::Read {
            ty,
            prim,
            size,
            name,
            fourcc: false,
        } => {
            assert_eq!(
                (*ty, *prim, *size, *name),
                ("i16", Prim::I16, 2, "Shape tag")
            );
        }
        other => panic!("{other:?}"),
    }
    let tags: Vec<(&str, &str)> = variants.iter().map(|v| (v.name, v.tag)).collect();
    assert_eq!(tags, [("Empty", "-1"), ("Circle", "3"), ("Rect", "300")]);
    assert!(variants[0].fields.is_empty());
    assert_rows(
        variants[1].fields.iter().map(row).collect(),
        &["0: f32 Fixed(4) One Always"],
    );
    assert_rows(
        variants[2].fields.iter().map(row).collect(),
        &["w: f32 Fixed(4) One Always", "h: f32 Fixed(4) One Always"],
    );
    assert_eq!(variants[2].doc, "Two sides.");
    assert_eq!(Shape::SIZE, Size::Variable);
    assert_eq!(Shape::MIN_SIZE, 2); // the tag; Empty has no fields

    let l = layout_of::<Kind>();
    let Body::Enum { tag, variants } = &l.body else {
        panic!("not an enum")
    };
    match tag {
        TagSource::Selected { ty, prim, name } => {
            assert_eq!((*ty, *prim, *name), ("bool", Prim::Bool, "kind flag"))
        }
        other => panic!("{other:?}"),
    }
    let tags: Vec<(&str, &str)> = variants.iter().map(|v| (v.name, v.tag)).collect();
    assert_eq!(tags, [("Short", "false"), ("Long", "true")]);
    assert_eq!(Kind::MIN_SIZE, 1); // no tag in the file; Short is one byte
}

#[test]
fn switch_ctx_is_described() {
    let l = layout_of::<Switching>();
    assert_eq!(l.context, Some("()"));
    assert_rows(
        struct_rows(l),
        &[
            "version: u8 Fixed(1) One Always switch Ok::<Ctx, mmd_formats::Error>(Ctx)",
            "bone: BoneIndex Index(\"bone\") One Always",
        ],
    );
    assert_eq!(Switching::SIZE, Size::Variable);
    assert_eq!(Switching::MIN_SIZE, 2);
}

// ---------------------------------------------------------------------------------------
// PMX types
// ---------------------------------------------------------------------------------------

#[test]
fn pmx_bone() {
    let l = layout_of::<Bone>();
    assert_eq!(l.context, Some("PmxContext"));
    assert_rows(
        struct_rows(l),
        &[
            "name: PmxText Text One Always",
            "name_en: PmxText Text One Always",
            "position: [f32; 3] Fixed(12) One Always",
            "parent: BoneIndex Index(\"bone\") One Always",
            "layer: i32 Fixed(4) One Always",
            "flags: BoneFlags Fixed(2) One Always",
            "tail: BoneTail Variable One Always select flags.contains(BoneFlags::TAIL_IS_BONE)",
            "inherit: Inherit Variable One If(\"flags.intersects(BoneFlags::INHERIT_ROTATION | BoneFlags::INHERIT_TRANSLATION)\")",
            "fixed_axis: [f32; 3] Fixed(12) One If(\"flags.contains(BoneFlags::FIXED_AXIS)\")",
            "local_axes: LocalAxes Fixed(24) One If(\"flags.contains(BoneFlags::LOCAL_AXES)\")",
            "external_parent: i32 Fixed(4) One If(\"flags.contains(BoneFlags::EXTERNAL_PARENT)\")",
            "ik: Ik Variable One If(\"flags.contains(BoneFlags::IK)\")",
        ],
    );
    let Body::Struct(fields) = &l.body else {
        unreachable!()
    };
    assert_eq!(fields[3].doc, "Parent bone (-1 = none).");
    // A helper call holds its receiver first; a flag constant names its type and bit.
    let Presence::If(inherit) = fields[7].presence else {
        panic!("inherit is conditional")
    };
    assert_eq!(
        *inherit.tree,
        Expr::Call(
            Helper::Intersects,
            &[
                Expr::Name("flags"),
                Expr::Binary(
                    BinOp::BitOr,
                    &Expr::Flag {
                        ty: "BoneFlags",
                        name: "INHERIT_ROTATION"
                    },
                    &Expr::Flag {
                        ty: "BoneFlags",
                        name: "INHERIT_TRANSLATION"
                    }
                ),
            ]
        )
    );
    // Two texts 4 + 4, position 12, parent (1-byte width at least) 1, layer 4, flags 2,
    // tail (the 1-byte bone index variant) 1; the conditional blocks add nothing.
    assert_eq!(Bone::MIN_SIZE, 4 + 4 + 12 + 1 + 4 + 2 + 1);
    assert_eq!(Bone::SIZE, Size::Variable);

    let tail = layout_of::<BoneTail>();
    let Body::Enum { tag, variants } = &tail.body else {
        panic!("not an enum")
    };
    assert!(matches!(
        tag,
        TagSource::Selected {
            ty: "bool",
            prim: Prim::Bool,
            name: "tail kind"
        }
    ));
    let tags: Vec<(&str, &str)> = variants.iter().map(|v| (v.name, v.tag)).collect();
    assert_eq!(tags, [("Offset", "false"), ("Bone", "true")]);
    assert_eq!(BoneTail::MIN_SIZE, 1);
}

#[test]
fn pmx_material() {
    let l = layout_of::<Material>();
    assert_rows(
        struct_rows(l),
        &[
            "name: PmxText Text One Always",
            "name_en: PmxText Text One Always",
            "diffuse: [f32; 4] Fixed(16) One Always",
            "specular: [f32; 3] Fixed(12) One Always",
            "specular_strength: f32 Fixed(4) One Always",
            "ambient: [f32; 3] Fixed(12) One Always",
            "flags: MaterialFlags Fixed(1) One Always",
            "edge_color: [f32; 4] Fixed(16) One Always",
            "edge_size: f32 Fixed(4) One Always",
            "texture: TextureIndex Index(\"texture\") One Always",
            "sphere_texture: TextureIndex Index(\"texture\") One Always",
            "sphere_mode: u8 Fixed(1) One Always",
            "toon: Toon Variable One Always",
            "memo: PmxText Text One Always",
            "face_count: i32 Fixed(4) One Always",
        ],
    );
    // 4 + 4 + 16 + 12 + 4 + 12 + 1 + 16 + 4 + 1 + 1 + 1 + toon (flag 1 + 1) 2 + 4 + 4.
    assert_eq!(Material::MIN_SIZE, 86);
    assert_eq!(
        Material::MIN_SIZE,
        4 + 4 + 16 + 12 + 4 + 12 + 1 + 16 + 4 + 1 + 1 + 1 + 2 + 4 + 4
    );
}

#[test]
fn pmx_weight() {
    let l = layout_of::<Weight>();
    assert_eq!(l.name, "Weight");
    let Body::Enum { tag, variants } = &l.body else {
        panic!("not an enum")
    };
    assert!(matches!(
        tag,
        TagSource::Read {
            ty: "u8",
            prim: Prim::U8,
            size: 1,
            name: "weight type",
            fourcc: false,
        }
    ));
    let tags: Vec<(&str, &str)> = variants.iter().map(|v| (v.name, v.tag)).collect();
    assert_eq!(
        tags,
        [
            ("Bdef1", "0"),
            ("Bdef2", "1"),
            ("Bdef4", "2"),
            ("Sdef", "3"),
            ("Qdef", "4")
        ]
    );
    let rows = |i: usize| variants[i].fields.iter().map(row).collect::<Vec<_>>();
    assert_rows(rows(0), &["bone: BoneIndex Index(\"bone\") One Always"]);
    assert_rows(
        rows(1),
        &[
            "bones: [BoneIndex; 2] Variable One Always",
            "weight: f32 Fixed(4) One Always",
        ],
    );
    assert_rows(
        rows(2),
        &[
            "bones: [BoneIndex; 4] Variable One Always",
            "weights: [f32; 4] Fixed(16) One Always",
        ],
    );
    assert_rows(
        rows(3),
        &[
            "bones: [BoneIndex; 2] Variable One Always",
            "weight: f32 Fixed(4) One Always",
            "c: [f32; 3] Fixed(12) One Always",
            "r0: [f32; 3] Fixed(12) One Always",
            "r1: [f32; 3] Fixed(12) One Always",
        ],
    );
    assert_rows(
        rows(4),
        &[
            "bones: [BoneIndex; 4] Variable One Always",
            "weights: [f32; 4] Fixed(16) One Always",
        ],
    );
    // The tag, then the shortest variant: BDEF1, one index of at least 1 byte.
    assert_eq!(Weight::MIN_SIZE, 1 + 1);
}

#[test]
fn pmx_bone_flags_list_every_bit() {
    assert_eq!(BoneFlags::SIZE, Size::Fixed(2));
    assert_eq!(BoneFlags::MIN_SIZE, 2);
    let l = layout_of::<BoneFlags>();
    let Body::Flags { repr, prim, bits } = &l.body else {
        panic!("not flags")
    };
    assert_eq!((*repr, *prim), ("u16", Prim::U16));
    let got: Vec<(&str, u64)> = bits.iter().map(|b| (b.name, b.mask)).collect();
    assert_eq!(
        got,
        [
            ("TAIL_IS_BONE", 0x0001),
            ("ROTATABLE", 0x0002),
            ("TRANSLATABLE", 0x0004),
            ("VISIBLE", 0x0008),
            ("ENABLED", 0x0010),
            ("IK", 0x0020),
            ("INHERIT_LOCAL", 0x0080),
            ("INHERIT_ROTATION", 0x0100),
            ("INHERIT_TRANSLATION", 0x0200),
            ("FIXED_AXIS", 0x0400),
            ("LOCAL_AXES", 0x0800),
            ("PHYSICS_AFTER_DEFORM", 0x1000),
            ("EXTERNAL_PARENT", 0x2000),
        ]
    );
    // Each bit's doc (raw `///` text: a leading space, a newline per line) opens with its mask.
    for b in bits.iter() {
        assert!(
            b.doc.trim().starts_with(&format!("0x{:04x}: ", b.mask)),
            "{}: {}",
            b.name,
            b.doc
        );
    }
}

#[test]
fn index_and_text_sizes() {
    assert_eq!(BoneIndex::SIZE, Size::Index("bone"));
    assert_eq!(BoneIndex::MIN_SIZE, 1);
    assert_eq!(PmxText::SIZE, Size::Text);
    assert_eq!(PmxText::MIN_SIZE, 4);
    assert_eq!(<[f32; 3]>::SIZE, Size::Fixed(12));
    assert_eq!(<[BoneIndex; 2]>::SIZE, Size::Variable);
    assert_eq!(<[BoneIndex; 2]>::MIN_SIZE, 2);
}
