//! The conformance checker: every finding about an input, with a stable
//! code, a severity, the spec section it rests on, a message and a span.
//!
//! The catalogue is one table ([`Code`]): each code carries its name,
//! default severity, spec section and explanation, and the checker,
//! `iri check --explain`, the docs and the tests all read it. Severities
//! are swappable per run ([`Severities`]), as lints are.

pub use crate::catalogue::{Code, Severity};
use crate::prelude::*;

#[cfg(feature = "serde")]
mod serialize;

use crate::chars;
use crate::components::Component;
use crate::convert::{self, IdnaName};
use crate::host::Host;
use crate::iri::{IriRef, ParseOptions};
use crate::profile::Profile;
use crate::render::describe;
use crate::scheme::{DEFAULT_PORTS, DNS_SCHEMES};
use crate::unicode::{BidiClass, bidi_class, is_combining_mark, is_nfc, is_nfkc};

/// A severity preset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Preset {
    /// Each code's default severity.
    #[default]
    Default,
    /// Warnings become errors and infos warnings.
    Strict,
    /// For LEIRI inputs: `LEIRI_ONLY_CHARACTER` is a warning.
    Leiri,
}

impl core::str::FromStr for Preset {
    type Err = crate::profile::UnknownName;

    fn from_str(s: &str) -> Result<Self, crate::profile::UnknownName> {
        match s {
            "default" => Ok(Preset::Default),
            "strict" => Ok(Preset::Strict),
            "leiri" => Ok(Preset::Leiri),
            _ => Err(crate::profile::UnknownName::new(
                "severity preset",
                s,
                &["default", "strict", "leiri"],
            )),
        }
    }
}

/// The severity of every code: a preset, then per-code overrides.
///
/// ```
/// use iribis::check::{Code, Preset, Severities, Severity};
///
/// let s = Severities::new(Preset::Strict).set(Code::DotSegment, Severity::Allow);
/// assert_eq!(s.of(Code::DefaultPort), Severity::Warning);
/// assert_eq!(s.of(Code::DotSegment), Severity::Allow);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Severities {
    preset: Preset,
    overrides: Vec<(Code, Severity)>,
}

impl Severities {
    /// The severities of `preset`.
    pub fn new(preset: Preset) -> Self {
        Severities {
            preset,
            overrides: Vec::new(),
        }
    }

    /// Overrides one code's severity (the last override wins).
    pub fn set(mut self, code: Code, severity: Severity) -> Self {
        self.overrides.push((code, severity));
        self
    }

    /// The severities of name → severity-name pairs, as the Python and npm
    /// bindings take them: the key `preset` names the preset (`default`
    /// when absent), every other key a code ([`Code::from_name`]), its
    /// value a severity name; the codes are set in the order given. An
    /// unknown name is an error that names it, with the closest names.
    ///
    /// ```
    /// use iribis::check::{Code, Severities, Severity};
    ///
    /// let s = Severities::from_pairs([("DOT_SEGMENT", "allow"), ("preset", "strict")])?;
    /// assert_eq!(s.of(Code::DotSegment), Severity::Allow);
    /// assert_eq!(s.of(Code::DefaultPort), Severity::Warning);
    /// let err = Severities::from_pairs([("DOT_SEGMNT", "allow")]).unwrap_err();
    /// assert_eq!(err.to_string(), r#"unknown code "DOT_SEGMNT": did you mean DOT_SEGMENT?"#);
    /// let err = Severities::from_pairs([("DOT_SEGMENT", "fatal")]).unwrap_err();
    /// assert_eq!(err.to_string(), r#"unknown severity "fatal": expected allow, info, warning or error"#);
    /// # Ok::<(), iribis::UnknownName>(())
    /// ```
    pub fn from_pairs<K, V>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Severities, crate::profile::UnknownName>
    where
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let mut out = Severities::default();
        for (key, value) in pairs {
            let (key, value) = (key.as_ref(), value.as_ref());
            if key == "preset" {
                out.preset = value.parse()?;
            } else {
                out.overrides.push((key.parse()?, value.parse()?));
            }
        }
        Ok(out)
    }

    /// The severity of `code`.
    pub fn of(&self, code: Code) -> Severity {
        if let Some(&(_, s)) = self.overrides.iter().rev().find(|(c, _)| *c == code) {
            return s;
        }
        let d = code.default_severity();
        match (self.preset, d) {
            (Preset::Strict, Severity::Warning) => Severity::Error,
            (Preset::Strict, Severity::Info) => Severity::Warning,
            (Preset::Leiri, _) if code == Code::LeiriOnlyCharacter => Severity::Warning,
            _ => d,
        }
    }
}

/// The `default` preset with each code's severity overridden in turn.
///
/// ```
/// use iribis::check::{Code, Severities, Severity};
///
/// let s: Severities = [(Code::DotSegment, Severity::Error)].into_iter().collect();
/// assert_eq!(s.of(Code::DotSegment), Severity::Error);
/// ```
impl FromIterator<(Code, Severity)> for Severities {
    fn from_iter<I: IntoIterator<Item = (Code, Severity)>>(pairs: I) -> Self {
        Severities {
            preset: Preset::Default,
            overrides: pairs.into_iter().collect(),
        }
    }
}

/// Options of [`check`]: the profile, the severity of each code, and the
/// protected domains.
///
/// ```
/// use iribis::check::{check, CheckOptions, Preset, Severities};
/// use iribis::Profile;
///
/// let strict = CheckOptions::new()
///     .profile(Profile::Rfc3986)
///     .severities(Severities::new(Preset::Strict));
/// assert!(!check("http://例え.jp/", &strict).valid);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CheckOptions {
    /// The grammar the input is parsed with.
    pub profile: Profile,
    /// The severity of each code.
    pub severities: Severities,
    /// Domains whose look-alikes are `HOST_PROTECTED_LOOKALIKE` (with the
    /// `spoof` feature, which the host spoofing codes need).
    #[cfg(feature = "spoof")]
    pub protected_domains: crate::spoof::ProtectedDomains,
    /// The hosts every reading may reach; any other is `HOST_NOT_ALLOWED`
    /// (with the `readings` feature, which the `READING_` codes need too).
    #[cfg(feature = "readings")]
    pub allowed_hosts: Option<crate::readings::AllowedHosts>,
}

impl CheckOptions {
    /// The default options: profile `rfc3987bis`, the default severities,
    /// no protected domains.
    pub fn new() -> Self {
        CheckOptions::default()
    }

    /// Parses under `profile`.
    pub fn profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// Reports each code at the severity `severities` gives it.
    pub fn severities(mut self, severities: Severities) -> Self {
        self.severities = severities;
        self
    }

    /// Reports hosts that look like one of `domains` and are not
    /// (`HOST_PROTECTED_LOOKALIKE`).
    #[cfg(feature = "spoof")]
    pub fn protected_domains(mut self, domains: crate::spoof::ProtectedDomains) -> Self {
        self.protected_domains = domains;
        self
    }

