//! Parse errors: where an input stops being valid, in which component, and
//! what would have been allowed there.

use std::fmt;
use std::sync::OnceLock;

use crate::syntax::Sym;
use crate::{GrammarRule, Profile};

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

/// Why an input does not match a rule: where, in which component, what was
/// expected.
///
/// The position is that of the first character that cannot belong to any
/// valid input (the end of the input when it ends too early), as a byte offset
/// and as a character offset (0-based, counting Unicode scalar values).
/// `Display` prints a report with the input and a caret under that character.
///
/// ```
/// use iribis::{Component, ErrorKind, IriRef};
///
/// let err = IriRef::parse("http://例え.jp/a b?q#f").unwrap_err();
/// assert_eq!((err.byte(), err.char()), (18, 14));
/// assert_eq!(err.component(), Component::Path);
/// assert_eq!(err.kind(), ErrorKind::DisallowedCharacter { ch: ' ' });
/// assert_eq!(err.message(), "a space is not allowed in a path: percent-encode it as %20");
/// // The caret is placed by display width: 例 and え are two columns each.
/// let report = err.to_string();
/// assert!(report.lines().any(|l| l == format!("  | {}^ expected \"#\", \"?\", path-sep, ipchar or the end", " ".repeat(16))));
/// ```
///
/// An input that the fast path (`IriRef::parse` and its siblings) rejects
/// gets its position and explanation from the pest parser only when one of
/// them is first asked for: rejecting costs a DFA walk and a copy of the
/// input, and the report (tens of microseconds of pest parsing) is built
/// once, on demand, and kept.
#[derive(Clone)]
pub struct ParseError {
    input: String,
    rule: GrammarRule,
    profile: Profile,
    details: OnceLock<Box<Details>>,
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
    /// An error whose details are worked out when first asked for
    /// ([`crate::diagnose`]). `rule` is the start rule by the profile's own
    /// name (`URI-reference` under `rfc3986`).
    pub(crate) fn deferred(input: &str, profile: Profile, rule: GrammarRule) -> ParseError {
        ParseError {
            input: input.to_owned(),
            rule,
            profile,
            details: OnceLock::new(),
        }
    }

    /// An error whose details were found by another grammar (see
    /// [`crate::diagnose::explain_at`]).
    #[cfg(feature = "lab")]
    pub(crate) fn explained(
        input: &str,
        profile: Profile,
        rule: GrammarRule,
        details: Details,
    ) -> ParseError {
        ParseError {
            input: input.to_owned(),
            rule,
            profile,
            details: OnceLock::from(Box::new(details)),
        }
    }

    pub(crate) fn no_such_rule(input: &str, profile: Profile, rule: GrammarRule) -> ParseError {
        ParseError {
            input: input.to_owned(),
            rule,
            profile,
            details: OnceLock::from(Box::new(Details::no_such_rule())),
        }
    }

    fn details(&self) -> &Details {
        self.details.get_or_init(|| {
            Box::new(crate::diagnose::details(
                &self.input,
                self.rule,
                self.profile,
            ))
        })
    }

    /// The input that failed to parse.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The input that failed to parse, given back.
    pub fn into_input(self) -> String {
        self.input
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
        self.rule
    }

    /// The profile of the parse.
    pub fn profile(&self) -> Profile {
        self.profile
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

    /// The spec section the violated rule comes from.
    pub fn spec(&self) -> &'static str {
        match self.profile {
            Profile::Rfc3986 => "RFC 3986 §3",
            Profile::Rfc3987 => "RFC 3987 §2.2",
            Profile::Leiri => "3987bis §6.1",
            Profile::Rfc3987bis => "3987bis §2.2",
        }
    }

