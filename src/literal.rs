//! Literals checked at compile time: the `const` parse of the reference
//! types (`IriRef::parse_const` and its siblings), its error
//! ([`LiteralError`]), and the macros built on it ([`iri!`](crate::iri!),
//! [`iri_ref!`](crate::iri_ref!), [`absolute_iri!`](crate::absolute_iri!),
//! [`relative_ref!`](crate::relative_ref!), [`uri!`](crate::uri!),
//! [`uri_ref!`](crate::uri_ref!)).
//!
//! The parse walks the same DFA tables as [`IriRef::parse`](crate::IriRef::parse),
//! in `const` (`crate::fast::literal`), and splits the input by the phases
//! of its states as the run-time split does; the spans are then checked to
//! lie between characters (`Proven::fitting`), so the accessors of a
//! literal slice without checks, as those of a parsed reference do. An
//! input the DFA rejects gets the position of the run-time error (the same
//! DFA's dead end) and its kind and component, worked out from the phase
//! there and the bytes around it as `crate::error::diagnose` works them
//! out from the text; what pest would say was expected is not known in
//! `const`, so the message names the component and the character instead.

use core::fmt;

use crate::chars;
use crate::components::Component;
use crate::error::ErrorKind;
use crate::fast::literal::{Walked, walk};
use crate::fast::phase;
use crate::meta::Meta;
use crate::profile::Profile;
use crate::rule::GrammarRule;

/// Why a literal is not a reference of the wanted kind: the error of the
/// `const` parsers ([`IriRef::parse_const`](crate::IriRef::parse_const)
/// and its siblings) and, at compile time, the message of the literal
/// macros ([`iri!`](crate::iri!) and the others).
///
/// Its position is the one [`ParseError`](crate::ParseError) gives for the
/// same input (the first character that cannot belong to a valid input), and
/// so are its component and kind; its message names the character and the
/// component where a `ParseError`'s names what was expected there.
///
/// ```
/// use iribis::{Component, ErrorKind, Iri};
///
/// let err = Iri::parse_const("http://example.org/a b").unwrap_err();
/// assert_eq!((err.byte(), err.char()), (20, 20));
/// assert_eq!(err.component(), Component::Path);
/// assert_eq!(err.kind(), ErrorKind::DisallowedCharacter { ch: ' ' });
/// assert_eq!(
///     err.to_string(),
///     "invalid IRI literal, at byte 20 (character 20) in the path: \
///      a space is not allowed in a path: percent-encode it as %20 (3987bis §2.2, rule IRI)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LiteralError {
    byte: usize,
    char: usize,
    component: Component,
    kind: ErrorKind,
    /// The start rule, by its 3987bis name.
    rule: GrammarRule,
    profile: Profile,
    /// Inside an IP literal's brackets (for the message of an early end).
    in_ip_literal: bool,
}

impl LiteralError {
    /// Byte offset of the first character that cannot belong to a valid
    /// input (the input's length when it ends too early).
    pub const fn byte(&self) -> usize {
        self.byte
    }

    /// The same position in characters (Unicode scalar values), 0-based.
    pub const fn char(&self) -> usize {
        self.char
    }

    /// The component being parsed at that position.
    pub const fn component(&self) -> Component {
        self.component
    }

    /// What is wrong there.
    pub const fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The start rule, by the profile's own name (`URI` under `rfc3986`),
    /// as [`ParseError::rule`](crate::ParseError::rule) gives it.
    pub fn rule(&self) -> GrammarRule {
        self.rule.for_profile(self.profile)
    }

    /// The profile of the parse.
    pub const fn profile(&self) -> Profile {
        self.profile
    }

    /// Fails the evaluation with the error's message: in `const`, a
    /// compile error that says why (the literal macros call it); at run
    /// time, a panic.
    #[track_caller]
    pub const fn panic(self) -> ! {
        let mut buf = Buf::new();
        self.write(&mut buf);
        panic!("{}", buf.as_str())
    }

