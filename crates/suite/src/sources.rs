//! The cases taken from outside the generator: the specs' own examples
//! (`crates/suite/data/spec-examples/`), other projects' test vectors
//! (`crates/suite/data/conformance/`), and templates for the operations,
//! whose expected answers the library computes (it is tested against the
//! specs' examples for each of them).
//!
//! A vector whose source expects something the spec does not say keeps the
//! spec's answer, with a `note` naming what the source expected.

use std::collections::BTreeMap;

use serde_json::Value;

use iribis::GrammarRule;
use iribis::Profile;
use iribis::convert::{ToIriOptions, ToUriOptions};
use iribis::dfa::Dfa;
use iribis::resolve::ResolveOptions;
use iribis::{Iri, IriRef, ParseOptions};

use super::case::{Case, Expect, Op, Parts};
use super::generate::verdict;

/// The spec-example files, by name
/// (`crates/suite/data/spec-examples/NAME.txt`).
macro_rules! examples {
    ($($name:literal),* $(,)?) => {
        &[$(($name, include_str!(concat!("../data/spec-examples/", $name, ".txt")))),*]
    };
}

/// Every file of `crates/suite/data/spec-examples/` (its README describes
/// them).
pub(crate) const SPEC_EXAMPLES: &[(&str, &str)] = examples![
    "3987bis-front-matter",
    "3987bis-3.4.1",
    "3987bis-3.4.2",
    "3987bis-3.4.3",
    "3987bis-4.2",
    "3987bis-4.3",
    "3987bis-5.4",
    "3987bis-6.3",
    "3987bis-8.4",
    "3987bis-8.5",
    "3987bis-10",
    "3987bis-12.3.1",
    "3987bis-12.11",
    "3987bis-authors",
    "rfc3986-1.1.2",
    "rfc3986-3",
    "rfc3986-3.3",
    "rfc3986-5.4.1",
    "rfc3986-5.4.2",
    "rfc3986-6.2.2",
    "rfc3986-6.2.2.1",
    "rfc3986-6.2.3",
    "rfc3986-6.2.4",
    "rfc3987-3.1",
    "rfc3987-3.2",
    "rfc3987-3.2.1",
    "rfc3987-4.4",
    "rfc3987-5.2",
    "rfc3987-5.3.2",
    "rfc3987-5.3.2.1",
    "rfc3987-5.3.2.2",
    "rfc3987-5.3.2.3",
    "rfc3987-5.3.3",
    "rfc3987-5.3.4",
    "rfc3987-6.4",
    "rfc3987-7.4",
    "rfc3987-7.5",
    "rfc3987-8",
    "rfc3987-A.4",
];

/// Other projects' vectors, gathered with their provenance (the README
/// beside the files): the shared corpus, and the resolution tables of
/// iri-string's and fluent-uri's test suites.
const VECTORS: &[&str] = &[
    include_str!("../data/conformance/vectors.jsonl"),
    include_str!("../data/conformance/harvested.jsonl"),
];

/// The JSON-Schema-Test-Suite's format tests (MIT, Copyright (c) 2012
/// Julian Berman), unchanged.
const JSON_SCHEMA: &[(&str, &str)] = &[
    (
        "iri",
        include_str!("../data/conformance/json-schema-test-suite/iri.json"),
    ),
    (
        "iri-reference",
        include_str!("../data/conformance/json-schema-test-suite/iri-reference.json"),
    ),
    (
        "uri",
        include_str!("../data/conformance/json-schema-test-suite/uri.json"),
    ),
    (
        "uri-reference",
        include_str!("../data/conformance/json-schema-test-suite/uri-reference.json"),
    ),
];

/// The section a spec-example file is about: `rfc3986-5.4.1` is
/// "RFC 3986 §5.4.1".
pub(crate) fn section(file: &str) -> String {
    let (doc, rest) = file.split_once('-').unwrap_or((file, ""));
    let doc = match doc {
        "rfc3986" => "RFC 3986",
        "rfc3987" => "RFC 3987",
        _ => "3987bis",
    };
    match rest {
        "front-matter" => format!("{doc} front matter"),
        "authors" => format!("{doc} authors' addresses"),
        s if s.starts_with("A.") => format!("{doc} Appendix {s}"),
        s => format!("{doc} §{s}"),
    }
}