    /// The error in one plain sentence (lowercase, no final period).
    pub fn message(&self) -> String {
        let comp = self.details().component.name();
        let a = article(comp);
        let what = match self.profile {
            Profile::Rfc3986 => "a URI",
            Profile::Leiri => "a LEIRI",
            _ => "an IRI",
        };
        match self.details().kind {
            ErrorKind::UnexpectedEnd if self.in_ip_literal() => {
                "the input ends inside an IP literal: expected the rest of the address and ']'".into()
            }
            ErrorKind::UnexpectedEnd => {
                let wanted = self.expected_words();
                if wanted.is_empty() {
                    "the input ends too early".to_owned()
                } else {
                    format!("the input ends too early: expected {wanted}")
                }
            }
            ErrorKind::InvalidPercentEncoding => {
                "'%' must be followed by two hexadecimal digits (write a literal '%' as %25)".into()
            }
            ErrorKind::MissingScheme => format!(
                "{} needs a scheme followed by ':' (such as \"http:\")",
                match self.rule.0 {
                    Sym::absolute_IRI => "an absolute IRI",
                    Sym::URI | Sym::absolute_URI => "a URI",
                    _ => "an IRI",
                }
            ),
            ErrorKind::InvalidScheme { ch } if self.details().byte == 0 => {
                format!("a scheme must start with a letter, not {}", describe(ch))
            }
            ErrorKind::InvalidScheme { ch } => format!(
                "{} is not allowed in a scheme (letters, digits, '+', '-' and '.' only)",
                describe(ch)
            ),
            ErrorKind::ColonInFirstSegment => "':' is not allowed in the first segment of a relative path, where it would read as the end of a scheme: write it as %3A or start the path with \"./\"".into(),
            ErrorKind::InvalidPort { ch } => {
                format!("a port is digits only, and this one has {}", describe(ch))
            }
            ErrorKind::InvalidIpLiteral { ch: '%' } => "'%' is not allowed in an IP literal: IPv6 zone identifiers (RFC 6874) are not part of RFC 3986, RFC 3987 or 3987bis".into(),
            ErrorKind::InvalidIpLiteral { ch } => match self.expected_words() {
                wanted if wanted.is_empty() => format!(
                    "{} is not allowed here in an IP literal: expected an IPv6 address or \"v\" HEXDIG \".\" address, then ']'",
                    describe(ch)
                ),
                wanted => format!(
                    "{} cannot stand here in an IP literal: expected {wanted}",
                    describe(ch)
                ),
            },
            ErrorKind::PrivateUseOutsideQuery { ch } => format!(
                "private-use characters are allowed only in the query: percent-encode {} as {}",
                describe(ch),
                percent(ch)
            ),
            ErrorKind::NonAsciiInUri { ch } => format!(
                "{} is not allowed in a URI, which is ASCII only: percent-encode it as {}",
                describe(ch),
                percent(ch)
            ),
            ErrorKind::NotUcschar { ch } => format!(
                "{} is not allowed in {what}: it is neither ucschar nor iprivate; percent-encode it as {}",
                describe(ch),
                percent(ch)
            ),
            ErrorKind::DisallowedCharacter { ch: ' ' } => {
                format!("a space is not allowed in {a} {comp}: percent-encode it as %20")
            }
            ErrorKind::DisallowedCharacter { ch }
                if ch.is_ascii_alphanumeric() || matches!(ch, '-' | '.' | '_' | '~') =>
            {
                // Such a character is allowed in every component; what is
                // wrong is where it stands, so percent-encoding is no advice.
                let wanted = self.expected_words();
                format!("{} cannot stand here in {}: expected {}", describe(ch), self.rule, if wanted.is_empty() { "something else".into() } else { wanted })
            }
            ErrorKind::DisallowedCharacter { ch } => {
                let hint = match ch {
                    '[' | ']' if self.details().component != Component::Host => {
                        format!("'[' and ']' are allowed only around an IP literal host; percent-encode it as {}", percent(ch))
                    }
                    _ => format!("percent-encode it as {}", percent(ch)),
                };
                format!("{} is not allowed in {a} {comp}: {hint}", describe(ch))
            }
            ErrorKind::NoSuchRule => format!(
                "the {} profile has no rule {}",
                self.profile, self.rule
            ),
        }
    }

    fn in_ip_literal(&self) -> bool {
        crate::diagnose::locate(&self.input[..self.details().byte], self.rule.0).in_ip_literal
    }

    /// The expected rules in words, with "the end" when the input could end.
    fn expected_words(&self) -> String {
        let mut words: Vec<String> = self
            .details()
            .literals
            .iter()
            .map(|l| format!("{l:?}"))
            .collect();
        words.extend(
            self.details()
                .expected
                .iter()
                .map(|r| r.abnf_name().to_owned()),
        );
        if self.details().end_allowed {
            words.push("the end".into());
        }
        match words.len() {
            0 => String::new(),
            1 => words.remove(0),
            _ => {
                let last = words.pop().unwrap_or_default();
                format!("{} or {last}", words.join(", "))
            }
        }
    }
}

impl fmt::Display for ParseError {
    /// The report: the message, the position, a window of the input around
    /// it with a caret under the position, and what was expected (see
    /// [`underline`](crate::underline): controls and invisible characters
    /// escaped, the caret placed by display width, right-to-left text in a
    /// left-to-right embedding, RFC 3987 §4.1).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "error: {}", self.message())?;
        writeln!(
            f,
            " --> byte {}, character {}, in the {} ({}, {})",
            self.details().byte,
            self.details().char,
            self.details().component,
            self.rule,
            self.spec()
        )?;
        let at = self.details().byte;
        let (shown, col, _) = crate::render::render_span(&self.input, at, at);
        writeln!(f, "  |")?;
        writeln!(f, "  | {shown}")?;
        let pad = " ".repeat(col);
        let wanted = self.expected_words();
        if wanted.is_empty() {
            write!(f, "  | {pad}^")
        } else {
            write!(f, "  | {pad}^ expected {wanted}")
        }
    }
}

impl std::error::Error for ParseError {}

impl fmt::Debug for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.details();
        f.debug_struct("ParseError")
            .field("input", &self.input)
            .field("byte", &d.byte)
            .field("char", &d.char)
            .field("component", &d.component)
            .field("kind", &d.kind)
            .field("rule", &self.rule)
            .field("profile", &self.profile)
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
        self.input == other.input && self.rule == other.rule && self.profile == other.profile
    }
}

impl Eq for ParseError {}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// `'x' (U+0078)`, or just `U+200E` for characters that do not print.
fn describe(c: char) -> String {
    if crate::render::is_invisible(c) || c.is_whitespace() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}' (U+{:04X})", c as u32)
    }
}

/// The percent-encoding of `c`'s UTF-8 octets.
fn percent(c: char) -> String {
    let mut buf = [0; 4];
    c.encode_utf8(&mut buf)
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect()
}