    /// The error of `input`, rejected by the DFA of `rule` under `profile`
    /// at `byte` (its length when it ended too early), the state before it
    /// being in `phase`: where it is and what is wrong, as
    /// `diagnose::classify` says it from the text before the position.
    const fn new(
        input: &str,
        rule: GrammarRule,
        profile: Profile,
        byte: usize,
        phase: u8,
    ) -> LiteralError {
        let b = input.as_bytes();
        let needs_scheme = matches!(rule, GrammarRule::IRI | GrammarRule::ABSOLUTE_IRI);
        let component = match phase {
            phase::START | phase::FIRST if needs_scheme => Component::Scheme,
            phase::START | phase::FIRST | phase::SCHEME | phase::SLASH | phase::PATH => {
                Component::Path
            }
            phase::AUTHORITY | phase::COLON => Component::Authority,
            phase::HOST | phase::LITERAL | phase::CLOSED => Component::Host,
            phase::PORT => Component::Port,
            phase::QUERY => Component::Query,
            _ => Component::Fragment,
        };
        let in_ip_literal = phase == phase::LITERAL;
        let first_relative_segment = matches!(phase, phase::START | phase::FIRST);
        let mut error = LiteralError {
            byte,
            char: chars_before(b, byte),
            component,
            kind: ErrorKind::UnexpectedEnd,
            rule,
            profile,
            in_ip_literal,
        };
        let is_scheme = matches!(component, Component::Scheme);
        // The last one or two characters before the position are "%" or
        // "%" HEXDIG.
        let in_percent = (byte >= 1 && b[byte - 1] == b'%')
            || (byte >= 2 && b[byte - 2] == b'%' && b[byte - 1].is_ascii_hexdigit());
        if in_percent && !is_scheme {
            error.kind = ErrorKind::InvalidPercentEncoding;
            return error;
        }
        if byte == b.len() {
            if is_scheme && needs_scheme {
                error.kind = ErrorKind::MissingScheme;
            }
            return error;
        }
        let ch = char_at(b, byte);
        error.kind = if ch == '%' && in_ip_literal {
            // No IP literal holds one (RFC 6874 zone identifiers are not
            // in the grammar).
            ErrorKind::InvalidIpLiteral { ch }
        } else if ch == '%' && !is_scheme && !(hex_at(b, byte + 1) && hex_at(b, byte + 2)) {
            ErrorKind::InvalidPercentEncoding
        } else if is_scheme {
            if matches!(ch, '/' | '?' | '#') || (ch == ':' && byte > 0) {
                ErrorKind::MissingScheme
            } else {
                ErrorKind::InvalidScheme { ch }
            }
        } else if in_ip_literal {
            ErrorKind::InvalidIpLiteral { ch }
        } else if let Some(bad) = port_error(b, byte, phase) {
            ErrorKind::InvalidPort { ch: bad }
        } else if phase == phase::PORT && !ch.is_ascii_digit() && !matches!(ch, '/' | '?' | '#') {
            ErrorKind::InvalidPort { ch }
        } else if ch == ':' && first_relative_segment {
            ErrorKind::ColonInFirstSegment
        } else if ch.is_ascii() {
            ErrorKind::DisallowedCharacter { ch }
        } else if matches!(profile, Profile::Rfc3986) {
            ErrorKind::NonAsciiInUri { ch }
        } else if chars::is_iprivate(ch, profile) && !matches!(component, Component::Query) {
            ErrorKind::PrivateUseOutsideQuery { ch }
        } else if !chars::is_extended(ch, profile) && !chars::is_iprivate(ch, profile) {
            ErrorKind::NotUcschar { ch }
        } else {
            ErrorKind::DisallowedCharacter { ch }
        };
        error
    }

