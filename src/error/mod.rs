//! Parse errors: where an input stops being valid, in which component, and
//! what would have been allowed there.
//!
//! Split the way the data of an error is kept apart from its formatting:
//! this module holds the data ([`ParseError`], [`ErrorKind`]); `diagnose`
//! works the details out of the DFAs and pest when first asked for; `report`
//! writes them in words (the one-line `Display`, the message, the caret
//! report).

mod diagnose;
mod report;

use crate::nostd::OnceLock;
use crate::prelude::*;
use core::fmt;

use crate::profile::Profile;
use crate::rule::{Component, GrammarRule};

/// What is wrong at the error's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ends where more is required, e.g. `http://[::1`.
    UnexpectedEnd,
    /// A `%` not followed by two hexadecimal digits, e.g. `%zz` or a final `%4`.
    InvalidPercentEncoding,
    /// The rule needs a scheme and the input has none (`IRI`, `absolute-IRI`):
    /// e.g. `//example.org/` parsed as an IRI.
    MissingScheme,
    /// A character a scheme cannot have, e.g. `1http:` or `ht tp:`.
    InvalidScheme {
        /// The offending character.
        ch: char,
    },
    /// A colon in the first segment of a relative path, which would be read
    /// as a scheme delimiter, e.g. `1a:b` (3987bis §2.2, `ipath-noscheme`).
    ColonInFirstSegment,
    /// A port with a character other than a digit, e.g. `http://h:8o/`.
    InvalidPort {
        /// The offending character.
        ch: char,
    },
    /// A malformed IP literal, e.g. `[1::2::3]` or `[v1]`.
    InvalidIpLiteral {
        /// The offending character.
        ch: char,
    },
    /// A private-use character (`iprivate`) outside the query, e.g.
    /// U+E000 in a path.
    PrivateUseOutsideQuery {
        /// The offending character.
        ch: char,
    },
    /// A non-ASCII character under the `rfc3986` profile.
    NonAsciiInUri {
        /// The offending character.
        ch: char,
    },
    /// A non-ASCII character that is neither `ucschar` nor `iprivate`:
    /// noncharacters such as U+FDD0 or U+FFFE, specials such as U+FFF9.
    NotUcschar {
        /// The offending character.
        ch: char,
    },
    /// Any other character that the component cannot have, e.g. a space or
    /// `<` in a path, a second `#`, a `[` outside an IP literal.
    DisallowedCharacter {
        /// The offending character.
        ch: char,
    },
    /// The start rule is not part of the profile's grammar (a URI rule is in
    /// every profile; the IRI rules are not in `rfc3986`).
    NoSuchRule,
}

/// One thing that could have stood at an error's position: an item of
/// [`ParseError::expected_all`], the one list that every report renders
/// (the caret line of [`ParseError::report`] joins the items in words; the
/// JSON output of `iri` has them as an array of strings).
///
/// Its `Display` is the item as reports write it: a literal in double
/// quotes (`"?"`), a rule by its ABNF name (`ipchar`), and the end of the
/// input as `the end` (which no rule name, having no space, and no
/// literal, being quoted, can be).
///
/// ```
/// use iribis::{Expected, IriRef};
///
/// let err = IriRef::parse("http://example.org/a b").unwrap_err();
/// let items: Vec<String> = err.expected_all().iter().map(Expected::to_string).collect();
/// assert_eq!(items, ["\"#\"", "\"?\"", "path-sep", "ipchar", "the end"]);
/// assert!(err.report().ends_with("expected \"#\", \"?\", path-sep, ipchar or the end"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Expected {
    /// A literal string, such as `"?"` or `"]"`.
    Literal(String),
    /// A rule of the grammar, such as `ipchar` or `IPv6address`.
    Rule(GrammarRule),
    /// The end of the input: the input could have ended there.
    End,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::Literal(l) => write!(f, "{l:?}"),
            Expected::Rule(r) => f.write_str(r.abnf_name()),
            Expected::End => f.write_str("the end"),
        }
    }
}

