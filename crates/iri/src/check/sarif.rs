//! `iri check --format sarif`: a SARIF 2.1.0 log (OASIS, Static Analysis
//! Results Interchange Format), written as the results come: the tool and
//! its rules first, then each finding, then the end of the log.
//!
//! One rule per catalogue code (§3.49 reportingDescriptor: its explanation,
//! spec section and default severity), and for `check --from` one more,
//! `DOCUMENT_SYNTAX_ERROR`; one result per finding (§3.27: the code, its
//! rule's index, the level, the message and where: the artifact, line and
//! column). Columns count Unicode code points (§3.14.17 `columnKind`), as
//! `char` does.

use std::io::{self, Write};
use std::path::{Component as PathComponent, Path, PathBuf};

use iribis::check::{Code, Report, Severity};
use iribis::convert::ToUriOptions;
use iribis::file::FilePathErrorKind;
use iribis::{IriRef, Profile};
use serde::Serialize;

use super::documents::DocFormat;
use crate::output::Failure;

/// The URI of `path` as a SARIF artifact location (§3.4.3, a URI
/// reference): the library's file IRI of an absolute path (RFC 8089,
/// `IriRef::from_file_path`: `file:///C:/x` and `file://server/share/x`
/// on Windows) or its relative reference for a relative path (resolved by
/// the consumer against the repository), mapped to a URI (3987bis §3:
/// names outside ASCII percent-encoded as UTF-8).
pub(crate) fn artifact_uri(path: &Path) -> String {
    let reference = IriRef::from_file_path(path).or_else(|e| match e.kind() {
        // `..` in an absolute path: the consumer would remove it by the
        // text, so it is removed here the same way.
        FilePathErrorKind::ParentInAbsolutePosixPath => {
            IriRef::from_file_path(lexically_normal(path))
        }
        _ => Err(e),
    });
    match reference {
        Ok(r) => match r.to_uri(&ToUriOptions::new()) {
            Ok(uri) => uri.into_string(),
            // §3.3 alone cannot fail; IDNA (§3.4.2) is not asked for.
            Err(_) => r.into_string(),
        },
        Err(_) => encoded_octets(path),
    }
}

/// `path` with `.` and `..` removed by the text.
fn lexically_normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            PathComponent::ParentDir => {
                out.pop();
            }
            PathComponent::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A path the library has no reference for (a Windows device path such as
/// `\\.\COM1`): every octet outside the unreserved characters and `/`
/// percent-encoded (RFC 3986 §2.1), as a relative reference.
fn encoded_octets(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut uri = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// Where a line's inputs are: the artifact, the line and the column of the
/// input's first character there (1-based).
pub(crate) struct Place<'a> {
    pub(crate) uri: &'a str,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// The SARIF level of a severity (§3.27.10).
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
        Severity::Allow => "none",
        // A severity this version does not know: SARIF's neutral level.
        _ => "none",
    }
}

/// A link to the spec section `spec` names ("RFC 3987 §4.2 rule 1",
/// "3987bis §5.1(c)"), where there is one.
fn help_uri(spec: &str) -> Option<String> {
    let (doc, section) = spec.split_once(" §")?;
    let section: String = section
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let section = section.trim_end_matches('.');
    let base = match doc.strip_prefix("RFC ") {
        Some(n) => format!("https://www.rfc-editor.org/rfc/rfc{n}"),
        None if doc == "3987bis" => {
            "https://datatracker.ietf.org/doc/html/draft-ietf-iri-3987bis-13".to_owned()
        }
        None => return None,
    };
    Some(if section.is_empty() {
        base
    } else {
        format!("{base}#section-{section}")
    })
}

#[derive(Serialize)]
struct Text<'a> {
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule<'a> {
    id: &'a str,
    short_description: Text<'a>,
    full_description: Text<'a>,
    help: Text<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    help_uri: Option<String>,
    default_configuration: Configuration,
    properties: RuleProperties<'a>,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct RuleProperties<'a> {
    spec: &'a str,
}

/// The first sentence of an explanation.
fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |i| &text[..=i])
}

