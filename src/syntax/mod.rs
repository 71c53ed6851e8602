//! The pest parsers (one per profile) and the lowering of their pairs.
//!
//! Private: pest's `Rule` enums change whenever the grammar does, so nothing
//! of pest leaves this module. Callers get offsets ([`lower::Meta`]), a
//! [`crate::tree::SyntaxTree`], or a [`crate::error::ParseError`].
//!
//! Every parse starts at a generated `WHOLE_x = { SOI ~ x ~ EOI }` rule, so a
//! rule matches only when it consumes the whole input, and a failure reports
//! the furthest position pest reached, which is the first character that
//! cannot belong to a valid input.

pub(crate) mod generated;
pub(crate) mod lower;

use crate::prelude::*;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::{Parser as _, RuleType};

use crate::error::ParseError;
use crate::fast::dead::Dfa;
use crate::profile::Profile;
use crate::rule::{GrammarRule, Sym};

/// What to make of a successful parse: the pairs are handed over together
/// with the table from the profile's `Rule` to [`Sym`].
pub(crate) trait Visit {
    type Out;
    fn visit<R: RuleType>(self, pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>) -> Self::Out;
}

/// Runs `$body` with `$m` bound to the generated module whose parser
/// parses the rule `$sym` for `$profile` ([`parser_of`]).
macro_rules! with_parser {
    ($profile:expr_2021, $sym:expr_2021, $m:ident => $body:expr_2021) => {
        match parser_of($profile, $sym) {
            Profile::Rfc3987bis => {
                use generated::rfc3987bis as $m;
                $body
            }
            Profile::Rfc3987 => {
                use generated::rfc3987 as $m;
                $body
            }
            Profile::Rfc3986 => {
                use generated::rfc3986 as $m;
                $body
            }
            Profile::Leiri => {
                use generated::leiri as $m;
                $body
            }
        }
    };
}

/// The profile whose parser parses `sym` as a whole for `profile`: the
/// `rfc3986` one for a rule of `rfc3986.pest`, which every profile has and
/// has the same, and `profile`'s own for the rest. The IRI profiles'
/// parsers are derived without RFC 3986's own rules (`URI`, `authority`,
/// `path-abempty`, ...) and without `WHOLE_` wrappers for any RFC 3986
/// rule, so that those are compiled once, not four times.
fn parser_of(profile: Profile, sym: Sym) -> Profile {
    if generated::rfc3986::whole(sym).is_some() {
        Profile::Rfc3986
    } else {
        profile
    }
}

/// Whether `profile`'s parser has a `WHOLE_` wrapper for `sym`: what
/// [`GrammarRule::is_in`] says from the rule's grammar file alone.
#[cfg(test)]
fn has_rule(profile: Profile, sym: Sym) -> bool {
    with_parser!(profile, sym, m => m::whole(sym).is_some())
}

impl GrammarRule {
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
            .unwrap_or_else(|| pest_accepts(input, self, profile))
    }
}

/// Parses `input` as a whole with `rule` under `profile` and visits the pair
/// of the `WHOLE_` wrapper (its children: the rule's pair, then `EOI`).
pub(crate) fn parse<V: Visit>(
    profile: Profile,
    rule: GrammarRule,
    input: &str,
    visitor: V,
) -> Result<V::Out, ParseError> {
    with_parser!(profile, rule.0, m => {
        let Some(whole) = m::whole(rule.0) else {
            return Err(ParseError::no_such_rule(input, profile, rule));
        };
        // The rule's DFA rejects an invalid input in one walk, before pest's
        // token queue (some 240 bytes per input byte) is built for it.
        if Dfa::of(rule, profile).is_some_and(|dfa| !dfa.accepts_all(input)) {
            return Err(ParseError::deferred(input, profile, rule));
        }
        match m::Parser::parse(whole, input) {
            Ok(mut pairs) => {
                let pair = pairs
                    .next()
                    .unwrap_or_else(|| unreachable!("a successful parse yields its start rule's pair"));
                Ok(visitor.visit(pair, m::sym))
            }
            // The details (position, explanation) are worked out when first
            // asked for, from the rule's DFA and `attempts`.
            Err(_) => Err(ParseError::deferred(input, profile, rule)),
        }
    })
}

/// Whether the pest grammar of `profile` matches the whole of `input` with
/// `rule` (by its 3987bis name, as for `dfa_accepts`): pest alone, without
/// the DFA that `parse` consults first. For the cross-check tests and the
/// fuzz targets.
///
/// ```
/// use iribis::{pest_accepts, GrammarRule, Profile};
///
/// let ipv4 = GrammarRule::from_name("IPv4address").unwrap();
/// assert!(pest_accepts("255.0.0.1", ipv4, Profile::Rfc3986));
/// assert!(!pest_accepts("256.0.0.1", ipv4, Profile::Rfc3986));
/// assert!(!pest_accepts("例", GrammarRule::IRI_REFERENCE, Profile::Rfc3986));
/// ```
#[doc(hidden)]
pub fn pest_accepts(input: &str, rule: GrammarRule, profile: Profile) -> bool {
    let Some(rule) = rule.in_profile(profile) else {
        return false;
    };
    with_parser!(profile, rule.0, m => {
        m::whole(rule.0).is_some_and(|whole| m::Parser::parse(whole, input).is_ok())
    })
}

/// What pest's failure to parse `input` at `rule` says: the furthest
/// position it reached and the rules it tried there. `None` when the parse
/// succeeds or the profile has no such rule. pest's error-detail mode (the
/// literal strings it tried) is not used: it is a process-global switch, and
/// the report takes the characters that could have stood there from the DFA.
pub(crate) fn attempts(profile: Profile, rule: GrammarRule, input: &str) -> Option<Attempts> {
    with_parser!(profile, rule.0, m => {
        let whole = m::whole(rule.0)?;
        let e = m::Parser::parse(whole, input).err()?;
        Some(Attempts::of(e, rule, m::sym))
    })
}

/// The furthest position of a failed pest parse and the rules pest tried
/// there.
pub(crate) struct Attempts {
    /// The byte offset pest reports.
    pub(crate) byte: usize,
    /// The rules it tried there, sorted.
    pub(crate) expected: Vec<Sym>,
}

impl Attempts {
    fn of<R: RuleType>(
        e: pest::error::Error<R>,
        rule: GrammarRule,
        sym: fn(R) -> Option<Sym>,
    ) -> Self {
        let byte = match e.location {
            InputLocation::Pos(p) => p,
            InputLocation::Span((p, _)) => p,
        };
        let mut expected: Vec<Sym> = Vec::new();
        if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
            for &r in positives {
                match sym(r) {
                    Some(s) => expected.push(s),
                    // pest's built-in end-of-input rule: the DFA says
                    // whether the input may end there.
                    None if format!("{r:?}") == "EOI" => {}
                    // The WHOLE_ wrapper: pest folded the attempts inside the
                    // start rule into it.
                    None => expected.push(rule.0),
                }
            }
        }
        expected.sort();
        expected.dedup();
        Attempts { byte, expected }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule table of `src/rule/sym.rs` says which profiles have a rule
    /// as the parsers do.
    #[test]
    fn a_rule_is_in_the_profiles_whose_parsers_have_it() {
        for rule in GrammarRule::all() {
            for profile in Profile::ALL {
                assert_eq!(
                    rule.is_in(profile),
                    has_rule(profile, rule.0),
                    "{rule} in {profile}"
                );
            }
        }
    }
}