/// The examples of a file: the lines that are not comments (`""` is the
/// empty string), each with the comment just before it.
pub(crate) fn lines(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut label = String::new();
    for line in text.lines() {
        if let Some(c) = line.strip_prefix("# ") {
            label = c.to_owned();
            continue;
        }
        let value = if line == "\"\"" { "" } else { line };
        out.push((value.to_owned(), std::mem::take(&mut label)));
    }
    out
}

/// The reference rule of a profile, by its own name.
fn reference_rule(profile: Profile) -> &'static str {
    if profile == Profile::Rfc3986 {
        "URI-reference"
    } else {
        "IRI-reference"
    }
}

/// A case with a rule and a base.
fn case(
    (id, op, profile): (String, Op, Profile),
    rule: Option<&str>,
    input: &str,
    base: Option<&str>,
    expect: Expect,
    source: String,
) -> Case {
    Case {
        rule: rule.map(str::to_owned),
        base: base.map(str::to_owned),
        ..Case::new(id, op, profile, input, expect, source)
    }
}

/// Every spec example as a `valid` case of the reference rule, in every
/// profile (an example printed in several places is one case, with every
/// place as its source).
pub(crate) fn spec_valid() -> Vec<Case> {
    let mut inputs: Vec<String> = Vec::new();
    let mut sources: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (file, text) in SPEC_EXAMPLES {
        for (input, _) in lines(text) {
            let places = sources.entry(input.clone()).or_default();
            if places.is_empty() {
                inputs.push(input.clone());
            }
            let s = section(file);
            if !places.contains(&s) {
                places.push(s);
            }
        }
    }
    let mut out = Vec::new();
    for profile in Profile::ALL {
        let rule = reference_rule(profile);
        let Some(dfa) = Dfa::of(GrammarRule::IRI_REFERENCE.for_profile(profile), profile) else {
            continue;
        };
        for (i, input) in inputs.iter().enumerate() {
            out.push(case(
                (
                    format!("valid/{profile}/{rule}/spec/{}", i + 1),
                    Op::Valid,
                    profile,
                ),
                Some(rule),
                input,
                None,
                verdict(dfa, input),
                format!("example of {}", sources[input].join(", ")),
            ));
        }
    }
    out
}

/// The components of a reference under a profile, or the parse error.
pub(crate) fn components(input: &str, profile: Profile) -> Expect {
    match IriRef::parse_with(input, &ParseOptions::new().profile(profile)) {
        Ok(r) => Expect::Components(Parts::of(&r)),
        Err(_) => Expect::Error,
    }
}

/// What resolving `input` against `base` gives under `profile`: the base
/// must be an IRI (with a scheme, RFC 3986 §5.1) and both must parse.
pub(crate) fn resolution(base: &str, input: &str, profile: Profile) -> Expect {
    let o = ParseOptions::new().profile(profile);
    let (Ok(b), Ok(r)) = (IriRef::parse_with(base, &o), IriRef::parse_with(input, &o)) else {
        return Expect::Error;
    };
    let Ok(b) = Iri::try_from(b) else {
        return Expect::Error;
    };
    let strict = b.resolve(&r).to_string();
    let loose = b
        .resolve_with(&r, &ResolveOptions::new().strict(false))
        .to_string();
    let mut also = Vec::new();
    if loose != strict {
        also.push(loose);
    }
    // RFC 3986 §5.2.4 and §5.3 as printed, where they give a path that
    // starts with "//" and no authority: the literal reading, listed
    // beside the "/."-prefixed one.
    if let Some(literal) = as_printed(&Parts::of(&b), &Parts::of(&r))
        && literal != strict
        && !also.contains(&literal)
    {
        also.push(literal);
    }
    Expect::Result {
        also,
        result: strict,
    }
}

/// The note of a resolution whose answers differ in how they write a path
/// that starts with "//" and has no authority.
pub(crate) const SLASHES_NOTE: &str = "RFC 3986 §5.2.4 and §5.3 as printed give a path starting with \"//\" and no authority (the last answer), which reads back with an authority; the first answer writes \"/.\" before such a path, as the WHATWG URL Standard does, so that the result reads back with the components it was given. Both follow the RFC: the first its intent (§5.2's result must be a reference of the same resource), the other its text; refusing to resolve is defensible too but not listed";