/// Writes the log up to its first result: the tool, its rules, and the
/// opening of the results. The rules cite the spec sections of a check
/// under `profile` (a `SYNTAX_ERROR` cites the profile's grammar); with
/// `documents` (`check --from`), the rule `DOCUMENT_SYNTAX_ERROR` follows
/// the catalogue's, citing the format's specification.
pub(crate) fn write_head(
    out: &mut impl Write,
    profile: Profile,
    documents: Option<DocFormat>,
) -> io::Result<()> {
    out.write_all(
        br#"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"tool":{"driver":{"name":"iri","#,
    )?;
    write!(
        out,
        r#""version":"{}","informationUri":"https://datatracker.ietf.org/doc/html/draft-ietf-iri-3987bis-13","rules":["#,
        env!("CARGO_PKG_VERSION")
    )?;
    for (i, &code) in Code::ALL.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        let spec = code.spec_for(profile);
        let help = format!("{} ({spec})", code.explanation());
        let rule = Rule {
            id: code.name(),
            short_description: Text {
                text: first_sentence(code.explanation()),
            },
            full_description: Text {
                text: code.explanation(),
            },
            help: Text { text: &help },
            help_uri: help_uri(spec),
            default_configuration: Configuration {
                level: level(code.default_severity()),
            },
            properties: RuleProperties { spec },
        };
        serde_json::to_writer(&mut *out, &rule)?;
    }
    if let Some(format) = documents {
        let (spec, uri) = document_spec(format);
        let help = format!("{DOCUMENT_SYNTAX_ERROR_EXPLANATION} ({spec})");
        let rule = Rule {
            id: DOCUMENT_SYNTAX_ERROR,
            short_description: Text {
                text: first_sentence(DOCUMENT_SYNTAX_ERROR_EXPLANATION),
            },
            full_description: Text {
                text: DOCUMENT_SYNTAX_ERROR_EXPLANATION,
            },
            help: Text { text: &help },
            help_uri: Some(uri.to_owned()),
            default_configuration: Configuration { level: "error" },
            properties: RuleProperties { spec },
        };
        out.write_all(b",")?;
        serde_json::to_writer(&mut *out, &rule)?;
    }
    out.write_all(br#"]}},"columnKind":"unicodeCodePoints","results":["#)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    /// The rule's index in the driver's rules.
    rule_index: usize,
    level: &'static str,
    message: Text<'a>,
    locations: [Location<'a>; 1],
}

impl<'a> SarifResult<'a> {
    /// A result on line `place.line`, from column `start` for `len`
    /// characters.
    fn at(
        rule_id: &'a str,
        rule_index: usize,
        level: &'static str,
        message: &'a str,
        (place, start, len): (&Place<'a>, usize, usize),
    ) -> Self {
        SarifResult {
            rule_id,
            rule_index,
            level,
            message: Text { text: message },
            locations: [Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation { uri: place.uri },
                    region: Region {
                        start_line: place.line,
                        start_column: start,
                        end_column: start + len,
                    },
                },
            }],
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation<'a> {
    artifact_location: ArtifactLocation<'a>,
    region: Region,
}

#[derive(Serialize)]
struct ArtifactLocation<'a> {
    uri: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_column: usize,
}

/// Writes the results of one input at `place`, after the `written` results
/// so far; gives how many it wrote. An input that is not UTF-8 (or whose
/// check failed) is a `SYNTAX_ERROR` result.
pub(crate) fn write_results(
    out: &mut impl Write,
    place: &Place<'_>,
    answer: &Result<Report, Failure>,
    written: usize,
) -> io::Result<usize> {
    let mut count = 0;
    let mut one = |code: Code, severity: Severity, message: &str, char: usize, len: usize| {
        if written + count > 0 {
            out.write_all(b",")?;
        }
        // Every code has its rule, in catalogue order.
        let rule_index = Code::ALL
            .iter()
            .position(|&c| c == code)
            .expect("Code::ALL holds every code");
        let result = SarifResult::at(
            code.name(),
            rule_index,
            level(severity),
            message,
            (place, place.column + char, len),
        );
        count += 1;
        crate::output::write_serialized(out, &result)
    };
    match answer {
        Ok(report) => {
            for v in &report.violations {
                one(v.code, v.severity, &v.message, v.char, v.len.max(1))?;
            }
        }
        Err(failure) => one(
            Code::SyntaxError,
            Severity::Error,
            failure.message(),
            failure.char(),
            1,
        )?,
    }
    Ok(count)
}

/// The code of a syntax error in a document read by `check --from`: the
/// rule of its SARIF results, after the catalogue's (`write_head`), and a
/// code `--explain` knows. It is no catalogue code: the library's checker
/// never reports it, and it has no severity to set.
pub(crate) const DOCUMENT_SYNTAX_ERROR: &str = "DOCUMENT_SYNTAX_ERROR";

/// What `DOCUMENT_SYNTAX_ERROR` means (`--explain`, the SARIF rule).
pub(crate) const DOCUMENT_SYNTAX_ERROR_EXPLANATION: &str = "A document read by `iri check --from` is not well-formed in its format: the format's parser rejected it here (oxttl for N-Triples, N-Quads, Turtle and TriG, oxrdfxml for RDF/XML, quick-xml for XML; an HTML parser recovers from every error). A document past one of the readers' limits (entity expansion in XML and RDF/XML, the HTML parser's memory), or in an encoding its format does not allow or no decoder knows, is reported the same way. The IRIs the parser could not reach there are not checked; checking goes on where it recovers. It is not a finding about an IRI: it is no catalogue code, --allow, --warn and --deny do not take it, and a run with one exits with status 3. JSON gives it as a `syntax_error` object (`format`, `message`, `byte`), the human output as `FILE:LINE:COLUMN: syntax error in the FORMAT document: ...`.";

/// The specification a document of `format` follows, and its address.
pub(crate) fn document_spec(format: DocFormat) -> (&'static str, &'static str) {
    match format {
        DocFormat::Ntriples => ("RDF 1.1 N-Triples", "https://www.w3.org/TR/n-triples/"),
        DocFormat::Nquads => ("RDF 1.1 N-Quads", "https://www.w3.org/TR/n-quads/"),
        DocFormat::Turtle => ("RDF 1.1 Turtle", "https://www.w3.org/TR/turtle/"),
        DocFormat::Trig => ("RDF 1.1 TriG", "https://www.w3.org/TR/trig/"),
        DocFormat::Rdfxml => (
            "RDF 1.1 XML Syntax",
            "https://www.w3.org/TR/rdf-syntax-grammar/",
        ),
        DocFormat::Html => ("HTML Living Standard", "https://html.spec.whatwg.org/"),
        DocFormat::Xml => ("XML 1.0", "https://www.w3.org/TR/xml/"),
    }
}

/// Writes a document's syntax error at `place`, after the `written`
/// results so far.
pub(crate) fn write_document_error(
    out: &mut impl Write,
    place: &Place<'_>,
    message: &str,
    written: usize,
) -> io::Result<()> {
    if written > 0 {
        out.write_all(b",")?;
    }
    // The rule after the catalogue's (write_head).
    let result = SarifResult::at(
        DOCUMENT_SYNTAX_ERROR,
        Code::ALL.len(),
        "error",
        message,
        (place, place.column, 1),
    );
    crate::output::write_serialized(out, &result)
}

/// Ends the log.
pub(crate) fn write_tail(out: &mut impl Write) -> io::Result<()> {
    out.write_all(b"]}]}\n")
}

#[derive(Serialize)]
struct Artifact<'a> {
    location: ArtifactLocation<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    encoding: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation<'a> {
    execution_successful: bool,
    tool_execution_notifications: Vec<Notification<'a>>,
}