    /// Reports every host a reading of the input reaches (3987bis, the
    /// WHATWG URL Standard, inet_aton, a decoding reader) that `hosts` does
    /// not allow (`HOST_NOT_ALLOWED`).
    ///
    /// ```
    /// use iribis::check::{check, CheckOptions, Code};
    /// use iribis::readings::AllowedHosts;
    ///
    /// let options = CheckOptions::new().allowed_hosts(AllowedHosts::parse("good.example\n")?);
    /// assert!(check("https://good.example/a", &options).valid);
    /// let report = check("https://evil.example%2f@good.example/", &options);
    /// assert!(!report.valid);
    /// assert!(report.violations.iter().any(|v| v.code == Code::HostNotAllowed));
    /// # Ok::<(), String>(())
    /// ```
    #[cfg(feature = "readings")]
    pub fn allowed_hosts(mut self, hosts: crate::readings::AllowedHosts) -> Self {
        self.allowed_hosts = Some(hosts);
        self
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violation {
    /// What was found.
    pub code: Code,
    /// Its severity under the options' [`Severities`].
    pub severity: Severity,
    /// The spec section it rests on: the code's [`Code::spec`], but for a
    /// `SYNTAX_ERROR` the grammar of the profile the input was checked
    /// under ([`Code::spec_for`], as [`ParseError::spec`](crate::ParseError::spec)
    /// cites it).
    ///
    /// ```
    /// use iribis::check::{self, CheckOptions};
    /// use iribis::Profile;
    ///
    /// let options = CheckOptions::new().profile(Profile::Rfc3986);
    /// let report = check::check("http://example.org/a b", &options);
    /// assert_eq!(report.violations[0].spec, "RFC 3986 §3");
    /// ```
    pub spec: &'static str,
    /// One sentence about this input.
    pub message: String,
    /// Byte offset of the span's start.
    pub byte: usize,
    /// Character offset of the span's start.
    pub char: usize,
    /// The span's length in characters.
    pub len: usize,
    /// The component the span is in.
    pub component: Component,
    /// For a `SYNTAX_ERROR`, what could have stood at its position (the
    /// parse error's [`expected_all`](crate::ParseError::expected_all));
    /// empty for every other code.
    ///
    /// ```
    /// use iribis::check::{self, CheckOptions, Code};
    /// use iribis::Expected;
    ///
    /// let report = check::check("http://example.org/a b", &CheckOptions::default());
    /// let v = &report.violations[0];
    /// assert_eq!(v.code, Code::SyntaxError);
    /// assert_eq!(v.expected.last(), Some(&Expected::End));
    /// ```
    pub expected: Vec<crate::error::Expected>,
    /// On a `READING_` finding and `HOST_NOT_ALLOWED`: what the other
    /// readers read (with the `readings` feature).
    #[cfg(feature = "readings")]
    pub detail: Option<Box<crate::readings::Detail>>,
}

impl Violation {
    /// A finding of `code` at `severity`: `len` characters from the byte
    /// `byte` (character `char`) of `component`; nothing expected, no
    /// readers' details (for the findings the document readers add).
    ///
    /// ```
    /// use iribis::check::{Code, Severity, Violation};
    /// use iribis::Component;
    ///
    /// let v = Violation::new(Code::NotNfc, Severity::Warning, "not NFC".into(), (0, 0, 1), Component::Path);
    /// assert_eq!(v.code, Code::NotNfc);
    /// ```
    pub fn new(
        code: Code,
        severity: Severity,
        message: String,
        (byte, char, len): (usize, usize, usize),
        component: Component,
    ) -> Violation {
        Violation {
            code,
            severity,
            spec: code.spec(),
            message,
            byte,
            char,
            len,
            component,
            expected: Vec::new(),
            #[cfg(feature = "readings")]
            detail: None,
        }
    }

    /// A window of the input around this violation's span as a report
    /// shows it, and the line to print beneath it with `^` under the span
    /// (see [`underline`](crate::render::underline): about 40 columns of context on
    /// each side, `…` where the input is cut, invisible characters escaped,
    /// marks placed by display width, right-to-left text in a left-to-right
    /// embedding, RFC 3987 §4.1). Costs time in the span's length and the
    /// window's, not the input's.
    ///
    /// ```
    /// use iribis::check;
    /// use iribis::check::CheckOptions;
    ///
    /// let input = "http://例え.jp/%7e";
    /// let v = &check(input, &CheckOptions::default()).violations[0];
    /// assert_eq!(v.underline(input), (input.to_owned(), format!("{}^^^", " ".repeat(15))));
    /// ```
    pub fn underline(&self, input: &str) -> (String, String) {
        let end = input
            .get(self.byte..)
            .and_then(|rest| rest.char_indices().nth(self.len))
            .map_or(input.len(), |(i, _)| self.byte + i);
        crate::render::underline(input, self.byte, end)
    }
}

/// The findings about one input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Whether the input parses under the profile and no finding has
    /// error severity.
    pub valid: bool,
    /// The findings, by position, allowed ones left out.
    pub violations: Vec<Violation>,
}

/// Checks `input` against the specs.
///
/// ```
/// use iribis::check;
/// use iribis::check::{CheckOptions, Code};
///
/// let report = check("HTTP://example.org:80/a/./b?%7e", &CheckOptions::default());
/// assert!(report.valid);
/// let codes: Vec<&str> = report.violations.iter().map(|v| v.code.name()).collect();
/// assert_eq!(codes, ["UPPERCASE_SCHEME", "DEFAULT_PORT", "DOT_SEGMENT", "PERCENT_ENCODED_UNRESERVED", "PERCENT_ENCODING_LOWERCASE"]);
/// assert!(!check("http://[::1", &CheckOptions::default()).valid);
/// ```
pub fn check(input: &str, options: &CheckOptions) -> Report {
    check_with(input, options, &mut HostMemo::default())
}

/// A checker for many inputs under the same options, as a dataset is
/// checked. It remembers what the host checks found about the last hosts
/// it saw: spoofing (3987bis §10, UTS #39) and IDNA (§3.4.2), most of the
/// cost of checking an IRI with a host outside ASCII, are then paid once
/// per host rather than once per input. Its reports are those of
/// [`check()`]; what it remembers is bounded (4,096 hosts of at most 1 KiB).
///
/// ```
/// use iribis::check::{CheckOptions, Checker, Code};
///
/// let mut checker = Checker::new(CheckOptions::default());
/// for path in ["a", "b", "c"] {
///     let input = format!("http://pаypal.com/{path}"); // a Cyrillic 'а'
///     let report = checker.check(&input);
///     assert_eq!(report, iribis::check(&input, checker.options()));
///     assert!(report.violations.iter().any(|v| v.code == Code::HostMixedScriptConfusable));
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Checker {
    options: CheckOptions,
    hosts: HostMemo,
}

impl Checker {
    /// A checker with `options`, which remembers nothing yet.
    pub fn new(options: CheckOptions) -> Self {
        Checker {
            options,
            hosts: HostMemo {
                capacity: HostMemo::CAPACITY,
                ..HostMemo::default()
            },
        }
    }

