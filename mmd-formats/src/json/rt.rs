//! Helpers that only the generated [`FromJson`](super::FromJson) impls call. Not a
//! stable interface.

use super::error::JsonError;
use super::from::{hex_object, FromJson};
use super::value::Json;
use crate::codec::Selected;
use crate::error::ContextFault;
use crate::path::Segment;
use crate::rt::{CountInt, ExprFault, ToLen};
use std::borrow::Cow;

/// The members of an object, found by the names of the fields they hold.
pub struct Fields<'j, 'a> {
    slots: Slots<'j, 'a>,
}

enum Slots<'j, 'a> {
    /// Every member, in field order (the form the dump prints).
    InOrder(&'j [(Cow<'a, str>, Json<'a>)]),
    /// Members in another order: each field's value.
    Found(Vec<&'j Json<'a>>),
}

impl<'j, 'a> Fields<'j, 'a> {
    /// The value of field `i` (every field is there: [`object`] checked).
    #[inline]
    pub fn get(&self, i: usize) -> &'j Json<'a> {
        match &self.slots {
            Slots::InOrder(members) => &members[i].1,
            Slots::Found(values) => values[i],
        }
    }
}

/// Checks that `json` is an object with exactly the members `names` (in any order; none
/// missing, none unknown, none twice) and gives their values by position.
#[inline]
pub fn object<'j, 'a>(
    json: &'j Json<'a>,
    type_name: &str,
    names: &'static [&'static str],
) -> Result<Fields<'j, 'a>, JsonError> {
    let Json::Object(members) = json else {
        return Err(JsonError::expected(
            &format!("an object (a {type_name})"),
            json,
        ));
    };
    if members.len() == names.len() && members.iter().zip(names).all(|((k, _), n)| k == n) {
        return Ok(Fields {
            slots: Slots::InOrder(members),
        });
    }
    reordered(members, type_name, names)
}

#[cold]
fn reordered<'j, 'a>(
    members: &'j [(Cow<'a, str>, Json<'a>)],
    type_name: &str,
    names: &'static [&'static str],
) -> Result<Fields<'j, 'a>, JsonError> {
    let mut found: Vec<Option<&'j Json<'a>>> = vec![None; names.len()];
    for (key, value) in members {
        let Some(i) = names.iter().position(|n| n == key) else {
            return Err(JsonError::new(format!(
                "unknown member `{key}` of a {type_name}; its members are {}",
                list(names)
            )));
        };
        if found[i].replace(value).is_some() {
            return Err(JsonError::new(format!("member `{key}` is given twice")));
        }
    }
    let mut values = Vec::with_capacity(names.len());
    for (name, value) in names.iter().zip(found) {
        match value {
            Some(v) => values.push(v),
            None => {
                return Err(JsonError::new(format!(
                    "missing member `{name}` of a {type_name}"
                )))
            }
        }
    }
    Ok(Fields {
        slots: Slots::Found(values),
    })
}

/// `a`, `b` and `c`.
fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => "none".into(),
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} and {last}", init.join(", ")),
    }
}

/// The variant of an enum value `{"Variant": body}`: its position in `names`, and its body.
#[inline]
pub fn variant<'j, 'a>(
    json: &'j Json<'a>,
    enum_name: &str,
    names: &'static [&'static str],
) -> Result<(usize, &'j Json<'a>), JsonError> {
    match json {
        Json::Object(members) if members.len() == 1 => {
            let (key, body) = &members[0];
            match names.iter().position(|n| n == key) {
                Some(i) => Ok((i, body)),
                None => Err(JsonError::new(format!(
                    "unknown variant `{key}` of {enum_name}; expected {}",
                    one_of(names)
                ))),
            }
        }
        other => Err(JsonError::expected(
            &format!(
                "a {enum_name} as {{\"Variant\": ..}}, one of {}",
                one_of(names)
            ),
            other,
        )),
    }
}

/// `a`, `b` or `c`.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => "none".into(),
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
    }
}

/// Checks a fixed signature: the string the dump prints (or `{"hex": ..}`).
pub fn magic(json: &Json<'_>, magic: &'static [u8]) -> Result<(), JsonError> {
    let ok = match json {
        Json::String(s) => s.as_bytes() == magic,
        Json::Object(_) => hex_object(json).is_ok_and(|b| b == magic),
        _ => false,
    };
    if ok {
        return Ok(());
    }
    Err(JsonError::new(format!(
        "expected the signature {}, found {}",
        crate::error::show_bytes(magic),
        json.describe()
    ))
    .in_field("magic"))
}