/// RFC 3986 §5.2.2 (strict), §5.2.3 and §5.2.4 and §5.3, as printed, on
/// the components of a base and a reference, when the result has no
/// authority and a path that starts with "//" (read back, that path would
/// be taken for an authority): the answer the spec's text gives where
/// iribis writes "/." before the path.
fn as_printed(base: &Parts, r: &Parts) -> Option<String> {
    let bpath = base.path.as_deref().unwrap_or("");
    let rpath = r.path.as_deref().unwrap_or("");
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme.clone();
        authority = r.authority.clone();
        path = remove_dot_segments(rpath);
        query = r.query.clone();
    } else {
        scheme = base.scheme.clone();
        if r.authority.is_some() {
            authority = r.authority.clone();
            path = remove_dot_segments(rpath);
            query = r.query.clone();
        } else {
            authority = base.authority.clone();
            if rpath.is_empty() {
                path = bpath.to_owned();
                query = r.query.clone().or_else(|| base.query.clone());
            } else {
                path = if rpath.starts_with('/') {
                    remove_dot_segments(rpath)
                } else {
                    // §5.2.3
                    let merged = if base.authority.is_some() && bpath.is_empty() {
                        format!("/{rpath}")
                    } else {
                        match bpath.rfind('/') {
                            Some(i) => format!("{}{rpath}", &bpath[..=i]),
                            None => rpath.to_owned(),
                        }
                    };
                    remove_dot_segments(&merged)
                };
                query = r.query.clone();
            }
        }
    }
    if authority.is_some() || !path.starts_with("//") {
        return None;
    }
    // §5.3
    let mut out = String::new();
    out.push_str(scheme.as_deref()?);
    out.push(':');
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(&q);
    }
    if let Some(f) = &r.fragment {
        out.push('#');
        out.push_str(f);
    }
    Some(out)
}

/// RFC 3986 §5.2.4, step by step as printed.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path.to_owned();
    let mut output = String::new();
    let pop = |output: &mut String| match output.rfind('/') {
        Some(i) => output.truncate(i),
        None => output.clear(),
    };
    while !input.is_empty() {
        if input.starts_with("../") {
            input.drain(..3);
        } else if input.starts_with("./") {
            input.drain(..2);
        } else if input.starts_with("/./") {
            input.replace_range(..3, "/");
        } else if input == "/." {
            input = "/".into();
        } else if input.starts_with("/../") {
            input.replace_range(..4, "/");
            pop(&mut output);
        } else if input == "/.." {
            input = "/".into();
            pop(&mut output);
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let from = usize::from(input.starts_with('/'));
            let end = input[from..].find('/').map_or(input.len(), |i| i + from);
            output.push_str(&input[..end]);
            input.drain(..end);
        }
    }
    output
}

/// Syntax-based normalization (RFC 3986 §6.2.2, RFC 3987 §5.3.2), with
/// the answers other readings of the text give: the private-use
/// characters of a query kept percent-encoded, and a path that starts with
/// "//" and has no authority written as §5.2.4 and §5.3 print it.
pub(crate) fn normalization(input: &str, profile: Profile) -> Expect {
    match IriRef::parse_with(input, &ParseOptions::new().profile(profile)) {
        Ok(r) => {
            let result = r.normalize().to_string();
            let mut also = Vec::new();
            let written = Parts::of(&r);
            let parts = Parts::of(&r.normalize());
            let kept =
                private_kept_encoded(written.query.as_deref().unwrap_or(""), &result, &parts);
            for candidate in [kept, slashes_as_printed(&result)] {
                if let Some(c) = candidate
                    && c != result
                    && !also.contains(&c)
                {
                    also.push(c);
                }
            }
            Expect::Result { result, also }
        }
        Err(_) => Expect::Error,
    }
}

/// The note of a normalization whose answers differ in how they write a
/// path that starts with "//" and has no authority.
pub(crate) const NORMALIZE_SLASHES_NOTE: &str = "remove_dot_segments (RFC 3986 §5.2.4) leaves a path starting with \"//\" and no authority; §5.3 as printed writes it as it is (the last answer), which reads back with an authority; the first answer writes \"/.\" before it, as for resolution (the WHATWG URL Standard's way). Both follow the RFC: the first its intent, the other its text";

