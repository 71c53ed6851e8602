//! The catalogue of the checker's codes: one table ([`Code`], written once
//! in the `catalogue!` invocation below) in which each code carries its
//! stable name, default severity, spec section and explanation. The checker,
//! `iri check --explain`, the docs and the tests all read it. The modules
//! that report findings under these codes (the checker, the host spoofing
//! checks, the readings) depend on this one, and it on none of them; the
//! public paths are `iribis::check::Code` and `iribis::check::Severity`.

use core::fmt;

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// Not reported.
    Allow,
    /// A normalization hint.
    Info,
    /// Conforming, but the specs say it should not be created.
    Warning,
    /// Not a conforming IRI, or a security hazard.
    Error,
}

impl Severity {
    /// `allow`, `info`, `warning` or `error`.
    ///
    /// ```
    /// assert_eq!(iribis::check::Severity::Warning.name(), "warning");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Severity::Allow => "allow",
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The name, as [`Severity::name`] gives it.
///
/// ```
/// assert_eq!(iribis::check::Severity::Error.to_string(), "error");
/// ```
impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A severity by its name, as [`Severity::name`] gives it.
///
/// ```
/// use iribis::check::Severity;
/// assert_eq!("warning".parse::<Severity>(), Ok(Severity::Warning));
/// assert_eq!(
///     "fatal".parse::<Severity>().unwrap_err().to_string(),
///     r#"unknown severity "fatal": expected allow, info, warning or error"#
/// );
/// ```
impl core::str::FromStr for Severity {
    type Err = crate::profile::UnknownName;

    fn from_str(name: &str) -> Result<Self, crate::profile::UnknownName> {
        [
            Severity::Allow,
            Severity::Info,
            Severity::Warning,
            Severity::Error,
        ]
        .into_iter()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            crate::profile::UnknownName::new(
                "severity",
                name,
                &["allow", "info", "warning", "error"],
            )
        })
    }
}

macro_rules! catalogue {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $severity:ident, $spec:literal, $explain:literal; )*) => {
        /// A kind of finding, by its stable code. Each variant's text is also
        /// its `--explain` text.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $( $(#[$doc])* #[doc = $explain] $variant, )*
        }

        impl Code {
            /// Every code, in catalogue order.
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            /// Every code's name, in catalogue order.
            const NAMES: &'static [&'static str] = &[$($name),*];

            /// The stable UPPER_SNAKE name.
            ///
            /// ```
            /// assert_eq!(iribis::check::Code::DotSegment.name(), "DOT_SEGMENT");
            /// ```
            pub fn name(self) -> &'static str {
                match self { $(Code::$variant => $name,)* }
            }

            /// The severity under the `default` preset.
            pub fn default_severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// The spec section the finding rests on (for `SYNTAX_ERROR`,
            /// under the default profile: see [`Code::spec_for`]).
            pub fn spec(self) -> &'static str {
                match self { $(Code::$variant => $spec,)* }
            }

            /// The long explanation (`iri check --explain CODE`).
            pub fn explanation(self) -> &'static str {
                match self { $(Code::$variant => $explain,)* }
            }

            /// The code with this name, case-insensitively.
            ///
            /// ```
            /// use iribis::check::Code;
            /// assert_eq!(Code::from_name("dot_segment"), Some(Code::DotSegment));
            /// ```
            pub fn from_name(name: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.name().eq_ignore_ascii_case(name))
            }
        }

        /// A code by its name, case-insensitively ([`Code::from_name`]); an
        /// unknown name gets the closest codes as suggestions.
        ///
        /// ```
        /// use iribis::check::Code;
        ///
        /// assert_eq!("DOT_SEGMENT".parse::<Code>(), Ok(Code::DotSegment));
        /// let err = "DOT_SEGMNT".parse::<Code>().unwrap_err();
        /// assert_eq!(err.to_string(), r#"unknown code "DOT_SEGMNT": did you mean DOT_SEGMENT?"#);
        /// let err = "NO_SUCH_THING_AT_ALL".parse::<Code>().unwrap_err();
        /// assert_eq!(err.to_string(), r#"unknown code "NO_SUCH_THING_AT_ALL": see `iri check --explain`"#);
        /// ```
        impl core::str::FromStr for Code {
            type Err = crate::profile::UnknownName;

            fn from_str(name: &str) -> Result<Self, crate::profile::UnknownName> {
                Code::from_name(name).ok_or_else(|| {
                    crate::profile::UnknownName::among(
                        "code",
                        name,
                        Code::NAMES,
                        "see `iri check --explain`",
                    )
                })
            }
        }
    };
}

