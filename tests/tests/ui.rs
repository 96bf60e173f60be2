//! Compile-fail tests of `#[derive(Mmd)]`: each file under `tests/ui/` holds one mistake
//! (or, in `several_mistakes.rs`, several), and its `.stderr` holds the exact diagnostics,
//! read by hand: the span points at the offending token and the text says what is wrong and
//! where the attribute belongs. One mistake gives exactly one error.
//!
//! Where the mistake is a missing context, the error comes from rustc (an unmet trait
//! bound, with the `on_unimplemented` note of `IndexWidths` / `TextContext`), spanned at
//! the field's type. One known exception to "one mistake, one error": a type that declares
//! a context its fields cannot use (`wrong_context.rs`) gets one error from the reader and
//! one from the writer, both at the same field type. Another: a struct that names its parent
//! (`parent = Section`) held by a field without `with_parent` (`parent_not_passed.rs`) gets
//! one error at that field and one at each `parent.field` it names (the fields passed are
//! `NoFieldsPassed`).
//!
//! The expected output depends on the rustc version; regenerate with `TRYBUILD=overwrite`
//! and read every changed `.stderr` before keeping it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
