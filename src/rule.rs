//! Grammar rules by name, for parsing at any rule.

use core::fmt;

use crate::profile::Profile;
use crate::syntax::Sym;

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
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GrammarRule(pub(crate) Sym);

impl GrammarRule {
    /// `IRI-reference`, the default start rule.
    pub const IRI_REFERENCE: GrammarRule = GrammarRule(Sym::IRI_reference);
    /// `IRI`.
    pub const IRI: GrammarRule = GrammarRule(Sym::IRI);
    /// `absolute-IRI`.
    pub const ABSOLUTE_IRI: GrammarRule = GrammarRule(Sym::absolute_IRI);
    /// `irelative-ref`.
    pub const IRELATIVE_REF: GrammarRule = GrammarRule(Sym::irelative_ref);

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

    /// Whether `input` matches this rule under `profile`, as a whole: the
    /// verdict of [`IriRef::parse`](crate::IriRef::parse) and
    /// [`Components::parse`](crate::Components::parse) without the
    /// components or an error (the rule's DFA alone, for every rule of the
    /// grammar). A rule by its 3987bis name stands for the profile's own
    /// (`IRI-reference` is `URI-reference` under `rfc3986`); one the
    /// profile does not have matches nothing.
    ///
    /// ```
    /// use iribis::{GrammarRule, Profile};
    ///
    /// let bis = Profile::Rfc3987bis;
    /// assert!(GrammarRule::IRI_REFERENCE.matches("../résumé#s", bis));
    /// assert!(!GrammarRule::IRI.matches("../résumé#s", bis));
    /// assert!(!GrammarRule::IRI.matches("http://例え.jp/", Profile::Rfc3986));
    /// let ipv4 = GrammarRule::from_name("IPv4address").unwrap();
    /// assert!(ipv4.matches("192.0.2.1", bis) && !ipv4.matches("192.0.2.256", bis));
    /// ```
    pub fn matches(self, input: &str, profile: Profile) -> bool {
        crate::fast::dfa_accepts(input, self, profile)
            .unwrap_or_else(|| crate::syntax::pest_accepts(input, self, profile))
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
    pub fn is_in(self, profile: Profile) -> bool {
        crate::syntax::has_rule(profile, self.0)
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