/// The note of a normalization whose answers differ in the private-use
/// characters of a query.
pub(crate) const NORMALIZE_PRIVATE_NOTE: &str = "the query's percent-encoded private-use character is decoded in the first answer (iprivate is allowed in iquery, RFC 3987 §2.2, so the IRI form of the octets is the character: §5.3.2.3 read for IRIs) and kept encoded in the other (§5.3.2.3 decodes what corresponds to unreserved characters, and iprivate is not iunreserved): both are readings of the text";

/// `normalized` (a normalization of a reference whose query was
/// `query`) with the private-use characters (RFC 3987 §2.2 `iprivate`)
/// that were percent-encoded in `query` encoded again (uppercase, as
/// §6.2.2.1 writes them); `None` when there are none.
fn private_kept_encoded(query: &str, normalized: &str, parts: &Parts) -> Option<String> {
    let out_query = parts.query.as_deref()?;
    let private = |c: char| matches!(c as u32, 0xE000..=0xF8FF | 0xE0000..=0xE0FFF | 0xF0000..=0xFFFFD | 0x10_0000..=0x10_FFFD);
    // Walk the query as written and as normalized side by side: each
    // character of the normalized query is either the same character as
    // written, or a percent-encoded triplet (its digits' case aside), or
    // the character a run of triplets as written encodes.
    let mut rest = query;
    let mut rebuilt = String::with_capacity(out_query.len());
    let mut changed = false;
    let mut chars = out_query.chars();
    while let Some(c) = chars.next() {
        if c == '%' {
            let triplet: String = std::iter::once(c).chain(chars.by_ref().take(2)).collect();
            if !rest
                .get(..3)
                .is_some_and(|w| w.eq_ignore_ascii_case(&triplet))
            {
                return None;
            }
            rest = rest.get(3..)?;
            rebuilt.push_str(&triplet);
        } else if rest.starts_with(c) {
            rest = rest.get(c.len_utf8()..)?;
            rebuilt.push(c);
        } else {
            let mut utf8 = [0; 4];
            let encoded: String = c
                .encode_utf8(&mut utf8)
                .bytes()
                .map(|b| format!("%{b:02X}"))
                .collect();
            if !rest
                .get(..encoded.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(&encoded))
            {
                return None;
            }
            rest = rest.get(encoded.len()..)?;
            if private(c) {
                rebuilt.push_str(&encoded);
                changed = true;
            } else {
                rebuilt.push(c);
            }
        }
    }
    if !rest.is_empty() || !changed {
        return None;
    }
    // The query is the last component but the fragment: put it back.
    let q0 = normalized.find('?')?;
    let tail = parts
        .fragment
        .as_deref()
        .map_or(String::new(), |f| format!("#{f}"));
    Some(format!("{}?{rebuilt}{tail}", normalized.get(..q0)?))
}

/// A normalized reference with a "/." written before a path that starts
/// with "//" and has no authority, as RFC 3986 §5.3 prints it instead:
/// the "/." taken off.
fn slashes_as_printed(normalized: &str) -> Option<String> {
    let r = IriRef::parse_with(normalized, &ParseOptions::new().profile(Profile::Leiri)).ok()?;
    let parts = Parts::of(&r);
    if parts.authority.is_some() || !parts.path.as_deref()?.starts_with("/.//") {
        return None;
    }
    let scheme = parts.scheme.as_deref()?;
    let at = scheme.len() + 1;
    Some(format!(
        "{}{}",
        normalized.get(..at)?,
        normalized.get(at + 2..)?
    ))
}

/// IRI → URI: registered names percent-encoded (3987bis §3.4.1), or
/// through IDNA (§3.4.2), which the spec allows as well.
///
/// Under rfc3987bis and leiri the IDNA answer is IDNA2008's (RFC 5891,
/// which 3987bis §3.4.2 cites): a label that IDNA2008 cannot take as it is
/// (it is not NFC, or has a character that only the older mapping of
/// IDNA2003 or UTS #46 changes into others) has no `xn--` answer there,
/// only the percent-encoded one. RFC 3987 §3.1 uses IDNA2003's ToASCII,
/// which maps such labels first: its `xn--` answer stays.
pub(crate) fn to_uri(input: &str, profile: Profile) -> Expect {
    to_uri_noted(input, profile).0
}