    /// The options it checks with.
    pub fn options(&self) -> &CheckOptions {
        &self.options
    }

    /// Checks `input`: the report [`check()`] gives with these options.
    pub fn check(&mut self, input: &str) -> Report {
        check_with(input, &self.options, &mut self.hosts)
    }
}

/// What the host checks found about registered names, by name: at most
/// `capacity` of them (none for [`check()`]), forgotten all at once when
/// full, and only names of at most [`HostMemo::LONGEST`] bytes.
#[derive(Clone, Debug, Default)]
struct HostMemo {
    verdicts: crate::nostd::HashMap<Box<str>, HostVerdict>,
    /// Whether every reader reads an internationalized name alike, by name
    /// and kind of scheme (`readings::host_reads_alike`).
    #[cfg(feature = "readings")]
    alike: crate::nostd::HashMap<(Box<str>, u8), bool>,
    capacity: usize,
}

impl HostMemo {
    const CAPACITY: usize = 4096;
    const LONGEST: usize = 1024;

    /// The verdict on `host` under `options`, remembered or worked out;
    /// `idna` says whether the caller needs IDNA's.
    fn verdict(
        &mut self,
        host: &str,
        options: &CheckOptions,
        idna: bool,
    ) -> alloc::borrow::Cow<'_, HostVerdict> {
        if self.capacity == 0 || host.len() > Self::LONGEST {
            return alloc::borrow::Cow::Owned(HostVerdict::of(host, options, idna));
        }
        if !self.verdicts.contains_key(host) {
            if self.verdicts.len() >= self.capacity {
                self.verdicts.clear();
            }
            let verdict = HostVerdict::of(host, options, true);
            self.verdicts.insert(host.into(), verdict);
        }
        alloc::borrow::Cow::Borrowed(&self.verdicts[host])
    }

    /// Whether every reader reads the internationalized name `host` alike
    /// under a scheme of `kind`, remembered or worked out.
    #[cfg(feature = "readings")]
    fn reads_alike(&mut self, host: &str, kind: u8) -> bool {
        if self.capacity == 0 || host.len() > Self::LONGEST {
            return crate::readings::host_reads_alike(host, kind);
        }
        if let Some(&alike) = self.alike.get(&(Box::from(host), kind)) {
            return alike;
        }
        if self.alike.len() >= self.capacity {
            self.alike.clear();
        }
        let alike = crate::readings::host_reads_alike(host, kind);
        self.alike.insert((host.into(), kind), alike);
        alike
    }
}

/// Whether `options` protect no domain (always, without the `spoof`
/// feature).
#[cfg_attr(not(feature = "spoof"), allow(unused_variables))]
fn protected_domains_empty(options: &CheckOptions) -> bool {
    #[cfg(feature = "spoof")]
    let empty = options.protected_domains.is_empty();
    #[cfg(not(feature = "spoof"))]
    let empty = true;
    empty
}

/// What the host checks find about a registered name, whatever else the
/// input holds: the spoofing findings (offsets into the name) and, when
/// asked for, the label IDNA rejects.
#[derive(Clone, Debug)]
struct HostVerdict {
    #[cfg(feature = "spoof")]
    spoofing: Vec<crate::spoof::HostFinding>,
    idna_rejects: Option<String>,
}

impl HostVerdict {
    #[cfg_attr(not(feature = "spoof"), allow(unused_variables))]
    fn of(host: &str, options: &CheckOptions, idna: bool) -> Self {
        HostVerdict {
            #[cfg(feature = "spoof")]
            spoofing: crate::spoof::check_host(host, &options.protected_domains),
            idna_rejects: if idna && !host.is_empty() {
                match convert::ireg_name_to_ascii(host, convert::IdnaMode::Idna2008) {
                    IdnaName::Rejected(label) => Some(label),
                    _ => None,
                }
            } else {
                None
            },
        }
    }
}

/// [`check()`], with `hosts` remembering host verdicts.
fn check_with(input: &str, options: &CheckOptions, hosts: &mut HostMemo) -> Report {
    let mut found = Findings {
        input,
        list: Vec::new(),
    };
    let mut expected = Vec::new();
    let mut syntax_spec = Code::SyntaxError.spec_for(options.profile);
    // Matched by reference: the reference is checked where the parse left
    // it, not moved out first (a copy of some 180 bytes).
    match &IriRef::parse_with(input, &ParseOptions::new().profile(options.profile)) {
        Ok(r) => check_parsed(r, options, hosts, &mut found),
        Err(e) => {
            syntax_spec = e.spec();
            found.push(
                Code::SyntaxError,
                e.byte(),
                e.byte() + input[e.byte()..].chars().next().map_or(0, char::len_utf8),
                e.component(),
                e.message(),
            );
            expected = e.expected_all();
        }
    }
    let mut list = found.list;
    list.retain(|f| options.severities.of(f.code) != Severity::Allow);
    // Character offsets in one walk of the input, not one per finding.
    let chars = CharOffsets::new(input, list.iter().flat_map(|f| [f.start, f.end]));
    let mut violations: Vec<Violation> = list
        .into_iter()
        .map(|f| Violation {
            code: f.code,
            severity: options.severities.of(f.code),
            spec: if f.code == Code::SyntaxError {
                syntax_spec
            } else {
                f.code.spec()
            },
            message: f.message,
            byte: f.start,
            char: chars.at(f.start),
            len: chars.at(f.end).saturating_sub(chars.at(f.start)),
            component: f.component,
            expected: if f.code == Code::SyntaxError {
                core::mem::take(&mut expected)
            } else {
                Vec::new()
            },
            #[cfg(feature = "readings")]
            detail: f.detail,
        })
        .collect();
    violations.sort_by_key(|v| (v.byte, v.code));
    let valid = !violations.iter().any(|v| v.severity == Severity::Error)
        && !violations.iter().any(|v| v.code == Code::SyntaxError);
    Report { valid, violations }
}

/// The character offsets of some byte offsets of a text, worked out in one
/// walk of it.
struct CharOffsets(Vec<(usize, usize)>);

impl CharOffsets {
    /// `bytes` are character boundaries of `text`, in any order.
    fn new(text: &str, bytes: impl Iterator<Item = usize>) -> Self {
        let mut bytes: Vec<usize> = bytes.collect();
        bytes.sort_unstable();
        bytes.dedup();
        let (mut at, mut count) = (0, 0);
        let offsets = bytes
            .into_iter()
            .map(|b| {
                count += text.get(at..b).map_or(0, |s| s.chars().count());
                at = b;
                (b, count)
            })
            .collect();
        CharOffsets(offsets)
    }

    /// The character offset of `byte`, one of the offsets given to `new`.
    fn at(&self, byte: usize) -> usize {
        self.0
            .binary_search_by_key(&byte, |&(b, _)| b)
            .map_or(0, |i| self.0[i].1)
    }
}