catalogue! {
    SyntaxError = "SYNTAX_ERROR", Error, "3987bis §2.2",
        "The input does not match the grammar of the profile, and the finding cites that grammar: 3987bis §2.2 (rfc3987bis, the default), RFC 3987 §2.2 (rfc3987), RFC 3986 §3 (rfc3986) or 3987bis §6.1 (leiri, LEIRIs). The finding is at the first character that cannot belong to any valid input; nothing else is checked, because without a parse there are no components.";
    BidiFormattingCharacter = "BIDI_FORMATTING_CHARACTER", Error, "RFC 3987 §4.1",
        "A bidi formatting character (LRM U+200E, RLM U+200F, ALM U+061C, LRE, RLE, PDF, LRO, RLO U+202A-202E, or an isolate U+2066-2069). RFC 3987 §4.1 says IRIs must not contain them: they change how the IRI is displayed without changing what it is, so a reader can be shown one IRI and given another. LEIRIs lift this restriction (3987bis §6.1): under the leiri profile or preset the character is reported as LEIRI_ONLY_CHARACTER instead.";
    BidiMixedDirection = "BIDI_MIXED_DIRECTION", Warning, "RFC 3987 §4.2 rule 1",
        "A component (host label, path segment, query name or value, userinfo, fragment) has both strong left-to-right and strong right-to-left characters. RFC 3987 §4.2 asks that a component not mix directions, so that its display order is predictable. The labels of a host with a right-to-left label follow RFC 5893 (the bidi rule of IDNA), which RFC 3987 §4.2 cites for host names: a right-to-left label has no left-to-right character (rule 2) and not both European and Arabic-Indic digits (rule 4), a left-to-right one no right-to-left character or Arabic-Indic digit (rule 5).";
    BidiRtlComponentBoundary = "BIDI_RTL_COMPONENT_BOUNDARY", Warning, "RFC 3987 §4.2 rule 2",
        "A component with right-to-left characters does not start and end with one (trailing non-spacing marks belong to the character before them). RFC 3987 §4.2 asks that such a component start and end with right-to-left characters, so that neighbouring components and delimiters do not reorder around it. The labels of a host with a right-to-left label follow RFC 5893 instead: every label starts with a letter (rule 1); a right-to-left label ends with a right-to-left letter, a European or an Arabic-Indic digit (rule 3: `עברית-123` is fine), a left-to-right one with a letter or a European digit (rule 6), either followed by non-spacing marks.";
    NotNfc = "NOT_NFC", Warning, "RFC 3987 §3.1 step 1b",
        "The component is not in Unicode Normalization Form C. IRIs created from text should be in NFC (RFC 3987 §3.1, 3987bis §3.1); comparison does not normalize (RFC 3987 §5.3.2.2), so a non-NFC IRI fails to match the NFC one a user types. Normalizing each component to NFC (3987bis §8.5) fixes it.";
    NotNfkc = "NOT_NFKC", Info, "3987bis §8.5",
        "The component is in NFC but not in NFKC: it has compatibility characters (ligatures, full-width forms, superscripts) that NFKC would replace. 3987bis §8.5 suggests NFKC where it helps users type the IRI.";
    CombiningMarkAtComponentStart = "COMBINING_MARK_AT_COMPONENT_START", Warning, "3987bis §5.1(c)",
        "A component starts with a combining mark, which displays as if it belonged to the delimiter before it (3987bis §5.1(c) gives U+0334 after '/' as the example).";
    JoinerCharacter = "JOINER_CHARACTER", Warning, "3987bis §5.1(d)",
        "ZERO WIDTH JOINER (U+200D) or ZERO WIDTH NON-JOINER (U+200C): invisible, and hard to enter; 3987bis §5.1(d) says to avoid them except where a script needs them.";
    LookalikeCharacter = "LOOKALIKE_CHARACTER", Warning, "3987bis §5.1(b)",
        "A character with a strong visual look-alike, which 3987bis §5.1(b) says to avoid: full-width Latin letters, digits and symbols (U+FF01-FF5E), half-width Katakana (U+FF61-FF9F), and look-alikes of space and of the delimiters (fraction and division slashes, one dot leader, small and full-width punctuation).";
    PercentEncodingNotUtf8 = "PERCENT_ENCODING_NOT_UTF8", Warning, "3987bis §5.4",
        "Percent-encoded octets that are not UTF-8 (a legacy encoding such as ISO-8859-1, a truncated sequence, a surrogate, or a lead octet C0, C1 or F5-FF not followed by the continuation octets of an overlong form: %C0 alone is Latin-1 'À'). They are valid in a URI but cannot become characters of an IRI (3987bis §4.2 step 3, §5.4).";
    PercentEncodingOverlongUtf8 = "PERCENT_ENCODING_OVERLONG_UTF8", Error, "RFC 3987 §8",
        "A complete overlong UTF-8 form, percent-encoded: a lead octet and all the continuation octets it announces, encoding a value that fits in fewer octets (%C0%AF and %E0%80%AF for '/', and the 4- to 6-octet forms). RFC 3987 §8 warns that decoders accepting them let '/' or '.' slip past checks: a security hazard. A lead octet without its continuation octets decodes to nothing and is PERCENT_ENCODING_NOT_UTF8.";
    PercentEncodedUnreserved = "PERCENT_ENCODED_UNRESERVED", Info, "RFC 3986 §2.3",
        "A percent-encoding of an unreserved character (a letter, a digit, '-', '.', '_' or '~'). RFC 3986 §2.3 says these should be written as themselves; normalization decodes them.";
    PercentEncodingLowercase = "PERCENT_ENCODING_LOWERCASE", Info, "RFC 3986 §2.1",
        "A percent-encoding with lowercase hex digits. RFC 3986 §2.1 says producers should use uppercase; normalization does.";
    PasswordInUserinfo = "PASSWORD_IN_USERINFO", Warning, "RFC 3986 §3.2.1",
        "The userinfo has the form user:password with a non-empty password. RFC 3986 §3.2.1 deprecates it: the password is in the clear wherever the IRI is shown or stored. An empty password (`user:@host`) is not one: the RFC itself treats \"the empty string (indicating no password)\" apart.";
    PortOutOfRange = "PORT_OUT_OF_RANGE", Error, "RFC 3986 §3.2.3",
        "The port is larger than 65535. The grammar allows any digits, but no transport has such a port.";
    DefaultPort = "DEFAULT_PORT", Info, "RFC 3986 §6.2.3",
        "The port is the scheme's default (80 for http, 443 for https, ...); RFC 3986 §6.2.3 normalizes it away.";
    EmptyPort = "EMPTY_PORT", Info, "RFC 3986 §3.2.3",
        "A ':' with no port after it. RFC 3986 §3.2.3 says producers should omit the ':' then.";
    EmptyHost = "EMPTY_HOST", Error, "RFC 9110 §4.2.1",
        "The IRI's scheme needs a host (http, https, ws, wss, ftp) and the host is empty or absent.";
    InvalidIdn = "INVALID_IDN", Error, "3987bis §3.4.2",
        "The registered name of a DNS scheme is internationalized (after percent-decoding it has a non-ASCII character or an xn-- label) and IDNA rejects it, so it cannot be converted to the xn-- form 3987bis §3.4.2 needs for resolution. The test is the IRI-to-URI conversion with IDNA (3987bis §3.4.2): percent-encodings decoded when all are UTF-8, then UTS #46 ToASCII with UseSTD3ASCIIRules (RFC 3987 §3.1), CheckHyphens and VerifyDnsLength (RFC 5891 §4.2.3.1, §5.4) on the whole name; a trailing root dot is fine. A name with a percent-encoding that is not UTF-8 is left to PERCENT_ENCODING_NOT_UTF8.";
    UppercaseHost = "UPPERCASE_HOST", Info, "RFC 3986 §3.2.2",
        "An ASCII registered name with uppercase letters. Hosts are case-insensitive and RFC 3986 §3.2.2 says producers should use lowercase.";
    DotSegment = "DOT_SEGMENT", Warning, "RFC 3986 §3.3",
        "A '.' or '..' segment in the path of an IRI (not a relative reference). Dot segments are meant for relative references; in an IRI they are removed by resolution and normalization, so two spellings name one resource.";
    PrivateUseCharacter = "PRIVATE_USE_CHARACTER", Warning, "3987bis §6.3",
        "A private-use character (U+E000-F8FF, the planes 15 and 16, or the tag range U+E0000-E0FFF). The grammar allows them in the query, but their meaning needs a private agreement, so they do not interoperate.";
    UppercaseScheme = "UPPERCASE_SCHEME", Info, "RFC 3986 §3.1",
        "The scheme has uppercase letters. Schemes are case-insensitive and RFC 3986 §3.1 says producers should use lowercase.";
    LeiriOnlyCharacter = "LEIRI_ONLY_CHARACTER", Error, "3987bis §6.3",
        "A character a LEIRI allows and an IRI does not (3987bis §6.3 groups them: space, the delimiters <>\", the unwise characters \\^`{|}, controls, bidi formatting characters, specials, private use outside the query, tags, non-characters). Convert the LEIRI to an IRI by percent-encoding them (3987bis §6.3).";
    HostRestrictedCharacter = "HOST_RESTRICTED_CHARACTER", Warning, "3987bis §10, UTS #39 §3.1",
        "A label of the host has a character whose identifier status (UTS #39 §3.1) is not Allowed: a symbol or emoji (`ab♥.com`), IPA or a small capital (`hardᴡare.com`, `ɢᴏᴏɢʟᴇ.com`), a letter of a historic or limited-use script (Cherokee, Vai, Coptic, Old Italic), an obsolete or uncommon letter (`ĸ`). Or a punctuation-like character identifiers allow but hosts should not have: a hyphen or apostrophe look-alike (U+2010, U+2019, U+2027, U+058A, U+30A0, U+02BC), U+30FB next to a Latin letter, U+00B7 outside the Catalan `l·l`. Or one of the four deviation characters of UTS #46 (ß, ς, ZERO WIDTH NON-JOINER, ZERO WIDTH JOINER): nontransitional processing keeps it, IDNA2003 and transitional processing map it to `ss`, `σ` or nothing, so one label names two hosts (`fuß.de` is `fuss.de` there; even under its own top-level domain). Such a host can look like another (3987bis §10 asks not to rely on how an IRI looks), and browsers show its label in punycode. A letter in uncommon use or obsolete is fine in a label of its own script under a top-level domain of that script (Georgian `ჽ` under `.ge`). `xn--` labels are decoded first.";
    HostMixedScripts = "HOST_MIXED_SCRIPTS", Warning, "3987bis §10, UTS #39 §5.2",
        "A label of the host mixes scripts beyond UTS #39's highly restrictive level: one script, or Latin with Han and kana (Japanese), Han and Bopomofo (Chinese) or Han and Hangul (Korean), and then only ASCII Latin. `paypαl.com` (a Greek alpha among Latin letters) and `gооglе.ru` (Cyrillic o and e) are not; `ビタミンb1.com` is. Script mixing is per label: `ひら.한국` is fine. A mixed label is how a look-alike of a familiar name is made, so browsers show it in punycode. Characters whose identifier status is not Allowed are left to HOST_RESTRICTED_CHARACTER.";
    HostMixedScriptConfusable = "HOST_MIXED_SCRIPT_CONFUSABLE", Warning, "3987bis §10, UTS #39 §4",
        "In a label that mixes scripts, a character of a minority script has the confusable skeleton (UTS #39 §4) of a character of the label's main script: Armenian `օ` in `gօogle.com` is read as a Latin `o`, Greek `α` in `paypαl.com` as an `a`, Latin `o` among Armenian letters as Armenian `օ`. Inside a Japanese label (one script at the highly restrictive level), a Han, Hiragana or Katakana letter between two letters of another of the three that has the skeleton of a letter of theirs: Hiragana `へ` between Katakana in `モヒートへブン.com` reads as Katakana `ヘ`. Beyond the skeletons, the look-alike table (gen/data/lookalikes.tsv: Chromium's published look-alike sets, each entry with its target and provenance) makes Georgian `ძ` a `d` among Latin letters; and in a label that mixes CJK with Latin, a Han or Bopomofo character the table reads as a Latin letter or digit next to a character that is not CJK is one too: `丁est.net` (`丁` reads as `t`), `google丨com.com`, `googleㄨcom.com`. The span is that character. The host reads as a name it is not.";
    HostWholeScriptConfusable = "HOST_WHOLE_SCRIPT_CONFUSABLE", Warning, "3987bis §10, UTS #39 §4",
        "A label written in one script other than Latin is made only of look-alikes of Latin letters (their UTS #39 skeletons are ASCII letters, or Latin letters neither technical nor obsolete: Cyrillic `ь` has that of `ƅ`), with digits and hyphens: `ѕсоре.com` in Cyrillic reads as `scope.com`. Under a top-level domain of the label's own script it is fine: an IDN TLD in that script (`ѕсоре.рф`) or a country code whose likely script (CLDR) it is (`ѕсоре.ru`, `ικα.gr`). The look-alike table (gen/data/lookalikes.tsv) adds the letters Chromium's IDN policy lists as Latin look-alikes for each script: Cyrillic `п` `г` `ю`, Greek `κ` `η` `τ`, Hebrew `ח` `ס` `ד`, Armenian, Georgian, Ethiopic, Myanmar, Thai and Indic letters (`сю.com`, `חסד.com`, `ικα.com`, `ทนบพรห.com`). Elsewhere the host reads as a Latin name it is not, and browsers show it in punycode.";
    HostDigitLookalike = "HOST_DIGIT_LOOKALIKE", Warning, "3987bis §10, UTS #39 §4",
        "A label is made only of digits and characters that read as digits: whose UTS #39 skeleton is that of a digit (`12345б7890.com`, where Cyrillic `б` reads as 6; `ꓲ2345б7890.com`), or that the look-alike table (gen/data/lookalikes.tsv, after Chromium's digit look-alikes) reads as one (`২৪.com`, Bengali 2 and 4 read as 2 and 8); or of ASCII digits and one letter of a script other than Latin, which reads as a digit among them (`1շ.com`, `16კ.com`). The label passes for a number it is not. A label of one script under a top-level domain of that script is fine.";
    HostMixedNumbers = "HOST_MIXED_NUMBERS", Warning, "3987bis §10, UTS #39 §5.3",
        "A label has decimal digits of more than one numbering system (UTS #39 §5.3): European and Gurmukhi in `੨0.com`, Bengali and Gurmukhi in `৪੨.com`, Devanagari and Bengali. Digits of one system can look like different digits of another (Bengali `৪` is 4 and looks like 8), so the label can pass for a number it is not.";
    HostStackedMarks = "HOST_STACKED_MARKS", Warning, "3987bis §10, UTS #39 §5.4",
        "A label has combining marks that hide or fake a character (UTS #39 §5.4): the same mark twice in a row (two acute accents, a Thai tone mark repeated), a mark on a dotless `ı` or `ȷ` (which then passes for `i` or `j`), U+0307 COMBINING DOT ABOVE on `i`, `j` or `l` (`pi̇xel.com` looks like `pixel.com`), or a diacritic of Latin, Greek and Cyrillic on a letter of a script that does not use it (`한̇글.com`). The reader sees one name, the DNS another.";
    HostKanaMisuse = "HOST_KANA_MISUSE", Warning, "3987bis §10, UTS #39 §4",
        "A Japanese character out of its place: U+30FC PROLONGED SOUND MARK not after kana (after Han or Latin it looks like a dash or the Han 'one'), U+30FD/U+30FE KATAKANA ITERATION MARK not after Katakana, a kana voiced sound mark (U+3099, U+309A) not after kana, or a Japanese character whose skeleton is ASCII punctuation or U+30FC (Katakana `ノ` looks like '/', Han `丶` like '\\', Han `一` like a dash) next to a letter that is not Japanese: `google.comノevil.jp` reads as a path. Or, in a label that mixes CJK with Latin, a Han or Bopomofo character the look-alike table reads as punctuation (`一` as '-', `乀` as '\\', `十` as '+') next to a character that is not CJK: `d12一.cn`, `example.com乀test`.";
    HostProtectedLookalike = "HOST_PROTECTED_LOOKALIKE", Warning, "3987bis §10, UTS #39 §4",
        "The host, or its last labels, has the UTS #39 skeleton of a domain the user protects (`CheckOptions::protected_domains`) (diacritics removed first, so `đigklmo68.com` matches `digklmo68.com` and `gооgle.com` in Cyrillic `google.com`; each character also read as the look-alike table reads it, so Cyrillic `к` is `k`, `ш` is `w`, `ӏ` is `l` and `i`, Bengali `৭` is `q` and `২` is `2`) and is not that domain. Subdomains of the domain itself are fine. A look-alike of a domain the user trusts is the classic phishing host.";
    ReadingHostDiffers = "READING_HOST_DIFFERS", Error, "RFC 3986 §7.4; WHATWG URL §3.5",
        "Another reader reaches another host than the one 3987bis reads, after the canonicalization all of them agree on (ASCII case, IDNA ToASCII, IPv6 compression; see `iribis::readings`). Numeric forms: `http://0x7f.1/`, `http://127.1/`, `http://2130706433/` and `http://0177.0.0.1/` are registered names to 3987bis (its IPv4address is dotted decimal only, RFC 3986 §7.4), but browsers (the WHATWG URL Standard's IPv4 parser) and C resolvers (inet_aton, which getaddrinfo and curl use) connect to 127.0.0.1. Percent-decoded hosts: browsers decode `http://%6c%6fcalhost/` to `localhost` and `http://192.168.0.1%2e/` to 192.168.0.1, and so does a reader that decodes before splitting. UTS #46-mapped hosts: 3987bis §3.4.2 looks a name up as RFC 5891 §5.3–5.5 do, which map nothing and refuse a label outside IDNA2008, while browsers map it first: full-width `ｌｏｃａｌｈｏｓｔ`, `ⓛⓞⓒⓐⓛⓗⓞⓢⓣ`, `a` U+00AD `b` and `example。com` reach no host under 3987bis and `localhost`, `ab`, `example.com` in browsers, and full-width `０ｘ７ｆ.１` reads as 127.0.0.1 (lowercasing or a dropped variation selector, as in `BÜCHER.de`, leaves the label the same one). A special scheme without `//`: `http:evil.example/` has no host in 3987bis, browsers go to evil.example. A filter that checks the host as written lets through a link that reaches a loopback, private or metadata address (`address_class` in the JSON names the IANA special-purpose block).";
    ReadingRejected = "READING_REJECTED", Warning, "WHATWG URL §3.5",
        "Browsers (the WHATWG URL Standard) reject an IRI that 3987bis accepts: a host that ends in a number but is no IPv4 address (`http://a.b.c.127.0.0.1/`, `http://09.0.0.1/`, `http://1.2.3.4.5/`), a percent-encoding that decodes to a character a domain cannot have (`http://ex%00ample.com/`), an IPvFuture literal, a name IDNA rejects, a port past 65535. The link works in no browser, and other clients read it as they please (a C library stops at the NUL of `ex%00ample.com`).";
    ReadingEncodedDotSegment = "READING_ENCODED_DOT_SEGMENT", Warning, "WHATWG URL §4.4",
        "A path segment that is a percent-encoded dot segment: `%2e`, `.%2e`, `%2e.` or `%2e%2e` in any case. To 3987bis (and RFC 3986 §5.2.4) it is an ordinary segment; browsers (the WHATWG URL Standard's single-dot and double-dot URL path segments) resolve it as `.` or `..`: `http://example.com/a/%2e%2e/b` goes to `/b`. Path filters that look for `..` miss it: the classic traversal past a prefix check. (PERCENT_ENCODED_UNRESERVED also reports the `%2e`.)";
    ReadingPathDiffers = "READING_PATH_DIFFERS", Warning, "WHATWG URL §4.4",
        "Browsers (the WHATWG URL Standard) resolve the path to another one than 3987bis, and not through a percent-encoded dot segment: a backslash, which a LEIRI may hold, is a '/' in a special scheme's path (`http://h/a\\b` is `/a/b`); `..` does not remove a Windows drive letter of a `file:` path (`file:///C:/../x` stays on `C:`). Differences of normalization (percent-encoding of characters outside ASCII, literal dot segments RFC 3986 removes too, an empty path as '/') are not reported.";
    ReadingUserinfoEncodedDelimiter = "READING_USERINFO_ENCODED_DELIMITER", Error, "RFC 3986 §7.3",
        "The userinfo hides `/`, `\\`, `?` or `#` behind a percent-encoding (directly, or after repeated decoding: `%2523` is `%23`, then `#`). 3987bis and browsers read the host after the userinfo; a reader that percent-decodes before splitting (a naive filter, a double-decoding server, RFC 3986 §7.3's back-end transcoding) ends the authority at the decoded delimiter and reaches another host: `http://evil.com%2f@good.com/` decodes to `http://evil.com/@good.com/`, host `evil.com`; `http://good.com%2523@evil.com/` to `http://good.com#@evil.com/`, host `good.com`. Allow-lists that decode first are bypassed this way. A hidden `@` alone (`alice%40corp@host`, the way to write an e-mail address as a user name) is not reported: readers split the userinfo at the last `@`, so the host stays the same.";
    UserinfoLooksLikeHost = "USERINFO_LOOKS_LIKE_HOST", Warning, "RFC 3986 §7.6",
        "The userinfo of an http, https, ws, wss or ftp IRI is shaped like a host name or an IP address: `http://google.com@evil.com/` goes to `evil.com`, every parser agrees, but people (and filters that test `startswith` or split at the wrong '@') read `google.com`. RFC 3986 §7.6 gives `ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm` as the example of this semantic attack; RFC 9110 §4.2.4 deprecates userinfo in http(s) IRIs.";
    HostNotAllowed = "HOST_NOT_ALLOWED", Error, "RFC 3986 §7.4",
        "A host that some reading of the IRI reaches is not in the list of allowed hosts (`iri check --allowed-hosts FILE`, `CheckOptions::allowed_hosts`): 3987bis's own, the WHATWG URL Standard's (browsers), inet_aton's (C resolvers) or that of a reader that percent-decodes before splitting. The message names the readers. Every reading counts, because the software that follows the link may read it any of these ways: `http://allowed.example%2f@evil.example/` passes a check of the 3987bis host and sends a decoding reader to evil.example.";
    QueryDocumentCharset = "QUERY_DOCUMENT_CHARSET", Warning, "3987bis §3.5",
        "An http or https IRI with characters outside ASCII in its query, in a document whose encoding is not UTF-8 or UTF-16 (reported for IRIs read from documents: `iri check --from`, `iribis::documents`). 3987bis §3.5 maps such a query to a URI with the document's charset, not UTF-8, and browsers do: in a Shift_JIS page, `http://example.jp/?q=日本` is requested as `?q=%93%FA%96%7B`, while the IRI's own mapping (3987bis §3.1) gives `?q=%E6%97%A5%E6%9C%AC`. A server that expects one gets the other. The finding gives both URIs; percent-encoding the query as the server expects it, or serving the document in UTF-8, removes the ambiguity. A character of the query that the document's charset cannot represent (it reached the document as a character reference such as `&#x20AC;`) is a finding of its own: browsers send it as the percent-encoded reference, `%26%238364%3B`, which the server reads as the text `&#8364;`.";
    RdfRelativeIri = "RDF_RELATIVE_IRI", Error, "RDF 1.1 N-Triples §2.1, RDF 1.1 N-Quads §2.1",
        "A relative IRI reference in an N-Triples or N-Quads document (reported for IRIs read from documents: `iri check --from ntriples|nquads`, `iribis::documents`). The two formats have no base: RDF 1.1 N-Triples §2.1 and N-Quads §2.1 allow only absolute IRIs in `<...>`, and their grammars' IRIREF note makes a relative one an error (the W3C tests `nt-syntax-bad-uri-06` to `-09` and `nq-syntax-bad-uri-01` are negative syntax tests). A parser rejects the statement or, leniently, makes of it whatever base it happens to have (the file's location, the parser's working directory), so the same document gives different graphs. The reference is not resolved against the document's location; write the absolute IRI (Turtle and TriG, which have `@base`, resolve relative references).";
    DocumentReplacementEncoding = "DOCUMENT_REPLACEMENT_ENCODING", Error, "WHATWG Encoding §4.2, §14.1; HTML §13.2.3",
        "An HTML document whose encoding is a label of the WHATWG Encoding Standard's `replacement` encoding (`csiso2022kr`, `hz-gb-2312`, `iso-2022-cn`, `iso-2022-cn-ext`, `iso-2022-kr`, `replacement`), named by a `<meta charset>` or a `<meta http-equiv=\"Content-Type\">` (given with `--encoding`, such a label is refused as unknown). Browsers do not decode these encodings (they were used for cross-site scripting through the way their escape sequences hide markup): the replacement decoder turns the whole document into one U+FFFD, so a browser shows no element and follows no link. No IRI of the document is reported, because none is read by a browser; this finding says why. Declare the encoding the document is in (UTF-8).";
    DocumentEncodingNotReread = "DOCUMENT_ENCODING_NOT_REREAD", Warning, "HTML §13.2.3.4",
        "A `<meta>` met by the HTML parser after the encoding prescan (beyond the first 1,024 bytes, or one the prescan could not read) names another encoding than the one the document is being read in, while that encoding is still only a guess (tentative): browsers then read the document again from the start in the new encoding (HTML \"changing the encoding while parsing\"), and so does `iri check --from html` for a file, or for a stream whose beginning it still holds. This finding is for a stream (standard input, a pipe) whose beginning it no longer holds, past the bound it keeps: the IRIs before it were reported as read in the first encoding, and the rest of the document is read in that encoding too, where a browser would read all of it in the new one. Give the encoding (`--encoding`), read the document from a file, or move the `<meta>` into the first 1,024 bytes.";
}