/// [`to_uri`], and a note when IDNA2008 refuses the `xn--` answer that
/// IDNA2003 would give.
pub(crate) fn to_uri_noted(input: &str, profile: Profile) -> (Expect, Option<String>) {
    let o = ToUriOptions::new().profile(profile);
    match iribis::to_uri(input, &o) {
        Ok(result) => {
            let mut note = None;
            let also = iribis::to_uri(
                input,
                &o.clone().idna_mode(iribis::convert::IdnaMode::Uts46),
            )
            .ok()
            .filter(|s| *s != result)
            .filter(|s| {
                let keep = profile == Profile::Rfc3987 || idna2008_round_trip(input, s);
                if !keep {
                    note = Some(IDNA2008_NOTE.to_owned());
                }
                keep
            })
            .into_iter()
            .collect();
            (Expect::Result { result, also }, note)
        }
        Err(_) => (Expect::Error, None),
    }
}

/// Why a to-uri case under rfc3987bis or leiri has no `xn--` answer.
const IDNA2008_NOTE: &str = "IDNA2008 (RFC 5891 §5.3-5.4, cited by 3987bis §3.4.2) takes a label as it is, NFC and made of PVALID characters: this host is not one (IDNA2003's ToASCII, RFC 3987 §3.1, maps it first and gives an xn-- label of other characters), so only the percent-encoded answer (3987bis §3.4.1) is listed";

/// Whether the host of `uri` (an IDNA answer for `input`) reads back, its
/// `xn--` labels decoded, as the host of `input` (percent-decoded, in
/// lowercase): IDNA2008 maps nothing, so a label it can encode decodes to
/// itself.
fn idna2008_round_trip(input: &str, uri: &str) -> bool {
    let host = |s: &str| -> Option<String> {
        let o = ToIriOptions::new().decode_spoofable(true).decode_all(true);
        let iri = iribis::to_iri(s, &o).ok()?;
        let r = IriRef::parse_with(&iri, &ParseOptions::new().profile(Profile::Leiri)).ok()?;
        Some(r.host_str()?.to_lowercase())
    };
    // RFC 5892's derived property makes a character DISALLOWED when NFKC
    // and case folding change it: the checker's NFC and NFKC findings on
    // the host tell.
    use iribis::check::{CheckOptions, Code};
    let report = iribis::check(input, &CheckOptions::new().profile(Profile::Leiri));
    let unstable = report.violations.iter().any(|v| {
        matches!(v.code, Code::NotNfc | Code::NotNfkc) && v.component == iribis::Component::Host
    });
    // U+FDCF (Unicode 14) has a compatibility decomposition the checker's
    // Unicode data predates: DISALLOWED all the same (RFC 5892 §2.3).
    let unstable = unstable || input.contains('\u{FDCF}');
    match (host(input), host(uri)) {
        (Some(a), Some(b)) => a == b && !unstable,
        _ => false,
    }
}

/// IRI → URI of an IRI read from a document in `charset` (3987bis §3.5:
/// the query of an http or https IRI in the document's charset).
pub(crate) fn to_uri_in(input: &str, profile: Profile, charset: &str) -> Expect {
    let Ok(o) = ToUriOptions::new().profile(profile).query_charset(charset) else {
        return Expect::Error;
    };
    match iribis::to_uri(input, &o) {
        Ok(result) => Expect::Result {
            result,
            also: vec![],
        },
        Err(_) => Expect::Error,
    }
}

/// The comparison ladder (RFC 3987 §5.3) for two IRIs of `profile`:
/// equivalent by simple string comparison, after syntax-based and after
/// scheme-based normalization; fragments count.
pub(crate) fn comparison(a: &str, b: &str, profile: Profile) -> Expect {
    use iribis::normalize::{Level, equivalent};
    let o = ParseOptions::new().profile(profile);
    let (Ok(x), Ok(y)) = (IriRef::parse_with(a, &o), IriRef::parse_with(b, &o)) else {
        return Expect::Error;
    };
    Expect::Equivalent(super::case::Ladder {
        simple: Some(equivalent(&x, &y, Level::Simple)),
        syntax: Some(equivalent(&x, &y, Level::Syntax)),
        scheme: Some(equivalent(&x, &y, Level::Scheme)),
    })
}