/// Why an input does not match a rule: where, in which component, what was
/// expected.
///
/// The position is that of the first character that cannot belong to any
/// valid input (the end of the input when it ends too early), as a byte offset
/// and as a character offset (0-based, counting Unicode scalar values).
/// `Display` is one line; [`report`](ParseError::report) shows the input
/// with a caret under that character.
///
/// ```
/// use iribis::{Component, ErrorKind, IriRef};
///
/// let err = IriRef::parse("http://例え.jp/a b?q#f").unwrap_err();
/// assert_eq!((err.byte(), err.char()), (18, 14));
/// assert_eq!(err.component(), Component::Path);
/// assert_eq!(err.kind(), ErrorKind::DisallowedCharacter { ch: ' ' });
/// assert_eq!(err.message(), "a space is not allowed in a path: percent-encode it as %20");
/// assert_eq!(
///     err.to_string(),
///     "invalid IRI reference at character 14: a space is not allowed in a path: percent-encode it as %20"
/// );
/// // The caret is placed by display width: 例 and え are two columns each.
/// let report = err.report();
/// assert!(report.lines().any(|l| l == format!("  | {}^ expected \"#\", \"?\", path-sep, ipchar or the end", " ".repeat(16))));
/// // The noun follows the start rule: "IRI reference", "IRI", "IPv6 address"...
/// let err = iribis::Iri::parse("../a b").unwrap_err();
/// assert!(err.to_string().starts_with("invalid IRI at character 0: "));
/// ```
///
/// An input that the fast path (`IriRef::parse` and its siblings) rejects
/// gets its position and explanation from the pest parser only when one of
/// them is first asked for: rejecting costs a DFA walk, a copy of the
/// input and the error's box, and the report (tens of microseconds of pest
/// parsing) is built once, on demand, and kept.
#[derive(Clone)]
pub struct ParseError {
    /// Boxed, so that the error is one pointer. With the fields in place
    /// (56 bytes), building the `Result` of `IriRef::parse` copied the
    /// reference through the stack: 70 instructions more for a URL of the
    /// parse bench (639.3 instead of 569.8) and 4 % more time
    /// (docs/performance.md). Rejecting pays one allocation more.
    inner: Box<ErrorInner>,
}

/// What a [`ParseError`] holds.
#[derive(Clone)]
struct ErrorInner {
    input: String,
    rule: GrammarRule,
    profile: Profile,
    details: OnceLock<Details>,
}

/// Where and why a parse failed ([`crate::diagnose`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Details {
    pub(crate) byte: usize,
    pub(crate) char: usize,
    pub(crate) component: Component,
    pub(crate) kind: ErrorKind,
    pub(crate) expected: Vec<GrammarRule>,
    pub(crate) literals: Vec<String>,
    pub(crate) end_allowed: bool,
}

impl Details {
    /// The start rule is not in the profile's grammar.
    pub(crate) fn no_such_rule() -> Details {
        Details {
            byte: 0,
            char: 0,
            component: Component::Input,
            kind: ErrorKind::NoSuchRule,
            expected: Vec::new(),
            literals: Vec::new(),
            end_allowed: false,
        }
    }
}

impl ParseError {
    /// The error of `input` under `profile` and `rule`, with its details
    /// if they are known.
    fn new(input: &str, profile: Profile, rule: GrammarRule, details: OnceLock<Details>) -> Self {
        ParseError {
            inner: Box::new(ErrorInner {
                input: input.to_owned(),
                rule,
                profile,
                details,
            }),
        }
    }

    /// An error whose details are worked out when first asked for
    /// ([`crate::diagnose`]). `rule` is the start rule by the profile's own
    /// name (`URI-reference` under `rfc3986`).
    pub(crate) fn deferred(input: &str, profile: Profile, rule: GrammarRule) -> ParseError {
        Self::new(input, profile, rule, OnceLock::new())
    }

    /// An error found by another grammar (a grammar of the lab, loaded at
    /// run time) at byte `byte`, where it expected `expected` (and the end
    /// of the input, when `end_allowed`): explained
    /// as the built-in grammar explains its own failures (the component
    /// from the delimiters before the position, the kind of error from the
    /// character there).
    ///
    /// ```
    /// use iribis::{GrammarRule, ParseError, Profile};
    ///
    /// let ireg_name = GrammarRule::from_name("ireg-name").unwrap();
    /// let iri = GrammarRule::from_name("IRI").unwrap();
    /// let e = ParseError::explained_at("http://a b/", Profile::Rfc3987bis, iri, 8, vec![ireg_name], false);
    /// assert_eq!(e.byte(), 8);
    /// ```
    pub fn explained_at(
        input: &str,
        profile: Profile,
        rule: GrammarRule,
        byte: usize,
        expected: Vec<GrammarRule>,
        end_allowed: bool,
    ) -> ParseError {
        let details = diagnose::explain_at(input, rule, profile, byte, expected, end_allowed);
        Self::new(input, profile, rule, OnceLock::from(details))
    }

