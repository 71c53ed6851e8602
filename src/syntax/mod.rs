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
            Err(e) => Err(convert_error(e, input, profile, rule, m::sym)),
        }
    })
}

fn convert_error<R: RuleType>(
    e: pest::error::Error<R>,
    input: &str,
    profile: Profile,
    rule: GrammarRule,
    sym: fn(R) -> Option<Sym>,
) -> ParseError {
    let byte = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    let mut expected: Vec<Sym> = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            positives.iter().filter_map(|&r| sym(r)).collect()
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    expected.sort();
    expected.dedup();
    let end_allowed = matches!(&e.variant, ErrorVariant::ParsingError { positives, .. }
        if positives.iter().any(|&r| sym(r).is_none()));
    ParseError::new(input, byte, profile, rule, expected, end_allowed)
}