/// What the checks found, in the order they found it.
struct Findings<'a> {
    input: &'a str,
    list: Vec<Finding>,
}

/// One finding: a code, the bytes `start..end` of the input it is about,
/// their component, and the message.
struct Finding {
    code: Code,
    start: usize,
    end: usize,
    component: Component,
    message: String,
    #[cfg(feature = "readings")]
    detail: Option<Box<crate::readings::Detail>>,
}

impl Findings<'_> {
    fn push(
        &mut self,
        code: Code,
        start: usize,
        end: usize,
        component: Component,
        message: String,
    ) {
        self.list.push(Finding {
            code,
            start,
            end,
            component,
            message,
            #[cfg(feature = "readings")]
            detail: None,
        });
    }

    /// The byte offset of `part`, a slice of the input.
    fn offset(&self, part: &str) -> usize {
        part.as_ptr() as usize - self.input.as_ptr() as usize
    }
}

/// A piece of a component in the sense of RFC 3987 §4.2: a host label, a
/// path segment (and each extension in it), a query name or value, the
/// userinfo, the fragment.
fn pieces(r: &IriRef<&str>) -> Vec<(Component, usize, usize)> {
    let base = r.as_str().as_ptr() as usize;
    let mut out = Vec::with_capacity(16);
    // The separators are ASCII, which no byte of a longer UTF-8 sequence
    // is: the split is a split on bytes.
    let mut add = |component: Component, whole: &str, sep: &[u8]| {
        let start = whole.as_ptr() as usize - base;
        let mut at = start;
        for (i, b) in whole.bytes().enumerate() {
            if sep.contains(&b) {
                if start + i > at {
                    out.push((component, at, start + i));
                }
                at = start + i + 1;
            }
        }
        if start + whole.len() > at {
            out.push((component, at, start + whole.len()));
        }
    };
    if let Some(u) = r.userinfo() {
        add(Component::Userinfo, u, b"");
    }
    if let Some(Host::RegName(h)) = r.host() {
        add(Component::Host, h, b".");
    }
    // A segment's extensions count as components of their own (RFC 3987
    // §4.2: "the extensions in a resource name can be treated as separate
    // components").
    add(Component::Path, r.path(), b"/.");
    if let Some(q) = r.query() {
        add(Component::Query, q, b"&=;");
    }
    if let Some(f) = r.fragment() {
        add(Component::Fragment, f, b"");
    }
    out
}

/// The byte ranges of the components of `r`, each with its component, in
/// the order they stand; an absent component has an empty range.
struct ComponentSpans([(Component, usize, usize); 7]);

impl ComponentSpans {
    fn of(r: &IriRef<&str>) -> Self {
        let meta = r.meta();
        let span = |c: Component, slot: crate::meta::Slot| {
            let (start, end) = slot.get().unwrap_or((0, 0));
            (c, start, end)
        };
        ComponentSpans([
            span(Component::Scheme, meta.scheme),
            span(Component::Userinfo, meta.userinfo),
            span(Component::Host, meta.host),
            span(Component::Port, meta.port),
            span(Component::Path, meta.path),
            span(Component::Query, meta.query),
            span(Component::Fragment, meta.fragment),
        ])
    }

    /// The component of the input at byte `i` (`Input` for a delimiter).
    fn at(&self, i: usize) -> Component {
        self.0
            .iter()
            .find(|&&(_, start, end)| start <= i && i < end)
            .map_or(Component::Input, |&(c, ..)| c)
    }
}

/// What one pass over an input's bytes tells the checks, eight bytes at a
/// time: whether it is all ASCII, and whether it has a `%`, a `-` or an
/// ASCII uppercase letter anywhere. A check that looks for one of them in
/// a part of the input need not look when the whole has none.
struct Look {
    ascii: bool,
    percent: bool,
    hyphen: bool,
    upper: bool,
}

impl Look {
    fn of(input: &str) -> Look {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // A byte of `word` equal to `b`: a zero byte of `word ^ b...b`,
        // which borrows into its high bit when one is taken from it.
        let zero = |word: u64| word.wrapping_sub(ONES) & !word & HIGH;
        let (mut high, mut percent, mut hyphen, mut upper) = (0, 0, 0, 0);
        let (words, tail) = input.as_bytes().as_chunks::<8>();
        // The last bytes padded with zeros (no flag), byte by byte: a copy
        // of a slice of unknown length would be a call to memcpy.
        let last = tail
            .iter()
            .enumerate()
            .fold(0, |w, (k, &b)| w | u64::from(b) << (8 * k));
        for w in words.iter().map(|w| u64::from_le_bytes(*w)).chain([last]) {
            high |= w & HIGH;
            percent |= zero(w ^ (ONES * u64::from(b'%')));
            hyphen |= zero(w ^ (ONES * u64::from(b'-')));
            // With the high bits cleared no sum carries into the next
            // byte: the high bit of `low + 0x80 - 'A'` is set where a byte
            // is at least 'A', that of `low + 0x80 - 'Z' - 1` where it is
            // beyond 'Z'; bytes outside ASCII are left out.
            let low = w & !HIGH;
            let from_a = low.wrapping_add(ONES * u64::from(0x80 - b'A'));
            let past_z = low.wrapping_add(ONES * u64::from(0x80 - b'Z' - 1));
            upper |= from_a & !past_z & !w & HIGH;
        }
        Look {
            ascii: high == 0,
            percent: percent != 0,
            hyphen: hyphen != 0,
            upper: upper != 0,
        }
    }
}

/// The checks of a reference that parses: character by character, the
/// percent-encodings, piece by piece (RFC 3987 §4.2), then component by
/// component.
fn check_parsed(
    r: &IriRef<&str>,
    options: &CheckOptions,
    hosts: &mut HostMemo,
    found: &mut Findings<'_>,
) {
    // LEIRIs lift RFC 3987 §4.1's ban on bidi formatting characters
    // (3987bis §6.1) and list them among the characters a LEIRI allows and
    // an IRI does not (§6.3): under the leiri profile or preset they are
    // LEIRI_ONLY_CHARACTER.
    let leiri = options.profile == Profile::Leiri || options.severities.preset == Preset::Leiri;
    // Most inputs are ASCII, without an uppercase letter or a percent
    // sign, which several checks look for: one look for all of them.
    let look = Look::of(r.as_str());
    // Lowercase already, as schemes mostly are: no copy.
    let scheme = r.scheme().map(|s| {
        if look.upper && s.bytes().any(|b| b.is_ascii_uppercase()) {
            alloc::borrow::Cow::Owned(s.to_ascii_lowercase())
        } else {
            alloc::borrow::Cow::Borrowed(s)
        }
    });
    let scheme = scheme.as_deref();
    check_characters(r, look.ascii, leiri, found);
    if look.percent {
        check_percent_encodings(r, found);
    }
    // An ASCII input has no right-to-left host, combining mark or
    // character outside NFC or NFKC: nothing to find piece by piece.
    if !look.ascii {
        check_pieces(r, found);
    }
    if look.upper {
        check_scheme(r, found);
    }
    check_userinfo(r, scheme, found);
    check_port(r, scheme, found);
    // Whether the host is a plain ASCII name (no character outside ASCII,
    // no percent-encoding, no A-label): the host checks and the readings'
    // cheap look both ask.
    let host = r.host();
    let plain = match host {
        // No A-label without a hyphen.
        Some(Host::RegName(_)) if look.ascii && !look.percent && !look.hyphen => true,
        Some(Host::RegName(h)) => crate::host::is_plain_ascii_name(h),
        _ => false,
    };
    check_host(r, host, scheme, plain, look.upper, options, hosts, found);
    check_path(r, found);
    #[cfg(feature = "readings")]
    check_readings(r, host, scheme, plain, options, hosts, found);
}