    pub(crate) fn no_such_rule(input: &str, profile: Profile, rule: GrammarRule) -> ParseError {
        Self::new(
            input,
            profile,
            rule,
            OnceLock::from(Details::no_such_rule()),
        )
    }

    fn details(&self) -> &Details {
        let inner = &self.inner;
        inner
            .details
            .get_or_init(|| diagnose::details(&inner.input, inner.rule, inner.profile))
    }

    /// The input that failed to parse.
    pub fn input(&self) -> &str {
        &self.inner.input
    }

    /// The input that failed to parse, given back.
    pub fn into_input(self) -> String {
        self.inner.input
    }

    /// Byte offset of the first character that cannot belong to a valid
    /// input (the input's length when it ends too early).
    pub fn byte(&self) -> usize {
        self.details().byte
    }

    /// The same position in characters (Unicode scalar values), 0-based.
    pub fn char(&self) -> usize {
        self.details().char
    }

    /// The component being parsed at that position.
    pub fn component(&self) -> Component {
        self.details().component
    }

    /// What is wrong there.
    pub fn kind(&self) -> ErrorKind {
        self.details().kind
    }

    /// The start rule of the parse.
    pub fn rule(&self) -> GrammarRule {
        self.inner.rule
    }

    /// The profile of the parse.
    pub fn profile(&self) -> Profile {
        self.inner.profile
    }

    /// The grammar rules that could have matched at the position (pest's
    /// record of the rules it tried there), without the literal strings.
    pub fn expected(&self) -> &[GrammarRule] {
        &self.details().expected
    }

    /// The literal strings (such as `"?"`, `"]"`) that could have stood at
    /// the position, as far as pest recorded them.
    pub fn expected_literals(&self) -> &[String] {
        &self.details().literals
    }

    /// Whether the input could also have ended at the position.
    pub fn end_allowed(&self) -> bool {
        self.details().end_allowed
    }

    /// Everything that could have stood at the position, in the order
    /// reports name it: the literal strings, then the rules, then the end
    /// of the input when it could have ended there (see [`Expected`]). The
    /// caret line of [`report`](Self::report) is this list in words, and
    /// the `expected` array of `iri`'s JSON output is its items as strings.
    ///
    /// ```
    /// use iribis::{Expected, GrammarRule, IriRef};
    ///
    /// let err = IriRef::parse("http://[::1").unwrap_err();
    /// assert!(err.expected_all().contains(&Expected::Literal("]".into())));
    /// let err = IriRef::parse("http://example.org/a b").unwrap_err();
    /// let ipchar = GrammarRule::from_name("ipchar").unwrap();
    /// assert!(err.expected_all().contains(&Expected::Rule(ipchar)));
    /// assert_eq!(err.expected_all().last(), Some(&Expected::End));
    /// ```
    pub fn expected_all(&self) -> Vec<Expected> {
        let d = self.details();
        let mut all: Vec<Expected> = d.literals.iter().cloned().map(Expected::Literal).collect();
        all.extend(d.expected.iter().map(|&r| Expected::Rule(r)));
        if d.end_allowed {
            all.push(Expected::End);
        }
        all
    }

    /// The spec section the violated rule comes from.
    pub fn spec(&self) -> &'static str {
        match self.inner.profile {
            Profile::Rfc3986 => "RFC 3986 §3",
            Profile::Rfc3987 => "RFC 3987 §2.2",
            Profile::Leiri => "3987bis §6.1",
            Profile::Rfc3987bis => "3987bis §2.2",
        }
    }
}

impl core::error::Error for ParseError {}

impl fmt::Debug for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.details();
        f.debug_struct("ParseError")
            .field("input", &self.inner.input)
            .field("byte", &d.byte)
            .field("char", &d.char)
            .field("component", &d.component)
            .field("kind", &d.kind)
            .field("rule", &self.inner.rule)
            .field("profile", &self.inner.profile)
            .field("expected", &d.expected)
            .field("literals", &d.literals)
            .field("end_allowed", &d.end_allowed)
            .finish()
    }
}

/// Two errors are equal when they are for the same input, start rule and
/// profile: the details follow from those.
impl PartialEq for ParseError {
    fn eq(&self, other: &Self) -> bool {
        self.inner.input == other.inner.input
            && self.inner.rule == other.inner.rule
            && self.inner.profile == other.inner.profile
    }
}

impl Eq for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error stays one pointer (see `ParseError::inner`).
    #[test]
    fn an_error_is_one_pointer() {
        assert_eq!(size_of::<ParseError>(), size_of::<usize>());
    }
}
