//! Where a key repeats in a mapping. serde_yaml_ng finds a duplicate only after reading the key,
//! while building the mapping, so its error carries the position of the mapping, not of the key:
//! `line 1 column 1` for a key repeated at the top level. This second pass over the text checks
//! each key while the key is being read, so the error serde_yaml_ng raises from inside the key
//! carries the key's own line and column.

use std::cell::RefCell;
use std::fmt;

use serde::Deserializer;
use serde::de::{
    self, DeserializeSeed, EnumAccess, IgnoredAny, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use super::error::{FieldError, field_path};

/// The first repeated key in `text`, at its own position; `None` when the pass finds none (then
/// the caller keeps serde_yaml_ng's own error).
pub(super) fn duplicate_key(text: &str) -> Option<FieldError> {
    let found = RefCell::new(None);
    let error = serde_yaml_ng::Deserializer::from_str(text)
        .deserialize_any(Walk {
            path: &[],
            found: &found,
        })
        .err()?;
    let path: Vec<String> = found.into_inner()?;
    let at = error.location()?;
    Some(FieldError::new(
        field_path(&path),
        format!(
            "duplicate key at line {} column {}; a key may appear once",
            at.line(),
            at.column()
        ),
    ))
}

/// A mapping key, as far as telling two apart goes; a key that is a list, a mapping or a tagged
/// value is never taken for a duplicate.
#[derive(PartialEq)]
enum Key {
    Null,
    Bool(bool),
    Signed(i64),
    Unsigned(u64),
    Float(u64),
    String(String),
    Other,
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Null => f.write_str("null"),
            Key::Bool(b) => write!(f, "{b}"),
            Key::Signed(n) => write!(f, "{n}"),
            Key::Unsigned(n) => write!(f, "{n}"),
            Key::Float(bits) => write!(f, "{}", f64::from_bits(*bits)),
            Key::String(s) => f.write_str(s),
            Key::Other => f.write_str("?"),
        }
    }
}

/// Walks any value, checking the keys of every mapping in it; records the path of the first
/// duplicate in `found`.
#[derive(Clone, Copy)]
struct Walk<'a> {
    path: &'a [String],
    found: &'a RefCell<Option<Vec<String>>>,
}

impl Walk<'_> {
    fn below(&self, segment: String) -> Vec<String> {
        let mut path = self.path.to_vec();
        path.push(segment);
        path
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut index = 0usize;
        loop {
            let path = self.below(index.to_string());
            let item = Walk {
                path: &path,
                found: self.found,
            };
            if seq.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = Vec::new();
        while let Some(key) = map.next_key_seed(KeySeed {
            walk: self,
            seen: &seen,
        })? {
            let path = self.below(key.to_string());
            map.next_value_seed(Walk {
                path: &path,
                found: self.found,
            })?;
            seen.push(key);
        }
        Ok(())
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        // A tagged value (`!tag value`): the tag is the variant, the value its content.
        let (IgnoredAny, content) = data.variant()?;
        content.newtype_variant_seed(self)
    }
}

/// Reads one key of a mapping, failing from inside the key when it is one of `seen`.
struct KeySeed<'a> {
    walk: Walk<'a>,
    seen: &'a [Key],
}

impl KeySeed<'_> {
    fn check<E: de::Error>(self, key: Key) -> Result<Key, E> {
        if key != Key::Other && self.seen.contains(&key) {
            *self.walk.found.borrow_mut() = Some(self.walk.below(key.to_string()));
            return Err(E::custom("duplicate key"));
        }
        Ok(key)
    }
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a mapping key")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Key, E> {
        self.check(Key::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Key, E> {
        self.check(Key::Signed(n))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Key, E> {
        self.check(Key::Unsigned(n))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Key, E> {
        self.check(Key::Float(n.to_bits()))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
        self.check(Key::String(s.to_string()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Key, E> {
        self.check(Key::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Key, E> {
        self.check(Key::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Key, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Key::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Key, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Key::Other)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Key, A::Error> {
        let (IgnoredAny, content) = data.variant()?;
        content.newtype_variant::<IgnoredAny>()?;
        Ok(Key::Other)
    }
}
