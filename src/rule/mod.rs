//! Grammar rules by name, for parsing at any rule, and the components the
//! rules are about.
//!
//! A leaf of the crate: it uses the profiles and nothing else, so that the
//! parsers (`syntax`), the DFAs (`fast`), the errors and the components can
//! all name rules and components without importing each other.

mod sym;

use core::fmt;
use core::str::FromStr;

use crate::profile::{Profile, UnknownName};
use sym::Origin;
pub(crate) use sym::Sym;

/// A rule of the grammar: any ABNF rule of draft-ietf-iri-3987bis-13 §2.2 and
/// §6.1 or of RFC 3986 Appendix A (and the RFC 5234 core rules they use).
///
/// Rules are named as the specs name them (`IPv6address`, `ireg-name`,
/// `absolute-IRI`); the pest spelling (`ireg_name`) is accepted too.
///
/// ```
/// use iribis::GrammarRule;
///
/// let rule = GrammarRule::from_name("ireg-name").unwrap();
/// assert_eq!(rule.abnf_name(), "ireg-name");
/// assert_eq!(rule.pest_name(), "ireg_name");
/// assert_eq!(GrammarRule::from_name("ireg_name"), Some(rule));
/// assert_eq!(GrammarRule::from_name("no-such-rule"), None);
/// assert_eq!("IRI".parse::<GrammarRule>(), Ok(GrammarRule::IRI));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GrammarRule(pub(crate) Sym);

/// The reference rules: 3987bis §2.2's four, then RFC 3986's.
const REFERENCES: [GrammarRule; 8] = [
    GrammarRule::IRI_REFERENCE,
    GrammarRule::IRI,
    GrammarRule::ABSOLUTE_IRI,
    GrammarRule::IRELATIVE_REF,
    GrammarRule::URI_REFERENCE,
    GrammarRule::URI,
    GrammarRule::ABSOLUTE_URI,
    GrammarRule::RELATIVE_REF,
];

impl GrammarRule {
    /// `IRI-reference`, the default start rule.
    pub const IRI_REFERENCE: GrammarRule = GrammarRule(Sym::IRI_reference);
    /// `IRI`.
    pub const IRI: GrammarRule = GrammarRule(Sym::IRI);
    /// `absolute-IRI`.
    pub const ABSOLUTE_IRI: GrammarRule = GrammarRule(Sym::absolute_IRI);
    /// `irelative-ref`.
    pub const IRELATIVE_REF: GrammarRule = GrammarRule(Sym::irelative_ref);
    /// `URI-reference` (RFC 3986 §4.1).
    pub const URI_REFERENCE: GrammarRule = GrammarRule(Sym::URI_reference);
    /// `URI` (RFC 3986 §3).
    pub const URI: GrammarRule = GrammarRule(Sym::URI);
    /// `absolute-URI` (RFC 3986 §4.3).
    pub const ABSOLUTE_URI: GrammarRule = GrammarRule(Sym::absolute_URI);
    /// `relative-ref` (RFC 3986 §4.2).
    pub const RELATIVE_REF: GrammarRule = GrammarRule(Sym::relative_ref);

    /// Finds a rule by its ABNF name (`ipath-abempty`) or pest name
    /// (`ipath_abempty`). ABNF rule names are case-insensitive (RFC 5234
    /// §2.1), so `ipv6address` finds `IPv6address`.
    pub fn from_name(name: &str) -> Option<GrammarRule> {
        Sym::ALL
            .iter()
            .find(|s| {
                s.abnf_name().eq_ignore_ascii_case(name) || s.pest_name().eq_ignore_ascii_case(name)
            })
            .map(|&s| GrammarRule(s))
    }

