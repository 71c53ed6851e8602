//! The W3C RDF 1.1 cases about IRIs (tests/data/w3c-rdf/, see its README):
//! relative IRIs in N-Triples and N-Quads are `RDF_RELATIVE_IRI` errors,
//! not resolved; an RDF/XML `rdf:type` property attribute is an IRI.

use std::path::PathBuf;

use iribis::check::{CheckOptions, Checker, Code};
use iribis_documents::{Format, Options, Position, What};

use crate::found_in;

fn data(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/w3c-rdf")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The written IRIs with the codes their checks give.
fn checked(doc: &[u8], options: &Options) -> Vec<(String, Vec<Code>)> {
    let mut checker = Checker::new(CheckOptions::default());
    found_in(doc, options)
        .iter()
        .map(|f| {
            let codes = match f.check(&mut checker) {
                Some(Ok(r)) => r.violations.iter().map(|v| v.code).collect(),
                _ => Vec::new(),
            };
            (f.written().to_owned(), codes)
        })
        .collect()
}

#[test]
fn relative_iris_in_ntriples_and_nquads_are_errors() {
    let cases = [
        (
            "rdf-n-triples/nt-syntax-bad-uri-06.nt",
            Format::NTriples,
            "s",
        ),
        (
            "rdf-n-triples/nt-syntax-bad-uri-07.nt",
            Format::NTriples,
            "p",
        ),
        (
            "rdf-n-triples/nt-syntax-bad-uri-08.nt",
            Format::NTriples,
            "o",
        ),
        (
            "rdf-n-triples/nt-syntax-bad-uri-09.nt",
            Format::NTriples,
            "dt",
        ),
        ("rdf-n-quads/nq-syntax-bad-uri-01.nq", Format::NQuads, "g"),
        ("rdf-n-quads/nt-syntax-bad-uri-06.nq", Format::NQuads, "s"),
        ("rdf-n-quads/nt-syntax-bad-uri-07.nq", Format::NQuads, "p"),
        ("rdf-n-quads/nt-syntax-bad-uri-08.nq", Format::NQuads, "o"),
        ("rdf-n-quads/nt-syntax-bad-uri-09.nq", Format::NQuads, "dt"),
    ];
    for (name, format, relative) in cases {
        // With the file's own location as the base, as `iri check` gives
        // it: still not resolved.
        let options = Options::new(format)
            .base("file:///data/w3c-rdf/doc")
            .unwrap();
        let doc = data(name);
        let found = found_in(&doc, &options);
        let rel = found
            .iter()
            .find(|f| f.written() == relative)
            .unwrap_or_else(|| panic!("{name}: {relative:?} not found in {found:#?}"));
        assert_eq!(rel.resolved(), None, "{name}: resolved");
        let mut checker = Checker::new(CheckOptions::default());
        let report = rel.check(&mut checker).unwrap().unwrap();
        assert!(!report.valid, "{name}");
        assert_eq!(
            report
                .violations
                .iter()
                .map(|v| (v.code, v.spec))
                .collect::<Vec<_>>(),
            [(
                Code::RdfRelativeIri,
                "RDF 1.1 N-Triples §2.1, RDF 1.1 N-Quads §2.1"
            )],
            "{name}"
        );
        // Every other IRI of the case is absolute and valid.
        for (written, codes) in checked(&doc, &options) {
            if written != relative {
                assert!(codes.is_empty(), "{name}: {written} {codes:?}");
            }
        }
    }
}

#[test]
fn turtle_and_trig_still_resolve() {
    let doc = b"<s> <http://example/p> <o> .";
    for format in [Format::Turtle, Format::TriG] {
        let options = Options::new(format).base("http://example/doc").unwrap();
        let found = checked(doc, &options);
        assert!(found.iter().all(|(_, codes)| codes.is_empty()), "{found:?}");
        let all = found_in(doc, &options);
        assert_eq!(all[0].resolved(), Some("http://example/s"));
    }
}

#[test]
fn rdf_type_property_attribute_is_an_iri() {
    let doc = data("rdf-xml/rdf-ns-prefix-confusion/test0006.rdf");
    let options = Options::new(Format::RdfXml)
        .base("http://example.org/doc")
        .unwrap();
    let found = found_in(&doc, &options);
    let typ = found
        .iter()
        .find(|f| f.role.position == Position::Type)
        .expect("the rdf:type value");
    assert_eq!(typ.written(), "http://example.org/class/");
    assert_eq!(typ.role.attribute.as_deref(), Some("rdf:type"));
    let predicate = found
        .iter()
        .find(|f| f.role.position == Position::Predicate)
        .expect("the rdf:type property");
    assert_eq!(
        predicate.what,
        What::Name {
            written: "rdf:type".into(),
            iri: "http://www.w3.org/1999/02/22-rdf-syntax-ns#type".into()
        }
    );

    let bad = br#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="http://example.org/r" rdf:type="http://example.org/a b"/></rdf:RDF>"#;
    let result = checked(bad, &options);
    let (_, codes) = result
        .iter()
        .find(|(w, _)| w == "http://example.org/a b")
        .expect("the rdf:type value is found");
    assert_eq!(codes, &[Code::SyntaxError]);
}

#[test]
fn every_iri_valued_rdfxml_attribute() {
    // Unqualified about/resource/type (RDF/XML §6.1.4), rdf:datatype,
    // rdf:type on an empty property element, other property attributes in
    // the RDF namespace (rdf:value), and rdf:nodeID (not an IRI).
    let doc = br#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/ns#" xml:base="http://example.org/">
<rdf:Description about="a" type="T" rdf:value="v">
  <ex:p rdf:type="U" ex:q="x"/>
  <ex:d rdf:datatype="dt">1</ex:d>
  <ex:r resource="b"/>
  <ex:n rdf:nodeID="n1"/>
</rdf:Description></rdf:RDF>"#;
    let options = Options::new(Format::RdfXml);
    let found: Vec<(Position, String, Option<String>)> = found_in(doc, &options)
        .into_iter()
        .map(|f| {
            (
                f.role.position,
                f.written().to_owned(),
                f.resolved().map(str::to_owned),
            )
        })
        .collect();
    let has = |p: Position, w: &str, r: &str| {
        assert!(
            found
                .iter()
                .any(|(fp, fw, fr)| *fp == p && fw == w && fr.as_deref() == Some(r)),
            "{p:?} {w} {r} not in {found:#?}"
        );
    };
    has(Position::Subject, "a", "http://example.org/a");
    has(Position::Type, "T", "http://example.org/T");
    has(Position::Type, "U", "http://example.org/U");
    has(Position::Datatype, "dt", "http://example.org/dt");
    has(Position::Object, "b", "http://example.org/b");
    has(
        Position::Predicate,
        "rdf:value",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#value",
    );
    assert!(!found.iter().any(|(_, w, _)| w == "n1"), "{found:#?}");
}
