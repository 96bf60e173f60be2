//! With the `serde` feature: the untyped tree from any deserializer, and the `serde`
//! impls every derived type gets (`Serialize` through the walk, `Deserialize` through
//! [`FromJson`]), in the one JSON shape of this module.

use super::from::FromJson;
use super::value::{Json, Number};
use crate::walk::{Value, Walk};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(match u64::try_from(v) {
            Ok(u) => Number::U64(u),
            Err(_) => Number::I64(v),
        }))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(Number::U64(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json<'de>, E> {
        Ok(Json::Number(Number::F64(v)))
    }
    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v)))
    }
    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }
    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        Json::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            members.push((key, map.next_value()?));
        }
        Ok(Json::Object(members))
    }
}

/// The body of every derived `Serialize`: the walked tree, in the JSON shape of this
/// module.
pub fn serialize<T: Walk + ?Sized, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    Value::of(value).serialize(s)
}

/// The body of every derived `Deserialize` (of a type built with the `()` context).
pub fn deserialize<'de, T: FromJson<()>, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    let json = Json::deserialize(d)?;
    T::from_json(&json, &()).map_err(de::Error::custom)
}

/// Deserializes a `T` that is built with a context (`Bone` with the PMX context):
/// serde's [`DeserializeSeed`] with the context.
///
pub struct Seed<'c, T, C: ?Sized> {
    ctx: &'c C,
    _value: PhantomData<fn() -> T>,
}

impl<'c, T, C: ?Sized> Seed<'c, T, C> {
    /// A seed that builds a `T` with `ctx`.
    pub fn new(ctx: &'c C) -> Self {
        Seed {
            ctx,
            _value: PhantomData,
        }
    }
}

impl<'de, T: FromJson<C>, C: ?Sized> DeserializeSeed<'de> for Seed<'_, T, C> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        let json = Json::deserialize(d)?;
        T::from_json(&json, self.ctx).map_err(de::Error::custom)
    }
}