/// Whether the path or a LEIRI's characters can read otherwise in a
/// browser, as the findings so far answer (no second look at the input):
/// the path has a `%2e` (which the percent-encoding checks have found as
/// an encoded unreserved character) or a drive letter before a dot segment
/// (which rust-url keeps in every scheme); or a LEIRI has a character of
/// 3987bis §6.3 (a LEIRI_ONLY_CHARACTER finding) that browsers do not read
/// as written: a tab, line feed or carriage return, which the URL
/// Standard's parser removes anywhere, a backslash, which it reads as `/`
/// in a special scheme, or a control or space at the end, which it strips.
/// The others (a space, `"<>^`{|}`, a control within the path) browsers
/// percent-encode, the same path then; in the host
/// [`crate::readings::host_may_differ`] looks at them.
#[cfg(feature = "readings")]
fn found_may_differ(r: &IriRef<&str>, found: &Findings<'_>) -> bool {
    let input = r.as_str();
    let path = r.path();
    found.list.iter().any(|f| match f.code {
        Code::PercentEncodedUnreserved => {
            f.component == Component::Path
                && input
                    .get(f.start..f.start + 3)
                    .is_some_and(|e| e.eq_ignore_ascii_case("%2e"))
        }
        Code::DotSegment => memchr::memchr(b':', path.as_bytes()).is_some(),
        Code::LeiriOnlyCharacter => {
            f.end == input.len()
                || matches!(input.as_bytes()[f.start], b'\t' | b'\n' | b'\r' | b'\\')
        }
        _ => false,
    })
}

/// Where other readers read the input otherwise (`READING_` codes), and
/// the hosts of all readings outside the allowed ones. The readings are
/// computed only where a cheap look says they can part
/// ([`crate::readings::host_may_differ`], remembered per internationalized
/// name, and [`crate::readings::rest_may_differ`]) or
/// the allowed hosts need them.
#[cfg(feature = "readings")]
fn check_readings(
    r: &IriRef<&str>,
    host: Option<Host<'_>>,
    scheme: Option<&str>,
    plain: bool,
    options: &CheckOptions,
    hosts: &mut HostMemo,
    found: &mut Findings<'_>,
) {
    use crate::readings::{HostLook, host_may_differ, rest_may_differ, scheme_kind};
    let allowed = options.allowed_hosts.as_ref();
    if allowed.is_none() && !rest_may_differ(r) && !found_may_differ(r, found) {
        match host_may_differ(r, host, scheme, plain) {
            HostLook::Alike => return,
            HostLook::Name => {
                let name = r.host_str().unwrap_or("");
                if hosts.reads_alike(name, scheme_kind(r.scheme())) {
                    return;
                }
            }
            HostLook::Maybe => {}
        }
    }
    let all = crate::readings::readings(r);
    for d in all.differences() {
        found.list.push(Finding {
            code: d.code,
            start: d.start,
            end: d.end,
            component: d.component,
            message: d.message.clone(),
            detail: Some(Box::new(all.detail(d))),
        });
    }
    let Some(allowed) = allowed else { return };
    let (start, end, component) = match r.host_str() {
        Some(h) if !h.is_empty() => (found.offset(h), found.offset(h) + h.len(), Component::Host),
        _ => (0, r.as_str().len(), Component::Input),
    };
    for (host, readers) in allowed.outside(&all) {
        let shown = if host.is_empty() {
            "the empty host".to_owned()
        } else {
            format!("'{host}'")
        };
        let message = format!(
            "{shown} is not an allowed host, and {} it",
            crate::readings::reach(&readers)
        );
        found.list.push(Finding {
            code: Code::HostNotAllowed,
            start,
            end,
            component,
            message,
            detail: Some(Box::new(crate::readings::Detail {
                address_class: crate::readings::address_class_of(&host),
                reached: Some(host),
                readers,
                whatwg: all.whatwg_parts(),
            })),
        });
    }
}

/// Characters, one by one: bidi formatting characters, joiners,
/// look-alikes, private use, and under LEIRIs what an IRI does not allow.
fn check_characters(r: &IriRef<&str>, ascii: bool, leiri: bool, found: &mut Findings<'_>) {
    let input = r.as_str();
    // Every check below but the LEIRI one is about non-ASCII characters.
    if !leiri && ascii {
        return;
    }
    let spans = ComponentSpans::of(r);
    for (i, c) in input.char_indices() {
        if c.is_ascii() && !leiri {
            continue;
        }
        let end = i + c.len_utf8();
        let component = spans.at(i);
        let cp = c as u32;
        let bidi_formatting = chars::is_bidi_formatting(c);
        if bidi_formatting && !leiri {
            found.push(Code::BidiFormattingCharacter, i, end, component,
                format!("U+{cp:04X} is a bidi formatting character, which an IRI must not contain: remove it"));
        }
        if chars::is_joiner(c) {
            let name = if c == '\u{200C}' {
                "ZERO WIDTH NON-JOINER"
            } else {
                "ZERO WIDTH JOINER"
            };
            found.push(
                Code::JoinerCharacter,
                i,
                end,
                component,
                format!("{name} (U+{cp:04X}) is invisible: avoid it unless the script needs it"),
            );
        }
        if let Some(group) = chars::lookalike(c) {
            found.push(
                Code::LookalikeCharacter,
                i,
                end,
                component,
                format!("'{c}' (U+{cp:04X}) is {group}, easily mistaken for another character"),
            );
        }
        if chars::is_iprivate(c, Profile::Rfc3987bis) && component == Component::Query {
            found.push(
                Code::PrivateUseCharacter,
                i,
                end,
                component,
                format!(
                    "U+{cp:04X} is a private-use character, whose meaning needs a private agreement"
                ),
            );
        }
        if leiri {
            let in_iri = if bidi_formatting {
                false
            } else if c.is_ascii() {
                c.is_ascii_graphic() && !"<>\"\\^`{|}".contains(c)
            } else {
                chars::is_ucschar(c)
                    || component == Component::Query && chars::is_iprivate(c, Profile::Rfc3987bis)
            };
            if !in_iri {
                found.push(
                    Code::LeiriOnlyCharacter,
                    i,
                    end,
                    component,
                    format!(
                        "{} is allowed in a LEIRI but not in an IRI ({}): percent-encode it",
                        describe(c),
                        leiri_group(c)
                    ),
                );
            }
        }
    }
}