    /// The rule named `name` (as for [`GrammarRule::from_name`]) that
    /// `profile` parses for it ([`GrammarRule::in_profile`]): what a client
    /// given a profile and a rule name starts parsing at. The
    /// reference rules by their exact ABNF names are found without a search.
    ///
    /// ```
    /// use iribis::{GrammarRule, Profile};
    ///
    /// let iri = GrammarRule::lookup("IRI", Profile::Rfc3986)?;
    /// assert_eq!(iri, GrammarRule::URI);
    /// let err = GrammarRule::lookup("ihost", Profile::Rfc3986).unwrap_err();
    /// assert_eq!(err.to_string(), "the rfc3986 profile has no rule ihost");
    /// let err = GrammarRule::lookup("ihots", Profile::Rfc3987bis).unwrap_err();
    /// assert_eq!(err.to_string(), r#"unknown rule "ihots": did you mean ihost?"#);
    /// # Ok::<(), iribis::UnknownRule>(())
    /// ```
    pub fn lookup(name: &str, profile: Profile) -> Result<GrammarRule, UnknownRule> {
        let rule = REFERENCES
            .into_iter()
            .find(|r| r.abnf_name() == name)
            .map_or_else(|| name.parse(), Ok)
            .map_err(UnknownRule::Name)?;
        rule.in_profile(profile)
            .ok_or(UnknownRule::NotInProfile { rule, profile })
    }

    /// The reference rules, whose parses have every component: 3987bis
    /// §2.2's `IRI-reference`, `IRI`, `absolute-IRI` and `irelative-ref`,
    /// then RFC 3986's `URI-reference`, `URI`, `absolute-URI` and
    /// `relative-ref`.
    ///
    /// ```
    /// use iribis::GrammarRule;
    ///
    /// let names: Vec<&str> = GrammarRule::references().iter().map(|r| r.abnf_name()).collect();
    /// assert_eq!(names[..4], ["IRI-reference", "IRI", "absolute-IRI", "irelative-ref"]);
    /// assert_eq!(names[4..], ["URI-reference", "URI", "absolute-URI", "relative-ref"]);
    /// ```
    pub fn references() -> &'static [GrammarRule] {
        &REFERENCES
    }

    /// Whether this is one of the [reference rules](GrammarRule::references):
    /// its parses always have a path (possibly empty), and
    /// [`Components::parse`](crate::Components::parse) takes the fast path
    /// for it.
    ///
    /// ```
    /// use iribis::GrammarRule;
    ///
    /// assert!(GrammarRule::URI.is_reference());
    /// assert!(!GrammarRule::from_name("ihost").unwrap().is_reference());
    /// ```
    pub fn is_reference(self) -> bool {
        REFERENCES.contains(&self)
    }

    /// Every rule, in grammar order.
    pub fn all() -> impl Iterator<Item = GrammarRule> {
        Sym::ALL.iter().map(|&s| GrammarRule(s))
    }

    /// The ABNF name, as the specs print it (`ipath-abempty`).
    pub fn abnf_name(self) -> &'static str {
        self.0.abnf_name()
    }

    /// The pest name (`ipath_abempty`): the ABNF name with `-` written `_`.
    pub fn pest_name(self) -> &'static str {
        self.0.pest_name()
    }

    /// Whether `profile`'s grammar has this rule. The `rfc3986` profile has
    /// only the URI rules; `leiri-ucschar` is only in the `leiri` profile.
    ///
    /// ```
    /// use iribis::{GrammarRule, Profile};
    ///
    /// let ucschar = GrammarRule::from_name("leiri-ucschar").unwrap();
    /// assert!(ucschar.is_in(Profile::Leiri) && !ucschar.is_in(Profile::Rfc3987bis));
    /// assert!(GrammarRule::URI.is_in(Profile::Rfc3987bis));
    /// assert!(!GrammarRule::IRI.is_in(Profile::Rfc3986));
    /// ```
    pub fn is_in(self, profile: Profile) -> bool {
        match self.0.origin() {
            Origin::Rfc3986 => true,
            Origin::Iri => profile.is_iri(),
            Origin::Leiri => profile == Profile::Leiri,
        }
    }

    /// The rule `profile` parses for this one, if it has one: the rule
    /// itself, or under `rfc3986` the URI counterpart of an IRI
    /// reference-level rule (`IRI-reference` stands for `URI-reference`).
    ///
    /// ```
    /// use iribis::{GrammarRule, Profile};
    ///
    /// let iri = GrammarRule::IRI;
    /// assert_eq!(iri.in_profile(Profile::Rfc3986).unwrap().abnf_name(), "URI");
    /// let ihost = GrammarRule::from_name("ihost").unwrap();
    /// assert_eq!(ihost.in_profile(Profile::Rfc3986), None);
    /// assert_eq!(ihost.in_profile(Profile::Leiri), Some(ihost));
    /// ```
    pub fn in_profile(self, profile: Profile) -> Option<GrammarRule> {
        Some(self.for_profile(profile)).filter(|r| r.is_in(profile))
    }

    /// The rule a profile parses for this one: under `rfc3986`, the IRI
    /// reference-level rules stand for their URI counterparts.
    ///
    /// ```
    /// use iribis::{GrammarRule, Profile};
    ///
    /// assert_eq!(GrammarRule::IRI.for_profile(Profile::Rfc3986).abnf_name(), "URI");
    /// assert_eq!(GrammarRule::IRI.for_profile(Profile::Leiri), GrammarRule::IRI);
    /// ```
    pub fn for_profile(self, profile: Profile) -> GrammarRule {
        if profile.is_iri() {
            return self;
        }
        GrammarRule(match self.0 {
            Sym::IRI_reference => Sym::URI_reference,
            Sym::IRI => Sym::URI,
            Sym::absolute_IRI => Sym::absolute_URI,
            Sym::irelative_ref => Sym::relative_ref,
            other => other,
        })
    }
}

