//! Readings serialized (the `serde` feature): the `readings` and
//! `differences` of `iri parse --readings --json`, whose shape
//! `docs/schema/components.json` gives (`$defs/reading`, `$defs/readings`).

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::{Difference, ReadHost, Reader, Reading, Readings, Rejection};

/// One reader's components: `scheme`, `userinfo`, `host` (as the reader
/// writes it), `host_type` ([`ReadHost::kind_name`]), `address_class`,
/// `port`, `path`, `query` and `fragment`, each `null` where it reads none.
///
/// ```
/// use iribis::IriRef;
/// use iribis::readings::readings;
///
/// let all = readings(&IriRef::parse("http://0x7f.1/a")?);
/// let whatwg = all.whatwg.unwrap().unwrap();
/// assert_eq!(
///     serde_json::to_string(&whatwg).unwrap(),
///     r#"{"scheme":"http","userinfo":null,"host":"127.0.0.1","host_type":"ipv4","address_class":"loopback","port":null,"path":"/a","query":null,"fragment":null}"#
/// );
/// # Ok::<(), iribis::ParseError>(())
/// ```
impl Serialize for Reading {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(9))?;
        map.serialize_entry("scheme", &self.scheme)?;
        map.serialize_entry("userinfo", &self.userinfo)?;
        map.serialize_entry("host", &self.host.as_ref().map(ToString::to_string))?;
        map.serialize_entry("host_type", &self.host.as_ref().map(ReadHost::kind_name))?;
        let class = self.host.as_ref().and_then(ReadHost::address_class);
        map.serialize_entry("address_class", &class.map(|c| c.name()))?;
        map.serialize_entry("port", &self.port)?;
        map.serialize_entry("path", &self.path)?;
        map.serialize_entry("query", &self.query)?;
        map.serialize_entry("fragment", &self.fragment)?;
        map.end()
    }
}

/// A reader's refusal: `{"error": message}`.
impl Serialize for Rejection {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("error", &self.message)?;
        map.end()
    }
}

/// Every reading of an input and where they part, serialized: an object
/// with `readings` (each reader of [`Reader::ALL`] by name: its
/// [`Reading`], its [`Rejection`], or `null` when it does not read the
/// input) and `differences` (one object per [`Difference`]: `code`,
/// `component`, `byte` and `char` of the span's start, `len` in characters,
/// `readers`, `reached`, `address_class` and `message`). The input is
/// needed for the character offsets.
///
/// ```
/// use iribis::IriRef;
/// use iribis::readings::{readings, ReadingsJson};
///
/// let input = "http://0x7f.1/";
/// let all = readings(&IriRef::parse(input)?);
/// let json = serde_json::to_value(ReadingsJson::new(input, &all)).unwrap();
/// assert_eq!(json["readings"]["inet_aton"]["host"], "127.0.0.1");
/// assert_eq!(json["readings"]["decoded"], serde_json::Value::Null);
/// assert_eq!(json["differences"][0]["code"], "READING_HOST_DIFFERS");
/// assert_eq!(json["differences"][0]["char"], 7);
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ReadingsJson<'a> {
    input: &'a str,
    readings: &'a Readings,
}

impl<'a> ReadingsJson<'a> {
    /// The readings of `input`, to serialize.
    pub fn new(input: &'a str, readings: &'a Readings) -> Self {
        ReadingsJson { input, readings }
    }
}

impl Serialize for ReadingsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("readings", &ByReader(self.readings))?;
        let differences: Vec<DifferenceJson<'_>> = self
            .readings
            .differences()
            .iter()
            .map(|d| DifferenceJson {
                input: self.input,
                readings: self.readings,
                difference: d,
            })
            .collect();
        map.serialize_entry("differences", &differences)?;
        map.end()
    }
}

/// Each reader's reading, rejection or `null`, by reader name.
struct ByReader<'a>(&'a Readings);

impl Serialize for ByReader<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let all = self.0.all();
        let mut map = serializer.serialize_map(Some(Reader::ALL.len()))?;
        for reader in Reader::ALL {
            match all.iter().find(|(r, _)| *r == reader) {
                Some((_, Ok(reading))) => map.serialize_entry(reader.name(), reading)?,
                Some((_, Err(rejection))) => map.serialize_entry(reader.name(), rejection)?,
                None => map.serialize_entry(reader.name(), &())?,
            }
        }
        map.end()
    }
}

/// One difference, with the input its offsets are in.
struct DifferenceJson<'a> {
    input: &'a str,
    readings: &'a Readings,
    difference: &'a Difference,
}

impl Serialize for DifferenceJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (d, input) = (self.difference, self.input);
        let detail = self.readings.detail(d);
        let chars = |s: Option<&str>| s.map_or(0, |s| s.chars().count());
        let readers: Vec<&str> = d.readers.iter().map(|r| r.name()).collect();
        let mut map = serializer.serialize_map(Some(9))?;
        map.serialize_entry("code", d.code.name())?;
        map.serialize_entry("component", d.component.name())?;
        map.serialize_entry("byte", &d.start)?;
        map.serialize_entry("char", &chars(input.get(..d.start)))?;
        map.serialize_entry("len", &chars(input.get(d.start..d.end)))?;
        map.serialize_entry("readers", &readers)?;
        map.serialize_entry("reached", &detail.reached)?;
        map.serialize_entry("address_class", &detail.address_class.map(|c| c.name()))?;
        map.serialize_entry("message", &d.message)?;
        map.end()
    }
}