/// Unicode normalization, combining marks and the bidi rules, by component
/// piece (RFC 3987 §4.2), in an input with characters outside ASCII.
fn check_pieces(r: &IriRef<&str>, found: &mut Findings<'_>) {
    let input = r.as_str();
    // RFC 5893: the bidi rule holds for every label of a host with a
    // right-to-left label ("a domain name containing at least one character
    // with Bidi property R, AL, or AN").
    let bidi_domain = match r.host() {
        Some(Host::RegName(h)) => {
            !h.is_ascii()
                && h.chars().any(|c| {
                    matches!(
                        bidi_class(c),
                        BidiClass::RightToLeft | BidiClass::ArabicLetter | BidiClass::ArabicNumber
                    )
                })
        }
        _ => false,
    };

    // Unicode normalization and combining marks, by component piece.
    // One test of the whole input instead of two per piece: the pieces
    // are delimited by ASCII starters, which no canonical composition has
    // as its second character, so a piece of an input in NFKC (hence in
    // NFC) composes as it does in the input, and is in NFKC too.
    let normalized = is_nfkc(input);
    for (component, start, end) in pieces(r) {
        let piece = &input[start..end];
        let ascii = piece.is_ascii();
        if !ascii && piece.chars().next().is_some_and(is_combining_mark) {
            let c = piece.chars().next().unwrap_or(' ');
            found.push(Code::CombiningMarkAtComponentStart, start, start + c.len_utf8(), component,
                format!("the {} starts with the combining mark U+{:04X}, which will display on the delimiter before it", component.name(), c as u32));
        }
        if component == Component::Host {
            if bidi_domain {
                check_bidi_label(piece, start, found);
            }
        } else if !ascii {
            check_bidi(piece, start, component, found);
        }
        if ascii || normalized {
            continue;
        }
        if !is_nfc(piece) {
            found.push(
                Code::NotNfc,
                start,
                end,
                component,
                format!(
                    "this part of the {} is not in NFC: normalize it to NFC",
                    component.name()
                ),
            );
        } else if !is_nfkc(piece) {
            found.push(
                Code::NotNfkc,
                start,
                end,
                component,
                format!(
                    "this part of the {} has compatibility characters that NFKC would replace",
                    component.name()
                ),
            );
        }
    }
}

fn check_scheme(r: &IriRef<&str>, found: &mut Findings<'_>) {
    if let Some(s) = r.scheme()
        && s.bytes().any(|b| b.is_ascii_uppercase())
    {
        found.push(
            Code::UppercaseScheme,
            0,
            s.len(),
            Component::Scheme,
            format!("write the scheme in lowercase: {}", s.to_ascii_lowercase()),
        );
    }
}

fn check_userinfo(r: &IriRef<&str>, scheme: Option<&str>, found: &mut Findings<'_>) {
    if let (Some(u), Some(host)) = (r.userinfo(), r.host_str())
        && scheme.is_some_and(|s| DNS_SCHEMES.contains(&s))
        && let Some(shape) = host_shaped(u)
    {
        let start = found.offset(u);
        found.push(
                    Code::UserinfoLooksLikeHost,
                    start,
                    start + u.len(),
                    Component::Userinfo,
                    format!("the userinfo starts with '{shape}', shaped like a host, but the host is '{host}': people read this link as going to {shape}"),
                );
    }
    if let Some(u) = r.userinfo() {
        // "unless the data after the colon is the empty string (indicating
        // no password)" (RFC 3986 §3.2.1).
        if let Some(colon) = u.find(':').filter(|&colon| colon + 1 < u.len()) {
            let start = found.offset(u) + colon;
            found.push(
                Code::PasswordInUserinfo,
                start,
                found.offset(u) + u.len(),
                Component::Userinfo,
                "the userinfo carries a password after ':', in the clear: leave it out".into(),
            );
        }
    }
}

/// The start of a userinfo when it is shaped like a host (RFC 3986 §7.6):
/// after percent-decoding, its leading run of letters, digits, combining
/// marks, `-` and label separators is two or more labels whose last is
/// alphabetic and two letters or more (like a top-level domain:
/// `google.com`, `cnn.example.com` in `cnn.example.com&story=x`, `bücher.de`,
/// `例え.jp`), or a dotted-decimal IPv4 address. The label separators are
/// U+002E and the full stops that UTS #46 maps to it (U+3002 IDEOGRAPHIC
/// FULL STOP, U+FF0E FULLWIDTH FULL STOP, U+FF61 HALFWIDTH IDEOGRAPHIC FULL
/// STOP, UTS #46 §4.1): people read `paypal。com` as `paypal.com`, and
/// browsers reach it so. The shape is returned as written.
fn host_shaped(userinfo: &str) -> Option<String> {
    let decoded = percent_encoding::percent_decode_str(userinfo).decode_utf8_lossy();
    let is_stop = |c: char| matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}');
    let end = decoded
        .find(|c: char| {
            !(c.is_alphanumeric() || c == '-' || is_stop(c) || crate::unicode::is_combining_mark(c))
        })
        .unwrap_or(decoded.len());
    let run = decoded[..end].trim_end_matches(is_stop);
    let labels: Vec<&str> = run.split(is_stop).collect();
    let last = labels.last().copied().unwrap_or("");
    let name = labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty())
        && last.chars().count() >= 2
        && last.chars().all(char::is_alphabetic);
    let address = run.parse::<core::net::Ipv4Addr>().is_ok();
    (name || address).then(|| run.to_owned())
}

/// An empty port, one out of range, the scheme's default port.
fn check_port(r: &IriRef<&str>, scheme: Option<&str>, found: &mut Findings<'_>) {
    if let Some(p) = r.port() {
        let start = found.offset(p);
        if p.is_empty() {
            found.push(
                Code::EmptyPort,
                start - 1,
                start,
                Component::Port,
                "the ':' has no port after it: leave the ':' out".into(),
            );
        } else if let Ok(n) = p.parse::<u64>().map(|n| n.min(u64::from(u32::MAX))) {
            if n > 65535 {
                found.push(
                    Code::PortOutOfRange,
                    start,
                    start + p.len(),
                    Component::Port,
                    format!("port {p} is larger than 65535"),
                );
            } else if DEFAULT_PORTS
                .iter()
                .any(|&(s, d)| Some(s) == scheme && u64::from(d) == n)
            {
                found.push(
                    Code::DefaultPort,
                    start - 1,
                    start + p.len(),
                    Component::Port,
                    format!(
                        "{n} is the default port of {}: leave it out",
                        scheme.unwrap_or("")
                    ),
                );
            }
        } else {
            // More digits than fit in a u64.
            found.push(
                Code::PortOutOfRange,
                start,
                start + p.len(),
                Component::Port,
                format!("port {p} is larger than 65535"),
            );
        }
    }
}

