//! What the library serializes, made into JavaScript values directly:
//! objects (their keys in camelCase, as the package spells every key:
//! `address_class` is `addressClass`), arrays, strings, numbers, booleans
//! and `null`. A check's report reaches JavaScript this way, with the
//! shape of `iri check --json`'s and no JSON text in between.

use std::cell::RefCell;
use std::fmt;

use js_sys::{Array, Object, Reflect};
use serde::ser::{self, Impossible, Serialize};
use wasm_bindgen::JsValue;

/// `value` as a JavaScript value; an `Error` for what has no plain
/// JavaScript form (bytes, enum variants with data, non-string keys).
pub(crate) fn to_js(value: &impl Serialize) -> Result<JsValue, JsValue> {
    value
        .serialize(Js)
        .map_err(|e| js_sys::Error::new(&e.0).into())
}

/// Why a value has no JavaScript form.
#[derive(Debug)]
pub(crate) struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Error(message.to_string())
    }
}

fn unsupported(what: &str) -> Error {
    Error(format!("{what} has no JavaScript form here"))
}

/// `key` in camelCase: each `_` dropped and the letter after it in
/// uppercase.
fn camel_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.push(c.to_ascii_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

thread_local! {
    /// Field names in camelCase as JS strings, made once per name: decoding
    /// a string out of the module's memory costs more than setting it.
    static FIELD_KEYS: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// The JS string of the field `key`, in camelCase.
fn field_key(key: &'static str) -> JsValue {
    FIELD_KEYS.with(|keys| {
        let mut keys = keys.borrow_mut();
        if let Some((_, v)) = keys.iter().find(|(k, _)| *k == key) {
            return v.clone();
        }
        let v = JsValue::from_str(&camel_case(key));
        keys.push((key, v.clone()));
        v
    })
}

/// The serializer.
struct Js;

/// Numbers become JavaScript numbers (offsets and counts, far below 2^53).
macro_rules! numbers {
    ($($method:ident: $ty:ty),* $(,)?) => {
        $(
            fn $method(self, v: $ty) -> Result<JsValue, Error> {
                Ok(JsValue::from_f64(v as f64))
            }
        )*
    };
}

impl ser::Serializer for Js {
    type Ok = JsValue;
    type Error = Error;
    type SerializeSeq = Elements;
    type SerializeTuple = Elements;
    type SerializeTupleStruct = Elements;
    type SerializeTupleVariant = Impossible<JsValue, Error>;
    type SerializeMap = Fields;
    type SerializeStruct = Fields;
    type SerializeStructVariant = Impossible<JsValue, Error>;

    numbers!(
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_f32: f32,
        serialize_f64: f64,
    );

    fn serialize_bool(self, v: bool) -> Result<JsValue, Error> {
        Ok(JsValue::from_bool(v))
    }

    fn serialize_char(self, v: char) -> Result<JsValue, Error> {
        Ok(JsValue::from_str(v.encode_utf8(&mut [0; 4])))
    }

    fn serialize_str(self, v: &str) -> Result<JsValue, Error> {
        Ok(JsValue::from_str(v))
    }

    fn serialize_bytes(self, _: &[u8]) -> Result<JsValue, Error> {
        Err(unsupported("a byte string"))
    }

    fn serialize_none(self) -> Result<JsValue, Error> {
        Ok(JsValue::NULL)
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<JsValue, Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<JsValue, Error> {
        Ok(JsValue::NULL)
    }

    fn serialize_unit_struct(self, _: &'static str) -> Result<JsValue, Error> {
        Ok(JsValue::NULL)
    }

    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<JsValue, Error> {
        Ok(JsValue::from_str(variant))
    }

    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<JsValue, Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: &T,
    ) -> Result<JsValue, Error> {
        Err(unsupported(variant))
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Elements, Error> {
        Ok(Elements(Array::new()))
    }

    fn serialize_tuple(self, _: usize) -> Result<Elements, Error> {
        Ok(Elements(Array::new()))
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Elements, Error> {
        Ok(Elements(Array::new()))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(unsupported(variant))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Fields, Error> {
        Ok(Fields::new())
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields, Error> {
        Ok(Fields::new())
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(unsupported(variant))
    }
}

/// An array being filled.
pub(crate) struct Elements(Array);

impl Elements {
    fn push<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        self.0.push(&value.serialize(Js)?);
        Ok(())
    }
}

/// The three ways serde fills an array.
macro_rules! elements {
    ($($kind:ident::$method:ident),* $(,)?) => {
        $(
            impl ser::$kind for Elements {
                type Ok = JsValue;
                type Error = Error;

                fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
                    self.push(value)
                }

                fn end(self) -> Result<JsValue, Error> {
                    Ok(self.0.into())
                }
            }
        )*
    };
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
);

/// An object being filled, and the key of a map entry whose value is next.
pub(crate) struct Fields {
    object: JsValue,
    key: Option<JsValue>,
}

impl Fields {
    fn new() -> Fields {
        Fields {
            object: Object::new().into(),
            key: None,
        }
    }

    fn set<T: ?Sized + Serialize>(&self, key: &JsValue, value: &T) -> Result<(), Error> {
        // Setting a property of a plain object cannot fail.
        let _ = Reflect::set(&self.object, key, &value.serialize(Js)?);
        Ok(())
    }
}

impl ser::SerializeMap for Fields {
    type Ok = JsValue;
    type Error = Error;

    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), Error> {
        let key = key.serialize(Js)?;
        match key.as_string() {
            Some(k) => self.key = Some(JsValue::from_str(&camel_case(&k))),
            None => return Err(unsupported("a key that is not a string")),
        }
        Ok(())
    }

    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| unsupported("a value without a key"))?;
        self.set(&key, value)
    }

    fn end(self) -> Result<JsValue, Error> {
        Ok(self.object)
    }
}

impl ser::SerializeStruct for Fields {
    type Ok = JsValue;
    type Error = Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.set(&field_key(key), value)
    }

    fn end(self) -> Result<JsValue, Error> {
        Ok(self.object)
    }
}

#[cfg(test)]
mod tests {
    use super::camel_case;

    #[test]
    fn keys_in_camel_case() {
        assert_eq!(camel_case("address_class"), "addressClass");
        assert_eq!(camel_case("code"), "code");
        assert_eq!(camel_case("host_type"), "hostType");
    }
}