    /// The noun of the start rule, as `ParseError::noun` names it.
    const fn noun(&self) -> &'static str {
        let (reference, iri, absolute) = match self.profile {
            Profile::Rfc3986 => ("URI reference", "URI", "absolute URI"),
            Profile::Leiri => ("LEIRI reference", "LEIRI", "absolute LEIRI"),
            _ => ("IRI reference", "IRI", "absolute IRI"),
        };
        match self.rule {
            GrammarRule::IRI => iri,
            GrammarRule::ABSOLUTE_IRI => absolute,
            GrammarRule::IRELATIVE_REF => "relative reference",
            _ => reference,
        }
    }

    /// The start rule's ABNF name under the profile.
    const fn rule_name(&self) -> &'static str {
        let uri = matches!(self.profile, Profile::Rfc3986);
        match (self.rule, uri) {
            (GrammarRule::IRI, false) => "IRI",
            (GrammarRule::IRI, true) => "URI",
            (GrammarRule::ABSOLUTE_IRI, false) => "absolute-IRI",
            (GrammarRule::ABSOLUTE_IRI, true) => "absolute-URI",
            (GrammarRule::IRELATIVE_REF, false) => "irelative-ref",
            (GrammarRule::IRELATIVE_REF, true) => "relative-ref",
            (_, false) => "IRI-reference",
            (_, true) => "URI-reference",
        }
    }

    /// The message: "invalid IRI literal, at byte 20 (character 20) in the
    /// path: ... (3987bis §2.2, rule IRI)".
    const fn write(&self, buf: &mut Buf) {
        buf.str("invalid ");
        buf.str(self.noun());
        buf.str(" literal, at byte ");
        buf.num(self.byte);
        buf.str(" (character ");
        buf.num(self.char);
        buf.str(") in the ");
        let comp = component_name(self.component);
        buf.str(comp);
        buf.str(": ");
        let a = if matches!(comp.as_bytes()[0], b'a' | b'e' | b'i' | b'o' | b'u') {
            "an "
        } else {
            "a "
        };
        match self.kind {
            ErrorKind::UnexpectedEnd if self.in_ip_literal => buf.str(
                "the input ends inside an IP literal: expected the rest of the address and ']'",
            ),
            ErrorKind::UnexpectedEnd => buf.str("the input ends too early"),
            ErrorKind::InvalidPercentEncoding => buf
                .str("'%' must be followed by two hexadecimal digits (write a literal '%' as %25)"),
            ErrorKind::MissingScheme => {
                buf.str(match (self.rule, self.profile) {
                    (_, Profile::Rfc3986) => "a URI",
                    (GrammarRule::ABSOLUTE_IRI, _) => "an absolute IRI",
                    _ => "an IRI",
                });
                buf.str(" needs a scheme followed by ':' (such as \"http:\")");
            }
            ErrorKind::InvalidScheme { ch } if self.byte == 0 => {
                buf.str("a scheme must start with a letter, not ");
                buf.describe(ch);
            }
            ErrorKind::InvalidScheme { ch } => {
                buf.describe(ch);
                buf.str(" is not allowed in a scheme (letters, digits, '+', '-' and '.' only)");
            }
            ErrorKind::ColonInFirstSegment => buf.str(
                "':' is not allowed in the first segment of a relative path, where it would \
                 read as the end of a scheme: write it as %3A or start the path with \"./\"",
            ),
            ErrorKind::InvalidPort { ch } => {
                buf.str("a port is digits only, and this one has ");
                buf.describe(ch);
            }
            ErrorKind::InvalidIpLiteral { ch: '%' } => buf.str(
                "'%' is not allowed in an IP literal: IPv6 zone identifiers (RFC 6874) are not \
                 part of RFC 3986, RFC 3987 or 3987bis",
            ),
            ErrorKind::InvalidIpLiteral { ch } => {
                buf.describe(ch);
                buf.str(
                    " is not allowed here in an IP literal: expected an IPv6 address or \"v\" \
                     HEXDIG \".\" address, then ']'",
                );
            }
            ErrorKind::PrivateUseOutsideQuery { ch } => {
                buf.str("private-use characters are allowed only in the query: percent-encode ");
                buf.describe(ch);
                buf.str(" as ");
                buf.percent(ch);
            }
            ErrorKind::NonAsciiInUri { ch } => {
                buf.describe(ch);
                buf.str(" is not allowed in a URI, which is ASCII only: percent-encode it as ");
                buf.percent(ch);
            }
            ErrorKind::NotUcschar { ch } => {
                buf.describe(ch);
                buf.str(" is not allowed in ");
                buf.str(match self.profile {
                    Profile::Leiri => "a LEIRI",
                    _ => "an IRI",
                });
                buf.str(": it is neither ucschar nor iprivate; percent-encode it as ");
                buf.percent(ch);
            }
            ErrorKind::DisallowedCharacter { ch: ' ' } => {
                buf.str("a space is not allowed in ");
                buf.str(a);
                buf.str(comp);
                buf.str(": percent-encode it as %20");
            }
            ErrorKind::DisallowedCharacter { ch }
                if ch.is_ascii_alphanumeric() || matches!(ch, '-' | '.' | '_' | '~') =>
            {
                // Allowed in every component: what is wrong is where it
                // stands, so percent-encoding is no advice.
                buf.describe(ch);
                buf.str(" cannot stand here in ");
                buf.str(a);
                buf.str(comp);
                buf.str(" of ");
                buf.str(match self.noun().as_bytes()[0] {
                    b'a' | b'I' => "an ",
                    _ => "a ",
                });
                buf.str(self.noun());
            }
            ErrorKind::DisallowedCharacter { ch } => {
                buf.describe(ch);
                buf.str(" is not allowed in ");
                buf.str(a);
                buf.str(comp);
                if matches!(ch, '[' | ']') && !matches!(self.component, Component::Host) {
                    buf.str(": '[' and ']' are allowed only around an IP literal host");
                }
                buf.str("; percent-encode it as ");
                buf.percent(ch);
            }
            _ => buf.str("the profile has no such rule"),
        }
        buf.str(" (");
        buf.str(match self.profile {
            Profile::Rfc3986 => "RFC 3986 §3",
            Profile::Rfc3987 => "RFC 3987 §2.2",
            Profile::Leiri => "3987bis §6.1",
            _ => "3987bis §2.2",
        });
        buf.str(", rule ");
        buf.str(self.rule_name());
        buf.str(")");
    }
}