#[derive(Serialize)]
struct Notification<'a> {
    level: &'static str,
    message: Text<'a>,
}

/// Ends the log of `check --from`: the documents as the run's artifacts
/// (SARIF §3.24, each with the encoding it was read in, §3.24.9), and the
/// invocation (§3.20), unsuccessful with a notification for each document
/// that could not be read (§3.20.21), so that a log is always whole.
pub(crate) fn write_documents_tail(
    out: &mut impl Write,
    artifacts: &[(String, Option<&str>)],
    not_read: &[String],
) -> io::Result<()> {
    out.write_all(b"],\"artifacts\":")?;
    let artifacts: Vec<Artifact<'_>> = artifacts
        .iter()
        .map(|(uri, encoding)| Artifact {
            location: ArtifactLocation { uri },
            encoding: *encoding,
        })
        .collect();
    crate::output::write_serialized(out, &artifacts)?;
    out.write_all(b",\"invocations\":")?;
    let invocation = Invocation {
        execution_successful: not_read.is_empty(),
        tool_execution_notifications: not_read
            .iter()
            .map(|m| Notification {
                level: "error",
                message: Text { text: m },
            })
            .collect(),
    };
    crate::output::write_serialized(out, &[invocation])?;
    out.write_all(b"}]}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn artifact_uris() {
        let uri = |p: &str| artifact_uri(Path::new(p));
        assert_eq!(uri("/tmp/links list.txt"), "file:///tmp/links%20list.txt");
        assert_eq!(
            uri("/tmp/日本/é.txt"),
            "file:///tmp/%E6%97%A5%E6%9C%AC/%C3%A9.txt"
        );
        assert_eq!(uri("/a/b/../c;d=1"), "file:///a/c;d=1");
        assert_eq!(uri("/a/./b#1?"), "file:///a/b%231%3F");
        assert_eq!(uri("notes/a b.txt"), "notes/a%20b.txt");
        assert_eq!(uri("../up/x"), "../up/x");
        assert_eq!(uri("c:x"), "c%3Ax");
        // Not UTF-8: each octet.
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(b"/caf\xE9"));
        assert_eq!(artifact_uri(p), "file:///caf%E9");
        assert_eq!(uri(""), "");
    }
}