/// A DNS scheme without a host, an uppercase host, spoofing (3987bis §10)
/// and names IDNA rejects (§3.4.2). `upper`: whether the input has an
/// ASCII uppercase letter at all ([`Look`]). `options` gives the protected
/// domains of the spoofing checks.
#[allow(clippy::too_many_arguments)]
fn check_host(
    r: &IriRef<&str>,
    host: Option<Host<'_>>,
    scheme: Option<&str>,
    plain: bool,
    upper: bool,
    options: &CheckOptions,
    hosts: &mut HostMemo,
    found: &mut Findings<'_>,
) {
    let needs_host = scheme.is_some_and(|s| DNS_SCHEMES.contains(&s));
    if needs_host && r.host_str().is_none_or(str::is_empty) {
        let (start, end) = match r.host_str() {
            Some(h) => (found.offset(h), found.offset(h)),
            None => (
                r.scheme().map_or(0, |s| s.len() + 1),
                r.scheme().map_or(0, |s| s.len() + 1),
            ),
        };
        found.push(
            Code::EmptyHost,
            start,
            end,
            Component::Host,
            format!(
                "an IRI with the scheme {} needs a host, and this one has none",
                scheme.unwrap_or("")
            ),
        );
    }
    if let Some(Host::RegName(h)) = host {
        let start = found.offset(h);
        if upper && h.is_ascii() && h.bytes().any(|b| b.is_ascii_uppercase()) && !h.contains('%') {
            found.push(
                Code::UppercaseHost,
                start,
                start + h.len(),
                Component::Host,
                format!("write the host in lowercase: {}", h.to_ascii_lowercase()),
            );
        }
        // Neither check has anything to say of a plain ASCII name, most
        // names: no look-up for them.
        if plain && protected_domains_empty(options) {
            return;
        }
        let verdict = hosts.verdict(h, options, needs_host);
        // Host spoofing (3987bis §10, UTS #39): src/spoof.rs.
        #[cfg(feature = "spoof")]
        for f in &verdict.spoofing {
            found.push(
                f.code,
                start + f.start,
                start + f.end,
                Component::Host,
                f.message.clone(),
            );
        }
        // The conversion `iri to-uri --idna` makes (3987bis §3.4.2).
        if let Some(label) = verdict.idna_rejects.as_ref().filter(|_| needs_host) {
            found.push(
                Code::InvalidIdn,
                start,
                start + h.len(),
                Component::Host,
                format!(
                    "IDNA rejects the label {label:?} of the host: {}",
                    convert::idna_reason(label)
                ),
            );
        }
    }
}

/// Dot segments in the path of an IRI (RFC 3986 §5.2.4 removes them on
/// resolution).
fn check_path(r: &IriRef<&str>, found: &mut Findings<'_>) {
    // Without a "." at the start of a segment there is none to find.
    let path = r.path();
    let p = path.as_bytes();
    // A plain look at each pair of bytes: paths are short, and most have
    // dots (in file names), each of which a search for dots would stop at.
    let dot_at_segment_start = || p.first() == Some(&b'.') || p.windows(2).any(|w| w == b"/.");
    if r.scheme().is_some() && dot_at_segment_start() {
        let mut offset = found.offset(path);
        for seg in path.split('/') {
            if seg == "." || seg == ".." {
                found.push(
                    Code::DotSegment,
                    offset,
                    offset + seg.len(),
                    Component::Path,
                    format!(
                        "the path has a '{seg}' segment: write the path without it (RFC 3986 §5.2.4)"
                    ),
                );
            }
            offset += seg.len() + 1;
        }
    }
}

fn check_percent_encodings(r: &IriRef<&str>, found: &mut Findings<'_>) {
    let input = r.as_str();
    let b = input.as_bytes();
    if memchr::memchr(b'%', b).is_none() {
        return;
    }
    let octet = |i: usize| -> Option<u8> {
        (b.get(i) == Some(&b'%'))
            .then(|| u8::from_str_radix(input.get(i + 1..i + 3)?, 16).ok())
            .flatten()
    };
    let spans = ComponentSpans::of(r);
    let mut i = 0;
    while i < b.len() {
        let Some(first) = octet(i) else {
            i += 1;
            continue;
        };
        let component = spans.at(i);
        let lower = |j: usize| input[j + 1..j + 3].bytes().any(|x| x.is_ascii_lowercase());
        // The run of encoded octets that may form one sequence, by the
        // length its first octet announces, as a lax decoder reads it
        // (RFC 2279 still had 5- and 6-octet forms).
        let want = match first {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            0xF8..=0xFB => 5,
            0xFC..=0xFD => 6,
            _ => 1,
        };
        let mut octets = [first, 0, 0, 0, 0, 0];
        let mut len = 1;
        while len < want {
            match octet(i + 3 * len) {
                Some(o) if o & 0xC0 == 0x80 => octets[len] = o,
                _ => break,
            }
            len += 1;
        }
        let seq = &octets[..len];
        let end = i + 3 * len;
        for k in 0..seq.len() {
            if lower(i + 3 * k) {
                found.push(
                    Code::PercentEncodingLowercase,
                    i + 3 * k,
                    i + 3 * k + 3,
                    component,
                    format!(
                        "write {} with uppercase hex digits: {}",
                        &input[i + 3 * k..i + 3 * k + 3],
                        input[i + 3 * k..i + 3 * k + 3].to_ascii_uppercase()
                    ),
                );
            }
        }
        if first < 0x80 {
            if first.is_ascii_alphanumeric() || b"-._~".contains(&first) {
                found.push(
                    Code::PercentEncodedUnreserved,
                    i,
                    end,
                    component,
                    format!(
                        "{} encodes '{}', an unreserved character: write it as itself",
                        &input[i..end],
                        first as char
                    ),
                );
            }
        } else if len == want && overlong(seq) {
            found.push(
                Code::PercentEncodingOverlongUtf8,
                i,
                end,
                component,
                format!(
                    "{} is an overlong UTF-8 form, a known way to smuggle characters past checks",
                    &input[i..end]
                ),
            );
        } else if len != want || core::str::from_utf8(seq).is_err() {
            found.push(Code::PercentEncodingNotUtf8, i, end, component,
                format!("{} is not UTF-8, so it cannot become a character of an IRI (a legacy encoding?)", &input[i..end]));
        }
        i = end;
    }
}