impl fmt::Display for GrammarRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abnf_name())
    }
}

/// A rule by its ABNF or pest name, as [`GrammarRule::from_name`] finds it;
/// an unknown name gets the closest rule names as suggestions.
///
/// ```
/// use iribis::GrammarRule;
///
/// assert_eq!("ipv6address".parse::<GrammarRule>().unwrap().abnf_name(), "IPv6address");
/// let err = "IPv6adress".parse::<GrammarRule>().unwrap_err();
/// assert_eq!(err.suggestions(), ["IPv6address", "IPv4address"]);
/// let err = "ipath-abmepty".parse::<GrammarRule>().unwrap_err();
/// assert_eq!(err.to_string(), r#"unknown rule "ipath-abmepty": did you mean ipath-abempty, path-abempty or ipath-empty?"#);
/// let err = "scheme-name".parse::<GrammarRule>().unwrap_err();
/// assert!(err.to_string().ends_with("use an ABNF rule name such as IRI-reference, IRI, absolute-IRI, ihost or IPv6address"));
/// ```
impl FromStr for GrammarRule {
    type Err = UnknownName;

    fn from_str(name: &str) -> Result<Self, UnknownName> {
        GrammarRule::from_name(name).ok_or_else(|| {
            UnknownName::among(
                "rule",
                name,
                Sym::ABNF_NAMES,
                "use an ABNF rule name such as IRI-reference, IRI, absolute-IRI, ihost or IPv6address",
            )
        })
    }
}

/// The error of [`GrammarRule::lookup`]: no rule has the name, or the
/// profile has not the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UnknownRule {
    /// No rule of any profile has this name.
    Name(UnknownName),
    /// The rule is not in the profile's grammar (`ihost` under `rfc3986`).
    NotInProfile {
        /// The rule found by the name.
        rule: GrammarRule,
        /// The profile that has no such rule.
        profile: Profile,
    },
}

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownRule::Name(e) => e.fmt(f),
            UnknownRule::NotInProfile { rule, profile } => {
                write!(f, "the {profile} profile has no rule {rule}")
            }
        }
    }
}

impl core::error::Error for UnknownRule {}

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
