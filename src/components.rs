//! Components of a parse at any rule.

use crate::iri::{host_of, slice};
use crate::syntax::lower::{Lower, Meta};
use crate::{syntax, GrammarRule, Host, ParseError, Profile};

/// The components found by parsing at any start rule: all of them for the
/// reference-level rules, fewer below (`iauthority` gives userinfo, host and
/// port; `ihost` the host; `ipath` the path), none for character-level rules.
///
/// For the reference types use [`crate::IriRef`] and its siblings; this is
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
    pub fn parse(input: &'a str, rule: GrammarRule, profile: Profile) -> Result<Self, ParseError> {
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
        host_of(self.input, &self.meta)
    }

    /// The port.
    pub fn port(&self) -> Option<&'a str> {
        slice(self.input, self.meta.port.get())
    }

    /// The path (`None` when the rule has none, unlike [`crate::IriRef::path`]).
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
impl<'a> From<crate::IriRef<&'a str>> for Components<'a> {
    fn from(r: crate::IriRef<&'a str>) -> Self {
        let meta = *r.meta();
        Components {
            input: r.into_text(),
            meta,
        }
    }
}