/// The requirement of [`REQUIREMENTS`](super::case::REQUIREMENTS) a
/// checker code stands for.
pub(crate) fn requirement(code: iribis::check::Code) -> Option<&'static str> {
    use iribis::check::Code;
    Some(match code {
        Code::BidiFormattingCharacter => "bidi-formatting",
        Code::BidiMixedDirection => "bidi-mixed-direction",
        Code::BidiRtlComponentBoundary => "bidi-rtl-boundary",
        Code::NotNfc => "not-nfc",
        Code::LookalikeCharacter => "lookalike",
        Code::CombiningMarkAtComponentStart => "combining-mark-at-start",
        Code::JoinerCharacter => "joiner",
        _ => return None,
    })
}

/// The requirements beyond the grammar that `input` breaks under
/// `profile`, sorted; an error when it does not parse.
pub(crate) fn requirements(input: &str, profile: Profile) -> Expect {
    use iribis::check::{CheckOptions, Code};
    let report = iribis::check(input, &CheckOptions::new().profile(profile));
    if report
        .violations
        .iter()
        .any(|v| v.code == Code::SyntaxError)
    {
        return Expect::Error;
    }
    let mut ids: Vec<String> = report
        .violations
        .iter()
        .filter_map(|v| requirement(v.code))
        .map(str::to_owned)
        .collect();
    ids.sort();
    ids.dedup();
    Expect::Requirements(ids)
}

/// URI → IRI (3987bis §4.2): the default, and the answers the spec's
/// options also allow (step 7's `xn--` labels kept, the characters §5.1
/// advises against decoded).
pub(crate) fn to_iri(input: &str) -> Expect {
    let o = ToIriOptions::new();
    match iribis::to_iri(input, &o) {
        Ok(result) => {
            let mut also: Vec<String> = Vec::new();
            for v in [
                o.idna(false),
                o.decode_all(true),
                o.idna(false).decode_all(true),
                o.decode_spoofable(true),
            ] {
                if let Ok(s) = iribis::to_iri(input, &v)
                    && s != result
                    && !also.contains(&s)
                {
                    also.push(s);
                }
            }
            if let Some(s) = isolates_decoded(&result)
                && !also.contains(&s)
            {
                also.push(s);
            }
            Expect::Result { result, also }
        }
        Err(_) => Expect::Error,
    }
}

/// The bidi formatting characters Unicode added after RFC 3987 (ALM
/// U+061C; the isolates LRI, RLI, FSI, PDI, U+2066..U+2069), as the
/// percent-encoded UTF-8 URI → IRI conversion keeps them in.
const LATER_BIDI_CONTROLS: &[(&str, char)] = &[
    ("%D8%9C", '\u{061C}'),
    ("%E2%81%A6", '\u{2066}'),
    ("%E2%81%A7", '\u{2067}'),
    ("%E2%81%A8", '\u{2068}'),
    ("%E2%81%A9", '\u{2069}'),
];

/// The note of a URI → IRI conversion whose answers differ in the bidi
/// formatting characters of [`LATER_BIDI_CONTROLS`].
pub(crate) const ISOLATES_NOTE: &str = "RFC 3987 §4.1 forbids the bidi formatting characters it lists (LRM, RLM, LRE, RLE, LRO, RLO, PDF); ALM and the isolates came later and are bidi formatting characters (Bidi_Control) in today's Unicode: the first answer keeps them encoded as formatting characters, the other decodes them as the list as printed allows";

/// An IRI from URI → IRI conversion with the later bidi controls it kept
/// percent-encoded decoded: RFC 3987 §4.1's list, as printed, does not
/// name them. `None` when there are none.
pub(crate) fn isolates_decoded(iri: &str) -> Option<String> {
    let mut out = iri.to_owned();
    for (encoded, c) in LATER_BIDI_CONTROLS {
        for written in [encoded.to_string(), encoded.to_lowercase()] {
            out = out.replace(&written, &c.to_string());
        }
    }
    (out != iri).then_some(out)
}

/// The spec examples of the operations: every resolution of RFC 3986
/// §5.4 (in every profile: they are URIs), and the conversions and
/// normalizations the specs print, each pair as the spec prints it.
pub(crate) fn spec_ops() -> Vec<Case> {
    let mut out = spec_resolutions();
    out.extend(printed_ops());
    out
}

/// The conversions and normalizations the specs print
/// (`crates/suite/data/spec-operations.jsonl`): one JSON object a line,
/// with the operation (`op`), the `input`, the answer as printed
/// (`expected`), the spec-example file of its section (`place`) and a
/// `note` where the answer needs one.
const SPEC_OPERATIONS: &str = include_str!("../data/spec-operations.jsonl");

