//! Components of a parse at any rule.

use crate::error::ParseError;
use crate::host::Host;

use crate::iri::{AbsoluteIri, Iri, IriRef, ParseOptions, RelativeRef, slice, typed_host};
use crate::meta::Meta;
use crate::profile::Profile;
use crate::rule::{GrammarRule, Sym};
use crate::syntax;
use crate::syntax::lower::Lower;

/// Where it always was: the component of a position is named with the
/// components, and [`crate::rule`] defines it so that the errors need not
/// import this module.
pub(crate) use crate::rule::Component;

/// The components found by parsing at any start rule: all of them for the
/// reference-level rules, fewer below (`iauthority` gives userinfo, host and
/// port; `ihost` the host; `ipath` the path), none for character-level rules.
///
/// For the reference types use [`crate::iri::IriRef`] and its siblings; this is
/// for rule-level work such as `iri parse --rule`.
///
/// ```
/// use iribis::{Components, GrammarRule, Profile};
///
/// let rule = GrammarRule::from_name("iauthority").unwrap();
/// let c = Components::parse("user@[::1]:80", rule, Profile::default())?;
/// assert_eq!(c.userinfo(), Some("user"));
/// assert_eq!(c.host_str(), Some("[::1]"));
/// assert_eq!(c.port(), Some("80"));
/// assert_eq!(c.path(), None);
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Components<'a> {
    input: &'a str,
    meta: Meta,
}

impl<'a> Components<'a> {
    /// Parses the whole of `input` with `rule` as the start rule.
    ///
    /// The [reference rules](GrammarRule::references) take the fast path of
    /// [`IriRef::parse`] and its siblings (one DFA walk, then the
    /// delimiters), with the same components and errors as pest's parse of
    /// the rule; every other rule is parsed by pest. A URI rule (`URI`,
    /// `absolute-URI`...) is RFC 3986's under any profile.
    ///
    /// ```
    /// use iribis::{Components, GrammarRule, Profile};
    ///
    /// let c = Components::parse("//例え.jp?q", GrammarRule::IRELATIVE_REF, Profile::default())?;
    /// assert_eq!((c.host_str(), c.path(), c.query()), (Some("例え.jp"), Some(""), Some("q")));
    /// assert!(Components::parse("//例え.jp", GrammarRule::RELATIVE_REF, Profile::default()).is_err());
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn parse(input: &'a str, rule: GrammarRule, profile: Profile) -> Result<Self, ParseError> {
        let rule = rule.for_profile(profile);
        // A URI rule is the same in every profile (RFC 3986 Appendix A):
        // the fast path of the rfc3986 profile's IRI rule parses it.
        let (iri_rule, fast_profile) = match rule.0 {
            Sym::URI_reference => (Sym::IRI_reference, Profile::Rfc3986),
            Sym::URI => (Sym::IRI, Profile::Rfc3986),
            Sym::absolute_URI => (Sym::absolute_IRI, Profile::Rfc3986),
            Sym::relative_ref => (Sym::irelative_ref, Profile::Rfc3986),
            other => (other, profile),
        };
        let options = ParseOptions::new().profile(fast_profile);
        let reference = match iri_rule {
            Sym::IRI_reference => IriRef::parse_with(input, &options),
            Sym::IRI => Iri::parse_with(input, &options).map(IriRef::from),
            Sym::absolute_IRI => AbsoluteIri::parse_with(input, &options).map(IriRef::from),
            Sym::irelative_ref => RelativeRef::parse_with(input, &options).map(IriRef::from),
            _ => return Components::parse_by_pest(input, rule, profile),
        };
        match reference {
            Ok(r) => Ok(Components::from(r)),
            // The error of the rule under the profile asked for, as pest's
            // parse reports it (under an IRI profile, a URI rule's error
            // names the component, not the URI's ASCII-only rule).
            Err(_) if fast_profile != profile => Err(ParseError::deferred(input, profile, rule)),
            Err(e) => Err(e),
        }
    }

    /// The components of pest's parse of `input` at `rule`, without the
    /// fast path [`Components::parse`] takes for the reference rules: the
    /// reference the cross-check tests hold that path to.
    ///
    /// ```
    /// use iribis::{Components, GrammarRule, Profile};
    ///
    /// let (input, rule, bis) = ("http://h/p", GrammarRule::IRI, Profile::Rfc3987bis);
    /// assert_eq!(Components::parse_by_pest(input, rule, bis)?, Components::parse(input, rule, bis)?);
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    #[doc(hidden)]
    pub fn parse_by_pest(
        input: &'a str,
        rule: GrammarRule,
        profile: Profile,
    ) -> Result<Self, ParseError> {
        let meta = syntax::parse(profile, rule.for_profile(profile), input, Lower)?;
        Ok(Components { input, meta })
    }