impl fmt::Display for LiteralError {
    /// The message of [`LiteralError::panic`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Buf::new();
        self.write(&mut buf);
        f.write_str(buf.as_str())
    }
}

impl core::error::Error for LiteralError {}

/// The `const` parse: the components of `input` at `rule` (one of the four
/// reference rules, by its 3987bis name) under `profile`, or why it is not
/// one.
pub(crate) const fn parse(
    input: &str,
    rule: GrammarRule,
    profile: Profile,
) -> Result<Meta, LiteralError> {
    match walk(input, rule, profile) {
        Walked::Valid(meta) => Ok(meta),
        Walked::Dead { byte, phase } => Err(LiteralError::new(input, rule, profile, byte, phase)),
        // Every profile has the tables of the four rules (the tests of
        // `crate::fast` check that they load); the kind says so all the same.
        Walked::NoTable => Err(LiteralError {
            byte: 0,
            char: 0,
            component: Component::Input,
            kind: ErrorKind::NoSuchRule,
            rule,
            profile,
            in_ip_literal: false,
        }),
    }
}

/// The first character of the port that is not a digit, when `byte` is in
/// a port or in an authority after a ":" (`user:pw` or `host:port`, not
/// yet told apart), as `diagnose::classify` finds it.
const fn port_error(b: &[u8], byte: usize, phase: u8) -> Option<char> {
    if !matches!(phase, phase::COLON | phase::PORT) {
        return None;
    }
    // The port so far: after the last ":" before the position.
    let mut start = byte;
    while start > 0 && b[start - 1] != b':' {
        start -= 1;
    }
    let mut i = start;
    while i < byte {
        if !b[i].is_ascii_digit() {
            return Some(char_at(b, i));
        }
        i += 1;
    }
    None
}

/// Whether `b` has a hexadecimal digit at `i`.
const fn hex_at(b: &[u8], i: usize) -> bool {
    i < b.len() && b[i].is_ascii_hexdigit()
}

/// The number of characters in `b[..byte]` (`byte` on a boundary).
const fn chars_before(b: &[u8], byte: usize) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < byte {
        n += (b[i] & 0xC0 != 0x80) as usize;
        i += 1;
    }
    n
}

/// The character that starts at byte `i` of the UTF-8 `b`.
const fn char_at(b: &[u8], i: usize) -> char {
    let lead = b[i] as u32;
    let (len, mut c) = match lead {
        0x00..=0x7F => (1, lead),
        0xC0..=0xDF => (2, lead & 0x1F),
        0xE0..=0xEF => (3, lead & 0x0F),
        _ => (4, lead & 0x07),
    };
    let mut k = 1;
    while k < len {
        c = c << 6 | (b[i + k] as u32 & 0x3F);
        k += 1;
    }
    match char::from_u32(c) {
        Some(c) => c,
        None => char::REPLACEMENT_CHARACTER,
    }
}

/// The name of a component, as [`Component::name`] gives it.
const fn component_name(c: Component) -> &'static str {
    match c {
        Component::Scheme => "scheme",
        Component::Authority => "authority",
        Component::Userinfo => "userinfo",
        Component::Host => "host",
        Component::Port => "port",
        Component::Path => "path",
        Component::Query => "query",
        Component::Fragment => "fragment",
        _ => "input",
    }
}

/// A message written in `const`: UTF-8 in a fixed buffer, long enough for
/// the longest message (a piece that would not fit is left out).
struct Buf {
    bytes: [u8; 320],
    len: usize,
}