/// The resolutions of RFC 3986 §5.4.1 and §5.4.2, in every profile; a
/// §5.4.2 example with a non-strict answer allows it too.
fn spec_resolutions() -> Vec<Case> {
    let mut out = Vec::new();
    for file in ["rfc3986-5.4.1", "rfc3986-5.4.2"] {
        let text = SPEC_EXAMPLES
            .iter()
            .find(|(f, _)| *f == file)
            .map_or("", |(_, t)| t);
        let (base, pairs) = resolution_pairs(text);
        for profile in Profile::ALL {
            for (i, (r, target, loose)) in pairs.iter().enumerate() {
                let mut c = case(
                    (
                        format!("resolve/{profile}/spec/{file}/{}", i + 1),
                        Op::Resolve,
                        profile,
                    ),
                    None,
                    r,
                    Some(&base),
                    Expect::Result {
                        result: target.clone(),
                        also: loose.iter().cloned().collect(),
                    },
                    format!("example of {}", section(file)),
                );
                if loose.is_some() {
                    c.note = Some(
                        "RFC 3986 §5.4.2: strict parsers give the first answer; the \
                         backward-compatible reading of §5.2.2 the second"
                            .into(),
                    );
                }
                out.push(c);
            }
        }
    }
    out
}

/// The base of a resolution example file (its first example) and its
/// (reference, target, non-strict target) triples, from the labels of its
/// comments.
fn resolution_pairs(text: &str) -> (String, Vec<(String, String, Option<String>)>) {
    let all = lines(text);
    let base = all.first().map(|(b, _)| b.clone()).unwrap_or_default();
    let mut reference = String::new();
    let mut pairs: Vec<(String, String, Option<String>)> = Vec::new();
    for (value, label) in all.iter().skip(1) {
        if label == "reference" {
            reference = value.clone();
        } else if label.starts_with("target") {
            if label.contains("non-strict") {
                if let Some(last) = pairs.last_mut() {
                    last.2 = Some(value.clone());
                }
            } else {
                pairs.push((reference.clone(), value.clone(), None));
            }
        }
    }
    (base, pairs)
}

/// The conversions and normalizations of [`SPEC_OPERATIONS`], under
/// 3987bis: the printed answer first, the others the library allows after
/// it.
fn printed_ops() -> Vec<Case> {
    let mut out = Vec::new();
    let mut n: BTreeMap<Op, usize> = BTreeMap::new();
    for line in SPEC_OPERATIONS.lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        let text = |k: &str| v[k].as_str().unwrap_or_else(|| panic!("{k} in {line}"));
        let op: Op = text("op").parse().expect("an operation");
        let (input, expected, place) = (text("input"), text("expected"), text("place"));
        let profile = Profile::Rfc3987bis;
        let k = n.entry(op).or_default();
        *k += 1;
        let expect = match op {
            Op::ToUri => to_uri(input, profile),
            Op::ToIri => to_iri(input),
            _ => normalization(input, profile),
        };
        let mut c = case(
            (format!("{op}/{profile}/spec/{place}/{k}"), op, profile),
            None,
            input,
            None,
            printed_first(expect, expected),
            format!("example of {}", section(place)),
        );
        c.note = v["note"].as_str().map(str::to_owned);
        out.push(c);
    }
    out
}

/// The printed answer must be among those the library allows: it comes
/// first, and the library's own answer, where it differs, is allowed too.
fn printed_first(expect: Expect, printed: &str) -> Expect {
    match expect {
        Expect::Result { result, mut also } if result != printed => {
            also.retain(|a| a != printed);
            also.insert(0, result);
            Expect::Result {
                result: printed.to_owned(),
                also,
            }
        }
        e => e,
    }
}

