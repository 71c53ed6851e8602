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