    /// The scheme.
    pub fn scheme(&self) -> Option<&'a str> {
        slice(self.input, self.meta.scheme.get())
    }

    /// The authority.
    pub fn authority(&self) -> Option<&'a str> {
        slice(self.input, self.meta.authority.get())
    }

    /// The userinfo.
    pub fn userinfo(&self) -> Option<&'a str> {
        slice(self.input, self.meta.userinfo.get())
    }

    /// The host as written.
    pub fn host_str(&self) -> Option<&'a str> {
        slice(self.input, self.meta.host.get())
    }

    /// The host, by kind.
    pub fn host(&self) -> Option<Host<'a>> {
        let ((start, end), kind) = self.meta.host()?;
        Some(typed_host(&self.input[start..end], start, kind))
    }

    /// The port.
    pub fn port(&self) -> Option<&'a str> {
        slice(self.input, self.meta.port.get())
    }

    /// The path (`None` when the rule has none, unlike [`crate::iri::IriRef::path`]).
    pub fn path(&self) -> Option<&'a str> {
        slice(self.input, self.meta.path.get())
    }

    /// The query.
    pub fn query(&self) -> Option<&'a str> {
        slice(self.input, self.meta.query.get())
    }

    /// The fragment.
    pub fn fragment(&self) -> Option<&'a str> {
        slice(self.input, self.meta.fragment.get())
    }
}

/// The components of a parsed reference: what [`Components::parse`] at
/// `IRI-reference` gives, without parsing again.
///
/// ```
/// use iribis::{Components, IriRef};
///
/// let c = Components::from(IriRef::parse("http://h/p?q")?);
/// assert_eq!((c.host_str(), c.path(), c.query()), (Some("h"), Some("/p"), Some("q")));
/// # Ok::<(), iribis::ParseError>(())
/// ```
impl<'a> From<crate::iri::IriRef<&'a str>> for Components<'a> {
    fn from(r: crate::iri::IriRef<&'a str>) -> Self {
        let meta = *r.meta();
        Components {
            input: r.into_text(),
            meta,
        }
    }
}

/// The components as `iri parse --json` writes them (`docs/schema/components.json`):
/// an object with the keys `scheme`, `authority`, `userinfo`, `host`,
/// `host_type` (the [`Host::kind_name`]), `port`, `path`, `query` and
/// `fragment`, in that order. When the parse has a path (the reference
/// rules, whose path may be empty, and the path rules) every key is there,
/// `null` for an absent component; below that (`iauthority`, `ihost`...)
/// only the components found.
///
/// ```
/// use iribis::{Components, GrammarRule, IriRef, Profile};
///
/// let c = Components::from(IriRef::parse("http://[::1]/p?q")?);
/// assert_eq!(
///     serde_json::to_string(&c).unwrap(),
///     r#"{"scheme":"http","authority":"[::1]","userinfo":null,"host":"[::1]","host_type":"IPv6address","port":null,"path":"/p","query":"q","fragment":null}"#
/// );
/// let rule = GrammarRule::from_name("iauthority").unwrap();
/// let c = Components::parse("h:80", rule, Profile::default())?;
/// assert_eq!(
///     serde_json::to_string(&c).unwrap(),
///     r#"{"authority":"h:80","host":"h","host_type":"reg-name","port":"80"}"#
/// );
/// # Ok::<(), iribis::ParseError>(())
/// ```
#[cfg(feature = "serde")]
impl serde::Serialize for Components<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let fields = self.fields();
        let full = self.path().is_some();
        let mut map = serializer.serialize_map(None)?;
        for (key, value) in fields {
            if full || value.is_some() {
                map.serialize_entry(key, &value)?;
            }
        }
        map.end()
    }
}

impl<'a> Components<'a> {
    /// The components by their JSON keys, in the order of
    /// [`Components::KEYS`].
    #[cfg(feature = "serde")]
    fn fields(&self) -> [(&'static str, Option<&'a str>); 9] {
        let k = Self::KEYS;
        [
            (k[0], self.scheme()),
            (k[1], self.authority()),
            (k[2], self.userinfo()),
            (k[3], self.host_str()),
            (k[4], self.host().map(|h| h.kind_name())),
            (k[5], self.port()),
            (k[6], self.path()),
            (k[7], self.query()),
            (k[8], self.fragment()),
        ]
    }

    /// The keys of the components' JSON, in the order it writes them
    /// (`host_type` is the [`Host::kind_name`] of the host).
    ///
    /// ```
    /// assert_eq!(iribis::Components::KEYS[4], "host_type");
    /// ```
    pub const KEYS: [&'static str; 9] = [
        "scheme",
        "authority",
        "userinfo",
        "host",
        "host_type",
        "port",
        "path",
        "query",
        "fragment",
    ];
}
