//! An error in words: the message, the one-line `Display` and the caret
//! report of [`ParseError::report`].

use crate::prelude::*;
use core::fmt;

use super::{ErrorKind, ParseError};
use crate::profile::Profile;
use crate::render::describe;
use crate::rule::{Component, Sym};

impl ParseError {
    /// The error in one plain sentence (lowercase, no final period).
    pub fn message(&self) -> String {
        let comp = self.details().component.name();
        let a = article(comp);
        let what = match self.inner.profile {
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
                match self.inner.rule.0 {
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
                format!("{} cannot stand here in {}: expected {}", describe(ch), self.inner.rule, if wanted.is_empty() { "something else".into() } else { wanted })
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
                self.inner.profile, self.inner.rule
            ),
        }
    }

    fn in_ip_literal(&self) -> bool {
        super::diagnose::locate(&self.inner.input[..self.details().byte], self.inner.rule.0)
            .in_ip_literal
    }

    /// [`expected_all`](Self::expected_all) in words: `"#", "?",
    /// path-sep, ipchar or the end`.
    fn expected_words(&self) -> String {
        let mut words: Vec<String> = self.expected_all().iter().map(|e| e.to_string()).collect();
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

impl ParseError {
    /// What failed to parse, named after the start rule: "IRI reference",
    /// "IRI", "absolute IRI" ("URI reference", "URI"... under `rfc3986`,
    /// "LEIRI reference"... under `leiri`), "relative reference", "IPv6
    /// address", "host", "path"; a rule without a plain name by its ABNF
    /// name (`ls32`). [`Display`](fmt::Display) begins with it.
    ///
    /// ```
    /// use iribis::{Components, GrammarRule, IriRef, ParseOptions, Profile};
    ///
    /// assert_eq!(IriRef::parse("../a b").unwrap_err().noun(), "IRI reference");
    /// let uri = ParseOptions::new().profile(Profile::Rfc3986);
    /// assert_eq!(IriRef::parse_with("a b", &uri).unwrap_err().noun(), "URI reference");
    /// let ipv6 = GrammarRule::from_name("IPv6address").unwrap();
    /// let err = Components::parse("1::2::3", ipv6, Profile::Rfc3987bis).unwrap_err();
    /// assert_eq!(err.noun(), "IPv6 address");
    /// ```
    pub fn noun(&self) -> &'static str {
        use Sym::*;
        let (reference, iri, absolute) = match self.inner.profile {
            Profile::Rfc3986 => ("URI reference", "URI", "absolute URI"),
            Profile::Leiri => ("LEIRI reference", "LEIRI", "absolute LEIRI"),
            Profile::Rfc3987 | Profile::Rfc3987bis => ("IRI reference", "IRI", "absolute IRI"),
        };
        match self.inner.rule.0 {
            IRI_reference | URI_reference => reference,
            IRI | URI => iri,
            absolute_IRI | absolute_URI => absolute,
            irelative_ref | relative_ref => "relative reference",
            ihier_part | hier_part => "hierarchical part",
            irelative_part | relative_part => "relative part",
            scheme => "scheme",
            iauthority | authority => "authority",
            iuserinfo | userinfo => "userinfo",
            ihost | host => "host",
            port => "port",
            IP_literal => "IP literal",
            IPvFuture => "IPvFuture address",
            IPv6address => "IPv6 address",
            IPv4address => "IPv4 address",
            dec_octet => "decimal octet",
            ireg_name | reg_name => "registered name",
            ipath | path | ipath_abempty | path_abempty | ipath_absolute | path_absolute
            | ipath_noscheme | path_noscheme | ipath_rootless | path_rootless => "path",
            ipath_empty | path_empty => "empty path",
            path_sep => "path separator",
            isegment | segment | isegment_nz | segment_nz | isegment_nz_nc | segment_nz_nc => {
                "path segment"
            }
            ipchar | pchar => "path character",
            iquery | query => "query",
            ifragment | fragment => "fragment",
            pct_encoded | pct_form => "percent-encoding",
            iunreserved | unreserved => "unreserved character",
            reserved => "reserved character",
            gen_delims => "general delimiter",
            sub_delims => "sub-delimiter",
            ALPHA => "letter",
            DIGIT => "digit",
            HEXDIG => "hexadecimal digit",
            iprivate => "private-use character",
            _ => self.inner.rule.abnf_name(),
        }
    }

    /// The caret report: the message, the position, a window of the input
    /// around it with a caret under the position, and what was expected.
    /// The window is safe to print: controls and invisible characters are
    /// escaped, the caret is placed by display width, and right-to-left
    /// text sits in a left-to-right embedding (RFC 3987 §4.1; see
    /// [`underline`](crate::render::underline)).
    ///
    /// ```
    /// use iribis::IriRef;
    ///
    /// let err = IriRef::parse("http://例え.jp/a b").unwrap_err();
    /// assert_eq!(
    ///     err.report(),
    ///     "error: a space is not allowed in a path: percent-encode it as %20\n \
    ///      --> byte 18, character 14, in the path (IRI-reference, 3987bis §2.2)\n  \
    ///      |\n  \
    ///      | http://例え.jp/a b\n  \
    ///      |                 ^ expected \"#\", \"?\", path-sep, ipchar or the end"
    /// );
    /// ```
    pub fn report(&self) -> String {
        let d = self.details();
        let (shown, col, _) = crate::render::render_span(&self.inner.input, d.byte, d.byte);
        let wanted = self.expected_words();
        let mut out = format!(
            "error: {}\n --> byte {}, character {}, in the {} ({}, {})\n  |\n  | {shown}\n  | {}^",
            self.message(),
            d.byte,
            d.char,
            d.component,
            self.inner.rule,
            self.spec(),
            " ".repeat(col),
        );
        if !wanted.is_empty() {
            out.push_str(" expected ");
            out.push_str(&wanted);
        }
        out
    }
}

impl fmt::Display for ParseError {
    /// One line: what failed to parse (the [noun](Self::noun) of the start
    /// rule), the character position (0-based) and the
    /// [message](Self::message): `invalid IRI reference at character 20: a
    /// space is not allowed in a path: percent-encode it as %20`.
    /// [`report`](Self::report) shows the input with a caret. A character
    /// of the input that does not show by itself is named by its code
    /// point, so the line is safe to print.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} at character {}: {}",
            self.noun(),
            self.char(),
            self.message()
        )
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
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