impl Buf {
    const fn new() -> Buf {
        Buf {
            bytes: [0; 320],
            len: 0,
        }
    }

    const fn str(&mut self, s: &str) {
        let s = s.as_bytes();
        if self.len + s.len() > self.bytes.len() {
            return;
        }
        let mut i = 0;
        while i < s.len() {
            self.bytes[self.len + i] = s[i];
            i += 1;
        }
        self.len += s.len();
    }

    const fn num(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut k = digits.len();
        loop {
            k -= 1;
            digits[k] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        if let Ok(s) = core::str::from_utf8(digits.split_at(k).1) {
            self.str(s);
        }
    }

    /// `'c' (U+0063)` for a character that shows by itself, else `U+00A0`,
    /// as `render::describe` writes it (which knows more of the
    /// characters that do not show: here, the controls, spaces, format
    /// characters and those outside ucschar are written by number alone).
    const fn describe(&mut self, c: char) {
        let shows = c.is_ascii_graphic()
            || (chars::is_ucschar(c)
                && !matches!(c as u32, 0xA0 | 0x1680 | 0x2000..=0x200F | 0x2028..=0x202F
                    | 0x205F..=0x206F | 0x3000 | 0xFE00..=0xFE0F | 0xFEFF | 0xE0000..=0xE0FFF));
        if shows {
            self.str("'");
            let mut utf8 = [0; 4];
            self.str(c.encode_utf8(&mut utf8));
            self.str("' (");
        }
        self.str("U+");
        let n = c as u32;
        let mut shift = if n > 0xFFFF {
            if n > 0xFFFFF { 20 } else { 16 }
        } else {
            12
        };
        loop {
            self.hex((n >> shift) as u8 & 0xF);
            if shift == 0 {
                break;
            }
            shift -= 4;
        }
        if shows {
            self.str(")");
        }
    }

    /// The percent-encoding of `c`'s UTF-8 octets.
    const fn percent(&mut self, c: char) {
        let mut utf8 = [0; 4];
        let bytes = c.encode_utf8(&mut utf8).as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            self.str("%");
            self.hex(bytes[i] >> 4);
            self.hex(bytes[i] & 0xF);
            i += 1;
        }
    }

    /// An uppercase hexadecimal digit.
    const fn hex(&mut self, d: u8) {
        let digit = [if d < 10 { b'0' + d } else { b'A' + d - 10 }];
        if let Ok(s) = core::str::from_utf8(&digit) {
            self.str(s);
        }
    }

    const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(s) => s,
            // Only whole strings are written.
            Err(_) => "",
        }
    }
}

/// The macros' body: `$parse` of the literal in a `const` block, its error
/// a compile error.
#[doc(hidden)]
#[macro_export]
macro_rules! __literal {
    ($ty:ident, $text:expr, $profile:ident) => {
        const {
            match $crate::$ty::parse_const_with(
                $text,
                &$crate::ParseOptions::new().profile($crate::Profile::$profile),
            ) {
                ::core::result::Result::Ok(value) => value,
                ::core::result::Result::Err(error) => error.panic(),
            }
        }
    };
}

/// An [`Iri`](crate::Iri) literal, checked at compile time: an
/// `Iri<&'static str>`, in a `const` block, which costs nothing at run time
/// (no parse, no allocation: the value is built by the compiler). The
/// parse is [`Iri::parse_const`](crate::Iri::parse_const), so the
/// components are those of [`Iri::parse`](crate::Iri::parse).
///
/// ```
/// use iribis::{Host, Iri};
///
/// const HOME: Iri<&'static str> = iribis::iri!("https://例え.jp/");
/// static DOCS: Iri<&str> = iribis::iri!("https://docs.example/a?b#c");
///
/// assert_eq!(HOME.scheme(), "https");
/// assert_eq!(HOME.host(), Some(Host::RegName("例え.jp")));
/// let local = iribis::iri!("http://[::1]:8080/");
/// assert_eq!(local.port_number(), Some(8080));
/// assert_eq!(DOCS.fragment(), Some("c"));
/// ```
///
/// An invalid literal does not compile; the error says where and why
/// ("invalid IRI literal, at byte 20 (character 20) in the path: a space is
/// not allowed in a path: percent-encode it as %20 (3987bis §2.2, rule
/// IRI)"):
///
/// ```compile_fail
/// const BAD: iribis::Iri<&str> = iribis::iri!("http://example.org/a b");
/// ```
///
/// The cost is at compile time only: the walk takes a few `const`
/// evaluation steps a byte, so a literal of 140 KB (140,000 bytes of
/// `http://h/abcd/e?...`) evaluates, and one of 560 KB trips the compiler's
/// `long_running_const_eval` lint ("constant evaluation is taking a long
/// time", which `#[allow]` on the item lifts).
#[macro_export]
macro_rules! iri {
    ($text:expr $(,)?) => {
        $crate::__literal!(Iri, $text, Rfc3987bis)
    };
}