impl Code {
    /// The spec section a finding of this code cites when the input is
    /// checked under `profile`: a `SYNTAX_ERROR` cites the grammar of the
    /// profile, as [`ParseError::spec`](crate::ParseError::spec) does (RFC
    /// 3986 §3, RFC 3987 §2.2, 3987bis §6.1 for LEIRIs, 3987bis §2.2);
    /// every other code its own section, [`Code::spec`], whatever the
    /// profile.
    ///
    /// ```
    /// use iribis::check::Code;
    /// use iribis::Profile;
    ///
    /// assert_eq!(Code::SyntaxError.spec_for(Profile::Rfc3986), "RFC 3986 §3");
    /// assert_eq!(Code::SyntaxError.spec_for(Profile::Rfc3987bis), Code::SyntaxError.spec());
    /// assert_eq!(Code::DotSegment.spec_for(Profile::Rfc3986), "RFC 3986 §3.3");
    /// ```
    pub fn spec_for(self, profile: crate::Profile) -> &'static str {
        match (self, profile) {
            (Code::SyntaxError, crate::Profile::Rfc3986) => "RFC 3986 §3",
            (Code::SyntaxError, crate::Profile::Rfc3987) => "RFC 3987 §2.2",
            (Code::SyntaxError, crate::Profile::Leiri) => "3987bis §6.1",
            _ => self.spec(),
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
