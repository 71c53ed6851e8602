//! The reference types as strings in serde formats (feature `serde`).
#![cfg(feature = "serde")]

use iribis::{AbsoluteIri, Iri, IriRef, RelativeRef};

#[test]
fn round_trip_as_strings() {
    let r: IriRef<String> = serde_json::from_str(r#""http://例え.jp/a?b#c""#).unwrap();
    assert_eq!(r.host_str(), Some("例え.jp"));
    assert_eq!(
        serde_json::to_string(&r).unwrap(),
        r#""http://例え.jp/a?b#c""#
    );

    let borrowed = IriRef::parse("//h/p").unwrap();
    assert_eq!(serde_json::to_string(&borrowed).unwrap(), r#""//h/p""#);

    let i: Iri<String> = serde_json::from_str(r#""urn:x#f""#).unwrap();
    assert_eq!(i.scheme(), "urn");
    let a: AbsoluteIri<String> = serde_json::from_str(r#""urn:x""#).unwrap();
    assert_eq!(a.as_str(), "urn:x");
    let rel: RelativeRef<String> = serde_json::from_str(r#""../x""#).unwrap();
    assert_eq!(rel.path(), "../x");
}

#[test]
fn invalid_strings_are_errors_that_say_why() {
    let e = serde_json::from_str::<IriRef<String>>(r#""http://h/a b""#).unwrap_err();
    assert!(
        e.to_string()
            .contains("invalid IRI reference at character 10: a space is not allowed in a path"),
        "{e}"
    );
    let e = serde_json::from_str::<AbsoluteIri<String>>(r#""http://h/#f""#).unwrap_err();
    assert!(e.to_string().contains("absolute"), "{e}");
    let e = serde_json::from_str::<RelativeRef<String>>(r#""http://h/""#).unwrap_err();
    assert!(!e.to_string().is_empty());
    assert!(serde_json::from_str::<Iri<String>>("42").is_err());
}

/// `&str` storage borrows from the input: zero-copy. A string with an
/// escape cannot be borrowed, and the error says what to do.
#[test]
fn borrowed_references_borrow_from_the_input() {
    let json = r#"["http://例え.jp/a?b#c", "../x"]"#;
    let refs: Vec<IriRef<&str>> = serde_json::from_str(json).unwrap();
    assert_eq!(refs[0].host_str(), Some("例え.jp"));
    let range = json.as_bytes().as_ptr_range();
    assert!(range.contains(&refs[0].as_str().as_ptr()));
    let iri: Iri<&str> = serde_json::from_str(r#""urn:x""#).unwrap();
    assert_eq!(iri.scheme(), "urn");

    let e = serde_json::from_str::<IriRef<&str>>(r#""http://h/a\u0062""#).unwrap_err();
    assert!(
        e.to_string().contains(
            "expected an IRI reference as a string borrowed from the input, without escapes \
             (deserialize into Cow<str> or String storage to take escaped strings)"
        ),
        "{e}"
    );
    let e = serde_json::from_str::<IriRef<&str>>(r#""http://h/a b""#).unwrap_err();
    assert!(
        e.to_string().contains("a space is not allowed in a path"),
        "{e}"
    );
}

/// `Cow` storage borrows where it can and owns where the format unescaped.
#[test]
fn cow_references_borrow_when_they_can() {
    use std::borrow::Cow;
    let json = r#""http://h/a""#;
    let r: IriRef<Cow<str>> = serde_json::from_str(json).unwrap();
    assert!(
        json.as_bytes()
            .as_ptr_range()
            .contains(&r.as_str().as_ptr())
    );
    let r: RelativeRef<Cow<str>> = serde_json::from_str(r#""/a\u0062""#).unwrap();
    assert_eq!(r.path(), "/ab");
    assert!(serde_json::from_str::<AbsoluteIri<Cow<str>>>(r#""http://h/#f""#).is_err());
}

/// The shared and boxed storages deserialize as `String` does.
#[test]
fn shared_storages_deserialize() {
    use std::rc::Rc;
    use std::sync::Arc;
    let a: IriRef<Arc<str>> = serde_json::from_str(r#""http://h/a""#).unwrap();
    assert_eq!(a.path(), "/a");
    let r: Iri<Rc<str>> = serde_json::from_str(r#""urn:x""#).unwrap();
    assert_eq!(r.scheme(), "urn");
    let b: AbsoluteIri<Box<str>> = serde_json::from_str(r#""urn:x""#).unwrap();
    assert_eq!(serde_json::to_string(&b).unwrap(), r#""urn:x""#);
    assert!(serde_json::from_str::<IriRef<Arc<str>>>(r#""a b""#).is_err());
}