/// An [`IriRef`](crate::IriRef) literal, checked at compile time: an
/// `IriRef<&'static str>` in a `const` block (see [`iri!`](crate::iri!)).
///
/// ```
/// const UP: iribis::IriRef<&str> = iribis::iri_ref!("../résumé.html#p2");
/// assert_eq!(UP.path(), "../résumé.html");
/// assert_eq!(UP.fragment(), Some("p2"));
/// ```
///
/// ```compile_fail
/// let bad = iribis::iri_ref!("1a:b");
/// ```
#[macro_export]
macro_rules! iri_ref {
    ($text:expr $(,)?) => {
        $crate::__literal!(IriRef, $text, Rfc3987bis)
    };
}

/// An [`AbsoluteIri`](crate::AbsoluteIri) literal, checked at compile
/// time: an `AbsoluteIri<&'static str>` in a `const` block (see
/// [`iri!`](crate::iri!)), such as a base IRI.
///
/// ```
/// const BASE: iribis::AbsoluteIri<&str> = iribis::absolute_iri!("http://a/b/c/d;p?q");
/// assert_eq!(BASE.query(), Some("q"));
/// ```
///
/// ```compile_fail
/// const BASE: iribis::AbsoluteIri<&str> = iribis::absolute_iri!("http://a/b#frag");
/// ```
#[macro_export]
macro_rules! absolute_iri {
    ($text:expr $(,)?) => {
        $crate::__literal!(AbsoluteIri, $text, Rfc3987bis)
    };
}

/// A [`RelativeRef`](crate::RelativeRef) literal, checked at compile time:
/// a `RelativeRef<&'static str>` in a `const` block (see
/// [`iri!`](crate::iri!)).
///
/// ```
/// const STYLE: iribis::RelativeRef<&str> = iribis::relative_ref!("//cdn.example/s.css");
/// assert_eq!(STYLE.host_str(), Some("cdn.example"));
/// ```
///
/// ```compile_fail
/// const STYLE: iribis::RelativeRef<&str> = iribis::relative_ref!("http://cdn.example/s.css");
/// ```
#[macro_export]
macro_rules! relative_ref {
    ($text:expr $(,)?) => {
        $crate::__literal!(RelativeRef, $text, Rfc3987bis)
    };
}

/// A URI literal (RFC 3986: ASCII only), checked at compile time: an
/// `Iri<&'static str>` parsed under [`Profile::Rfc3986`](crate::Profile::Rfc3986),
/// in a `const` block (see [`iri!`](crate::iri!)).
///
/// ```
/// const SPEC: iribis::Iri<&str> = iribis::uri!("https://www.rfc-editor.org/rfc/rfc3986");
/// assert_eq!(SPEC.profile(), iribis::Profile::Rfc3986);
/// ```
///
/// ```compile_fail
/// const SPEC: iribis::Iri<&str> = iribis::uri!("https://例え.jp/");
/// ```
#[macro_export]
macro_rules! uri {
    ($text:expr $(,)?) => {
        $crate::__literal!(Iri, $text, Rfc3986)
    };
}

/// A URI reference literal (RFC 3986), checked at compile time: an
/// `IriRef<&'static str>` parsed under [`Profile::Rfc3986`](crate::Profile::Rfc3986),
/// in a `const` block (see [`iri!`](crate::iri!)).
///
/// ```
/// const UP: iribis::IriRef<&str> = iribis::uri_ref!("../a?b");
/// assert_eq!(UP.query(), Some("b"));
/// ```
///
/// ```compile_fail
/// const UP: iribis::IriRef<&str> = iribis::uri_ref!("../é");
/// ```
#[macro_export]
macro_rules! uri_ref {
    ($text:expr $(,)?) => {
        $crate::__literal!(IriRef, $text, Rfc3986)
    };
}