/// A complete overlong sequence: a lead octet and all the continuation
/// octets it announces, encoding a value that fits in fewer octets
/// (`C0 AF` for '/', `E0 80 AF`, `F0 80 80 AF`, and the 5- and 6-octet
/// forms of RFC 2279). A lone C0 or C1, or one followed by an octet that
/// does not continue it, is no character at all: legacy text (Latin-1 'À',
/// 'Á'), not an overlong form.
fn overlong(seq: &[u8]) -> bool {
    let n = seq.len();
    if !(2..=6).contains(&n) {
        return false;
    }
    let payload = 7 - n as u32;
    let value = seq[1..]
        .iter()
        .fold(u32::from(seq[0]) & ((1 << payload) - 1), |v, &b| {
            (v << 6) | u32::from(b & 0x3F)
        });
    value < [0x80, 0x800, 0x1_0000, 0x20_0000, 0x400_0000][n - 2]
}

/// RFC 3987 §4.2 rules 1 and 2 on one piece that is not a host label: no
/// mixing of strong left-to-right and right-to-left characters, and a
/// piece with right-to-left characters starts and ends with one, trailing
/// non-spacing marks allowed (they belong to the character before them, as
/// RFC 5893 rule 3 allows for labels).
fn check_bidi(piece: &str, start: usize, component: Component, found: &mut Findings<'_>) {
    let class = |c: char| bidi_class(c);
    let rtl = |c: char| matches!(class(c), BidiClass::RightToLeft | BidiClass::ArabicLetter);
    if !piece.chars().any(rtl) {
        return;
    }
    let end = start + piece.len();
    if piece.chars().any(|c| class(c) == BidiClass::LeftToRight) {
        found.push(
            Code::BidiMixedDirection,
            start,
            end,
            component,
            format!(
                "this part of the {} mixes left-to-right and right-to-left characters",
                component.name()
            ),
        );
    }
    let first = piece.chars().next().is_some_and(rtl);
    let last = piece
        .chars()
        .rev()
        .find(|&c| class(c) != BidiClass::NonspacingMark)
        .is_some_and(rtl);
    if !(first && last) {
        found.push(
            Code::BidiRtlComponentBoundary,
            start,
            end,
            component,
            format!(
                "this part of the {} has right-to-left characters but does not {} with one",
                component.name(),
                match (first, last) {
                    (false, false) => "start or end",
                    (false, true) => "start",
                    _ => "end",
                }
            ),
        );
    }
}

/// The bidi rule of RFC 5893 §2 on one label of a host that has a
/// right-to-left label: rule 1 (a label starts with L, R or AL), rules 2
/// and 5 (no left-to-right characters in a right-to-left label and the
/// reverse, reported as `BIDI_MIXED_DIRECTION`), rule 4 (not both European
/// and Arabic-Indic digits, the same code), rules 3 and 6 (a right-to-left
/// label ends with R, AL, EN or AN, a left-to-right one with L or EN, then
/// any non-spacing marks; `BIDI_RTL_COMPONENT_BOUNDARY`).
fn check_bidi_label(label: &str, start: usize, found: &mut Findings<'_>) {
    const AL: BidiClass = BidiClass::ArabicLetter;
    const AN: BidiClass = BidiClass::ArabicNumber;
    const EN: BidiClass = BidiClass::EuropeanNumber;
    const L: BidiClass = BidiClass::LeftToRight;
    const NSM: BidiClass = BidiClass::NonspacingMark;
    const R: BidiClass = BidiClass::RightToLeft;
    let class = |c: char| bidi_class(c);
    let has = |classes: &[BidiClass]| label.chars().any(|c| classes.contains(&class(c)));
    let end = start + label.len();
    let first = label.chars().next().map(class);
    let last = label.chars().rev().map(class).find(|&c| c != NSM);
    let rtl = matches!(first, Some(R | AL));
    let ltr = first == Some(L);
    let mixed = if rtl {
        has(&[L]).then_some("mixes left-to-right and right-to-left characters")
    } else if ltr {
        has(&[R, AL, AN]).then_some(
            "starts left-to-right but has right-to-left characters or Arabic-Indic digits",
        )
    } else {
        (has(&[L]) && has(&[R, AL])).then_some("mixes left-to-right and right-to-left characters")
    };
    let digits =
        (rtl && has(&[EN]) && has(&[AN])).then_some("has both European and Arabic-Indic digits");
    for what in [mixed, digits].into_iter().flatten() {
        found.push(
            Code::BidiMixedDirection,
            start,
            end,
            Component::Host,
            format!("this label of the host {what} (RFC 5893)"),
        );
    }
    let boundary = if !(rtl || ltr) {
        Some("does not start with a letter (RFC 5893 rule 1)")
    } else if rtl && !matches!(last, Some(R | AL | EN | AN)) {
        Some(
            "is right-to-left but does not end with a right-to-left letter or a digit (RFC 5893 rule 3)",
        )
    } else if ltr && !matches!(last, Some(L | EN)) {
        Some(
            "is left-to-right, in a host with right-to-left labels, but does not end with a letter or a digit (RFC 5893 rule 6)",
        )
    } else {
        None
    };
    if let Some(what) = boundary {
        found.push(
            Code::BidiRtlComponentBoundary,
            start,
            end,
            Component::Host,
            format!("this label of the host {what}"),
        );
    }
}

/// The §6.3 group of a character a LEIRI allows and an IRI does not.
fn leiri_group(c: char) -> &'static str {
    if chars::is_bidi_formatting(c) {
        return "a bidi formatting character";
    }
    match c as u32 {
        0x20 => "space",
        0x22 | 0x3C | 0x3E => "a delimiter of IRIs in plain text",
        0x5C | 0x5E | 0x60 | 0x7B..=0x7D => "an unwise character",
        0x00..=0x1F | 0x7F..=0x9F => "a control",
        0xFFF0..=0xFFFD => "a special",
        0xE0000..=0xE0FFF => "a tag",
        0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD => {
            "a private-use character outside the query"
        }
        _ => "a non-character",
    }
}

#[cfg(test)]
mod tests {
    use super::Look;

    /// The word-at-a-time look agrees with a look at each byte, wherever
    /// the byte falls among the words and whatever stands beside it
    /// (bytes outside ASCII next to letters, `@` and `[` around `A`-`Z`).
    #[test]
    fn one_look_tells_what_a_byte_by_byte_look_tells() {
        let probes = [
            "A", "Z", "@", "[", "a", "z", "%", "-", ",", ".", "é", "Ā", "Ž", "日", "😀", "\u{80}",
            "\u{7F}", "\u{0}",
        ];
        for probe in probes {
            for other in probes {
                for before in 0..18 {
                    let s = format!(
                        "{}{probe}{other}{}",
                        "x".repeat(before),
                        "y".repeat(before % 7)
                    );
                    let look = Look::of(&s);
                    assert_eq!(look.ascii, s.is_ascii(), "{s:?}");
                    assert_eq!(look.percent, s.contains('%'), "{s:?}");
                    assert_eq!(look.hyphen, s.contains('-'), "{s:?}");
                    assert_eq!(
                        look.upper,
                        s.bytes().any(|b| b.is_ascii_uppercase()),
                        "{s:?}"
                    );
                }
            }
        }
        let empty = Look::of("");
        assert!(empty.ascii && !empty.percent && !empty.hyphen && !empty.upper);
    }
}