/// The vectors of other projects: syntax vectors as `valid` cases of
/// 3987bis, resolutions, conversions; and the JSON-Schema-Test-Suite's
/// format tests. Each keeps its source; where the source expected
/// otherwise than the spec, the case says so in its note.
pub(crate) fn vectors() -> Vec<Case> {
    let mut out = Vec::new();
    let mut n: BTreeMap<&str, usize> = BTreeMap::new();
    for line in VECTORS.iter().flat_map(|v| v.lines()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        let (Some(kind), Some(src)) = (s("kind"), s("src")) else {
            continue;
        };
        let note = s("note");
        let profile = s("profile")
            .and_then(|p| p.parse().ok())
            .unwrap_or(Profile::Rfc3987bis);
        let (op, input, base, expect, theirs) = match kind.as_str() {
            "syntax" => {
                let (Some(rule), Some(input), Some(valid)) = (
                    s("rule"),
                    s("input"),
                    v.get("valid").and_then(Value::as_bool),
                ) else {
                    continue;
                };
                let Some(dfa) = GrammarRule::from_name(&rule).and_then(|r| Dfa::of(r, profile))
                else {
                    continue;
                };
                let expect = verdict(dfa, &input);
                let agrees = matches!(expect, Expect::Valid { valid: v, .. } if v == valid);
                let theirs = (!agrees).then(|| if valid { "valid" } else { "invalid" }.to_owned());
                let k = n.entry("valid").or_default();
                *k += 1;
                let mut c = case(
                    (
                        format!("valid/{profile}/{rule}/vector/{k}"),
                        Op::Valid,
                        profile,
                    ),
                    Some(&rule),
                    &input,
                    None,
                    expect,
                    src,
                );
                c.note = join_notes(note, theirs);
                out.push(c);
                continue;
            }
            "resolve" => {
                let (Some(base), Some(r)) = (s("base"), s("ref")) else {
                    continue;
                };
                let expect = resolution(&base, &r, profile);
                (Op::Resolve, r, Some(base), expect, s("expected"))
            }
            "to_uri" => {
                let Some(input) = s("input") else { continue };
                let expect = to_uri(&input, profile);
                (Op::ToUri, input, None, expect, s("expected"))
            }
            "to_iri" => {
                let Some(input) = s("input") else { continue };
                let expect = to_iri(&input);
                (Op::ToIri, input, None, expect, s("expected"))
            }
            _ => continue,
        };
        let theirs = theirs.filter(|t| match &expect {
            Expect::Result { result, also } => t != result && !also.contains(t),
            _ => true,
        });
        let k = n.entry(op.name()).or_default();
        *k += 1;
        let mut c = case(
            (format!("{op}/{profile}/vector/{k}"), op, profile),
            None,
            &input,
            base.as_deref(),
            expect,
            src,
        );
        c.note = join_notes(note, theirs);
        out.push(c);
    }
    for (format, text) in JSON_SCHEMA {
        let (rule, profile) = match *format {
            "iri" => ("IRI", Profile::Rfc3987),
            "iri-reference" => ("IRI-reference", Profile::Rfc3987),
            "uri" => ("URI", Profile::Rfc3986),
            _ => ("URI-reference", Profile::Rfc3986),
        };
        let Some(dfa) = GrammarRule::from_name(rule).and_then(|r| Dfa::of(r, profile)) else {
            continue;
        };
        let groups: Vec<Value> = serde_json::from_str(text).unwrap_or_default();
        let mut k = 0;
        for g in groups {
            for t in g["tests"].as_array().into_iter().flatten() {
                let (Some(input), Some(valid), Some(what)) = (
                    t["data"].as_str(),
                    t["valid"].as_bool(),
                    t["description"].as_str(),
                ) else {
                    continue;
                };
                k += 1;
                let expect = verdict(dfa, input);
                let agrees = matches!(expect, Expect::Valid { valid: v, .. } if v == valid);
                let mut c = case(
                    (
                        format!("valid/{profile}/{rule}/json-schema/{k}"),
                        Op::Valid,
                        profile,
                    ),
                    Some(rule),
                    input,
                    None,
                    expect,
                    format!(
                        "json-schema-org/JSON-Schema-Test-Suite tests/draft2020-12/optional/format/{format}.json ({what:?}; MIT)"
                    ),
                );
                if !agrees {
                    c.note = Some(format!(
                        "the JSON-Schema-Test-Suite expects {}; the ABNF says otherwise",
                        if valid { "valid" } else { "invalid" }
                    ));
                }
                out.push(c);
            }
        }
    }
    out
}

/// A vector's own note, and what its source expected where the spec
/// answers otherwise.
fn join_notes(note: Option<String>, theirs: Option<String>) -> Option<String> {
    let theirs =
        theirs.map(|t| format!("the source expects {t:?}; the spec's answer is the one here"));
    match (note, theirs) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    }
}