/// The value of an optional field: `None` for `null`.
#[inline]
pub fn present<'j, 'a>(json: &'j Json<'a>) -> Option<&'j Json<'a>> {
    match json {
        Json::Null => None,
        other => Some(other),
    }
}

/// The error for an optional field whose presence disagrees with its condition.
#[cold]
pub fn presence_mismatch(cond: &str, present: bool) -> JsonError {
    if present {
        JsonError::new(format!("expected null, because `{cond}` does not hold"))
    } else {
        JsonError::new(format!(
            "expected a value, because `{cond}` holds; found null"
        ))
    }
}

/// The error for a value after a field that is absent because the file ends there.
#[cold]
pub fn after_absent(absent: &str) -> JsonError {
    JsonError::new(format!(
        "expected null (or no bytes): `{absent}` is null, so the file ends there and \
         nothing may follow it"
    ))
}

/// A sequence preceded by a count of type `N`: the count follows the elements, and must
/// fit its type.
#[inline]
pub fn counted<N: CountInt, T: FromJson<C>, C: ?Sized, S: crate::seq::Seq<T>>(
    json: &Json<'_>,
    ctx: &C,
) -> Result<S, JsonError> {
    let items = T::seq_from_json(json, ctx)?;
    if N::write_count(items.len(), &mut Vec::with_capacity(8)).is_err() {
        return Err(JsonError::new(format!(
            "{} elements: the count before them is a {}, which cannot hold it",
            items.len(),
            N::NAME
        )));
    }
    Ok(S::from_values(items))
}

/// A sequence whose length an expression gives: it must have that length.
#[inline]
pub fn with_len<T: FromJson<C>, C: ?Sized, L: ToLen, S: crate::seq::Seq<T>>(
    json: &Json<'_>,
    ctx: &C,
    len: L,
    expr: &str,
) -> Result<S, JsonError> {
    let want = len
        .to_len()
        .map_err(|found| JsonError::new(format!("`{expr}` is {found}, not a length")))?;
    let items = T::seq_from_json(json, ctx)?;
    if items.len() as u64 != want {
        return Err(JsonError::new(format!(
            "expected {want} elements (`{expr}`), found {}",
            items.len()
        )));
    }
    Ok(S::from_values(items))
}

/// A sequence of any length (`rest` of values, `until`): what ends it in the file is
/// checked where it is written.
#[inline]
pub fn with_any_len<T: FromJson<C>, C: ?Sized, S: crate::seq::Seq<T>>(
    json: &Json<'_>,
    ctx: &C,
) -> Result<S, JsonError> {
    T::seq_from_json(json, ctx).map(S::from_values)
}

/// The bytes of a `rest` field.
pub fn rest(json: &Json<'_>) -> Result<Vec<u8>, JsonError> {
    hex_object(json)
}

/// Checks that a selected enum's variant is the one its selector picks.
#[inline]
pub fn selected<E: Selected<S>, S: PartialEq + std::fmt::Debug>(
    value: E,
    want: S,
    expr: &str,
) -> Result<E, JsonError> {
    let have = value.selector();
    if want == have {
        return Ok(value);
    }
    Err(JsonError::new(format!(
        "expected the variant for {want:?} (`{expr}` is {want:?}), found the variant for {have:?}"
    )))
}

/// The error for a context that cannot be computed from the fields built so far: at the
/// place the fault names, below the argument's field.
#[cold]
pub fn context_fault(
    fault: ContextFault,
    field: &'static str,
    arg_path: &'static [Segment],
) -> JsonError {
    let mut e = JsonError::new(format!("{}: expected {}", fault.found(), fault.expected()));
    for seg in arg_path.iter().chain(fault.place()).rev() {
        e = e.in_segment(*seg);
    }
    e.in_field(field)
}

/// The error for an expression of the grammar (a condition, length, selector or context
/// argument) that cannot be evaluated on the fields built so far: at `field`, and below it
/// at the place the fault names when the expression read from that field. `field` is
/// empty for a record of one unnamed field, whose path is its own.
#[cold]
pub fn expr_fault(fault: ExprFault, field: &'static str) -> JsonError {
    let mut e = JsonError::new(format!("{}: expected {}", fault.found, fault.expected));
    if fault.root == field {
        for seg in fault.place.iter().rev() {
            e = e.in_segment(*seg);
        }
    }
    if field.is_empty() {
        e
    } else {
        e.in_field(field)
    }
}

/// The error of a `switch_ctx` expression.
#[cold]
pub fn switch_error(e: crate::Error, field: &'static str) -> JsonError {
    JsonError::new(format!("the context after it cannot be computed: {e}")).in_field(field)
}
