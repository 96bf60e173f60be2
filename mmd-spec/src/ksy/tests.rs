use super::*;
use mmd_formats::layout::{BinOp, Describe, Expr, Presence, Repeat, Shape, Size};

fn no_layout() -> Option<&'static TypeLayout> {
    None
}

fn u8_shape() -> Shape {
    Shape::Prim(Prim::U8)
}

fn u32_shape() -> Shape {
    Shape::Prim(Prim::U32)
}

fn opaque() -> Shape {
    Shape::Opaque
}

const fn field(
    name: &'static str,
    ty: &'static str,
    shape: fn() -> Shape,
    repeat: Repeat,
    presence: Presence,
    switch_ctx: Option<&'static str>,
) -> FieldLayout {
    FieldLayout {
        name,
        doc: "A field.",
        ty,
        size: Size::Variable,
        layout: no_layout,
        shape,
        repeat,
        presence,
        bound: None,
        placement: mmd_formats::layout::Placement::Sequential,
        select: None,
        switch_ctx,
        context: None,
        endian: mmd_formats::layout::Endian::Little,
    }
}

const FRAMES: Expression = Expression {
    text: "ctx.frames",
    tree: &Expr::Ctx("frames"),
};

static ODD_FIELDS: [FieldLayout; 5] = [
    field("a", "u8", u8_shape, Repeat::One, Presence::Always, None),
    field(
        "b",
        "u8",
        u8_shape,
        Repeat::One,
        Presence::If(Expression {
            text: "later > 1",
            tree: &Expr::Binary(BinOp::Gt, &Expr::Name("later"), &Expr::Int(1)),
        }),
        None,
    ),
    field(
        "c",
        "u32",
        u32_shape,
        Repeat::Len(FRAMES),
        Presence::Always,
        Some("Other::of(a)"),
    ),
    field("d", "Mystery", opaque, Repeat::One, Presence::Always, None),
    field(
        "e",
        "u8",
        u8_shape,
        Repeat::Len(FRAMES),
        Presence::Always,
        None,
    ),
];

static ODD: TypeLayout = TypeLayout {
    name: "Odd",
    doc: "A made-up type with parts the renderer cannot express.",
    context: None,
    magic: None,
    file: None,
    parent: None,
    body: Body::Struct(&ODD_FIELDS),
};

#[test]
fn every_unknown_part_is_listed() {
    let err = render_ksy(&Spec::from_layout(&ODD)).unwrap_err();
    let text = err.to_string();
    assert_eq!(err.problems.len(), 5, "{text}");
    for part in [
        "Odd.b: cannot translate `later > 1`: `later` is not an earlier field",
        "Odd.c: cannot translate `ctx.frames`",
        "the context switch `Other::of(a)` is an expression the descriptors do not describe",
        "Odd.d: a type with its own codec that does not describe its layout",
        "Odd.e: cannot translate `ctx.frames`: the context has no member",
    ] {
        assert!(text.contains(part), "missing {part:?} in:\n{text}");
    }
}

fn ksy_of<T: Describe>() -> String {
    render_ksy(&Spec::of::<T>().unwrap()).unwrap()
}

#[test]
fn the_formats_render_with_their_traps() {
    let text = ksy_of::<mmd_formats::pmx::Pmx>();
    // Vertex indices are unsigned at 1 and 2 bytes, every other kind signed.
    assert!(text.contains(
        "switch-on: vertex_index_size\n      cases:\n        1: u1\n        2: u2\n        4: s4"
    ));
    assert!(text.contains(
        "switch-on: _root.bone_index_size\n          cases:\n            1: s1\n            2: s2\n            4: s4"
    ));
    assert!(text.contains("if: 'shared_toon_flag == shared_toon_flag::shared'"));
    assert!(text.contains("if: 'is_v21 and not _io.eof'"));
    assert!(text.contains("type: 'bone_tail(flags.tail_is_bone)'"));
    assert!(text.contains("encoding: UTF-16LE"));
    // The context's members are instances of the root, from the header's fields; the
    // widths it accepts are checked on the header.
    assert!(text.contains("bone_index_size:\n    value: 'header.globals[5]'"));
    assert!(text.contains("is_v21:\n    value: 'header.version > 2.05'"));
    assert!(text.contains("(_.globals[5] == 1 or _.globals[5] == 2 or _.globals[5] == 4)"));
    let text = ksy_of::<mmd_formats::vmd::Vmd>();
    assert!(text.contains("type: morph_keys_block\n    if: 'not _io.eof'"));
    assert!(text.contains("type: 'model_name(version)'"));
    // PMD's counts collide with the fields they count: the instances take the context's name.
    let text = ksy_of::<mmd_formats::pmd::Pmd>();
    assert!(text.contains("pmd_counts_bones:\n    value: bones.size"));
    assert!(text.contains("repeat-expr: _root.pmd_counts_bones"));
}

#[test]
fn names() {
    assert_eq!(snake("AdditionalUv1"), "additional_uv1");
    assert_eq!(snake("IkLink"), "ik_link");
    assert_eq!(snake("V1"), "v1");
    assert_eq!(ident("shared-toon flag"), "shared_toon_flag");
    assert_eq!(ident("VMD version"), "vmd_version");
}
