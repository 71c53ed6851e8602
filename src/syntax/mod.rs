//! The pest parsers (one per profile) and the lowering of their pairs.
//!
//! Private: pest's `Rule` enums change whenever the grammar does, so nothing
//! of pest leaves this module. Callers get offsets ([`lower::Meta`]), a
//! [`crate::SyntaxTree`], or a [`crate::ParseError`].
//!
//! Every parse starts at a generated `WHOLE_x = { SOI ~ x ~ EOI }` rule, so a
//! rule matches only when it consumes the whole input, and a failure reports
//! the furthest position pest reached, which is the first character that
//! cannot belong to a valid input.

pub(crate) mod generated;
pub(crate) mod lower;
pub(crate) mod tree;

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::{Parser as _, RuleType};

pub(crate) use generated::Sym;

use crate::error::ParseError;
use crate::{GrammarRule, Profile};

/// What to make of a successful parse: the pairs are handed over together
/// with the table from the profile's `Rule` to [`Sym`].
pub(crate) trait Visit {
    type Out;
    fn visit<R: RuleType>(self, pair: Pair<'_, R>, sym: fn(R) -> Option<Sym>) -> Self::Out;
}

/// The [`Visit`] of a parse whose only outcome is valid or not.
pub(crate) struct Validate;

impl Visit for Validate {
    type Out = ();

    fn visit<R: RuleType>(self, _: Pair<'_, R>, _: fn(R) -> Option<Sym>) {}
}

/// Runs `$body` with `$m` bound to the generated module of `$profile`.
macro_rules! with_profile {
    ($profile:expr, $m:ident => $body:expr) => {
        match $profile {
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

/// Whether `profile`'s grammar has `sym`.
pub(crate) fn has_rule(profile: Profile, sym: Sym) -> bool {
    with_profile!(profile, m => m::whole(sym).is_some())
}

/// Parses `input` as a whole with `rule` under `profile` and visits the pair
/// of the `WHOLE_` wrapper (its children: the rule's pair, then `EOI`).
pub(crate) fn parse<V: Visit>(
    profile: Profile,
    rule: GrammarRule,
    input: &str,
    visitor: V,
) -> Result<V::Out, ParseError> {
    with_profile!(profile, m => {
        let Some(whole) = m::whole(rule.0) else {
            return Err(ParseError::no_such_rule(input, profile, rule));
        };
        match m::Parser::parse(whole, input) {
            Ok(mut pairs) => {
                let pair = pairs
                    .next()
                    .unwrap_or_else(|| unreachable!("a successful parse yields its start rule's pair"));
                Ok(visitor.visit(pair, m::sym))
            }
            Err(e) => {
                let literals = expected_literals(|| m::Parser::parse(whole, input).map(|_| ()));
                Err(convert_error(e, input, profile, rule, m::sym, literals))
            }
        }
    })
}

/// The literal strings (such as "?", "#", "]") that could have stood at the
/// error position. pest records them only in its error-detail mode, which
/// costs time on every parse; so it is switched on for one more parse of an
/// input already known to fail. The switch is global: a parse running in
/// another thread meanwhile is merely slower, and if another thread switches
/// it off first, the list is empty and the report names only the rules.
fn expected_literals<R: RuleType>(
    reparse: impl FnOnce() -> Result<(), pest::error::Error<R>>,
) -> Literals {
    pest::set_error_detail(true);
    let again = reparse();
    pest::set_error_detail(false);
    let Err(e) = again else {
        return Literals::default();
    };
    let Some(attempts) = e.parse_attempts() else {
        return Literals::default();
    };
    let tokens: Vec<String> = attempts
        .expected_tokens()
        .iter()
        .map(|t| t.to_string())
        .collect();
    // HEXDIG's case-insensitive "A".."F" were expected: pest names only
    // HEXDIG's DIGIT alternative among the rules.
    let hex = tokens.iter().any(|t| t == "A");
    let strings = tokens
        .into_iter()
        // pest does not export its token type; its Display writes a string
        // token as itself, a range as "a..b" and a built-in rule as
        // BUILTIN_RULE. Keep the punctuation strings (but "%", which pct-encoded
        // says better): the letters and digits
        // are better said by the rules that contain them.
        .filter(|t| {
            !t.is_empty()
                && t != "%"
                && !t.contains("..")
                && !t.chars().any(|c| c.is_ascii_alphanumeric())
        })
        .collect();
    Literals { strings, hex }
}

/// What pest's error-detail mode adds to an error.
#[derive(Default)]
struct Literals {
    /// The punctuation strings expected at the position.
    strings: Vec<String>,
    /// Whether a hexadecimal digit was expected there.
    hex: bool,
}

/// Whether `rule` matches the whole of `input`: a bare pest parse, without
/// the error report a failure would otherwise build (which parses again).
fn matches(profile: Profile, rule: GrammarRule, input: &str) -> bool {
    with_profile!(profile, m => {
        m::whole(rule.0).is_some_and(|whole| m::Parser::parse(whole, input).is_ok())
    })
}

fn convert_error<R: RuleType>(
    e: pest::error::Error<R>,
    input: &str,
    profile: Profile,
    rule: GrammarRule,
    sym: fn(R) -> Option<Sym>,
    literals: Literals,
) -> ParseError {
    let byte = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    let mut expected: Vec<Sym> = Vec::new();
    let mut end_allowed = false;
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        for &r in positives {
            match sym(r) {
                Some(s) => expected.push(s),
                // pest's built-in end-of-input rule.
                None if format!("{r:?}") == "EOI" => end_allowed = true,
                // The WHOLE_ wrapper: pest folded the attempts inside the
                // start rule into it.
                None => expected.push(rule.0),
            }
        }
    }
    if literals.hex {
        for s in &mut expected {
            if *s == Sym::DIGIT {
                *s = Sym::HEXDIG;
            }
        }
    }
    expected.sort();
    expected.dedup();
    // A literal that one of the expected rules matches says nothing more
    // (":" beside ipchar, "." beside iunreserved): keep the others.
    let literals = literals
        .strings
        .into_iter()
        .filter(|l| {
            !expected
                .iter()
                .any(|&r| matches(profile, GrammarRule(r), l))
        })
        .collect();
    ParseError::new(input, byte, profile, rule, expected, literals, end_allowed)
}
