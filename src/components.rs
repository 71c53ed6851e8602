//! Components of a parse at any rule.

use crate::error::ParseError;
use crate::host::Host;
use core::fmt;

use crate::iri::{slice, typed_host};
use crate::meta::Meta;
use crate::profile::Profile;
use crate::rule::GrammarRule;
use crate::syntax::lower::Lower;
use crate::syntax::{self, Sym};

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

/// The component a position belongs to.
///
/// ```
/// use iribis::{Component, IriRef};
///
/// let err = IriRef::parse("http://[::1]:8o/").unwrap_err();
/// assert_eq!(err.component(), Component::Port);
/// assert_eq!(err.byte(), 14);
/// assert_eq!(err.component().name(), "port");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// `scheme`.
    Scheme,
    /// `iauthority`, where it is not yet known whether a character belongs to
    /// the userinfo, the host or the port.
    Authority,
    /// `iuserinfo`.
    Userinfo,
    /// `ihost`.
    Host,
    /// `port`.
    Port,
    /// One of the `ipath` rules.
    Path,
    /// `iquery`.
    Query,
    /// `ifragment`.
    Fragment,
    /// The input as a whole: for start rules below the component level.
    Input,
}

impl Component {
    /// The component's name in messages and JSON: `scheme`, `authority`,
    /// `userinfo`, `host`, `port`, `path`, `query`, `fragment` or `input`.
    pub fn name(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::Authority => "authority",
            Component::Userinfo => "userinfo",
            Component::Host => "host",
            Component::Port => "port",
            Component::Path => "path",
            Component::Query => "query",
            Component::Fragment => "fragment",
            Component::Input => "input",
        }
    }

    /// The component a start rule below the reference level is about.
    pub(crate) fn of_rule(sym: Sym) -> Component {
        use Sym::*;
        match sym {
            scheme => Component::Scheme,
            iauthority | authority => Component::Authority,
            iuserinfo | userinfo => Component::Userinfo,
            ihost | host | ireg_name | reg_name | IP_literal | IPv4address | IPv6address
            | IPvFuture | h16 | ls32 | dec_octet => Component::Host,
            port => Component::Port,
            ipath | ipath_abempty | ipath_absolute | ipath_noscheme | ipath_rootless
            | ipath_empty | path | path_abempty | path_absolute | path_noscheme | path_rootless
            | path_empty | isegment | isegment_nz | isegment_nz_nc | segment | segment_nz
            | segment_nz_nc => Component::Path,
            iquery | query => Component::Query,
            ifragment | fragment => Component::Fragment,
            _ => Component::Input,
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
