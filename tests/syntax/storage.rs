//! The storages of the reference types: `&str`, `String`, `Box<str>`,
//! `Arc<str>`, `Rc<str>` and `Cow<str>`, each parsed in place, converted
//! into the others without a parse, compared, hashed and looked up alike.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use iribis::{AbsoluteIri, Host, Iri, IriRef, RelativeRef, Storage};

const TEXT: &str = "http://user@例え.jp:8080/a/b?q=1#top";

/// Everything the accessors read.
fn view<T: Storage>(r: &IriRef<T>) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        r.as_str(),
        r.scheme(),
        r.authority(),
        r.userinfo(),
        r.host(),
        r.port(),
        r.path(),
        r.query(),
        r.fragment(),
        r.profile(),
    )
}

#[test]
fn every_storage_parses_in_place_and_reads_alike() {
    let want = view(&IriRef::parse(TEXT).unwrap());
    let string = IriRef::<String>::try_from(TEXT.to_owned()).unwrap();
    let boxed = IriRef::<Box<str>>::try_from(Box::<str>::from(TEXT)).unwrap();
    let arc = IriRef::<Arc<str>>::try_from(Arc::<str>::from(TEXT)).unwrap();
    let rc = IriRef::<Rc<str>>::try_from(Rc::<str>::from(TEXT)).unwrap();
    let borrowed = IriRef::<Cow<str>>::try_from(Cow::Borrowed(TEXT)).unwrap();
    let owned = IriRef::<Cow<str>>::try_from(Cow::<str>::Owned(TEXT.to_owned())).unwrap();
    for v in [
        view(&string),
        view(&boxed),
        view(&arc),
        view(&rc),
        view(&borrowed),
        view(&owned),
    ] {
        assert_eq!(v, want);
    }
    // Parsed in place: the `Arc` is the one given, not a copy.
    let shared = Arc::<str>::from(TEXT);
    let r = IriRef::try_from(shared.clone()).unwrap();
    assert!(std::ptr::eq(r.as_str(), &*shared));
    assert_eq!(Arc::strong_count(&shared), 2);
    // `FromStr` for the owned and shared storages.
    let parsed: IriRef<Arc<str>> = TEXT.parse().unwrap();
    assert_eq!(view(&parsed), want);
    let parsed: Iri<Rc<str>> = TEXT.parse().unwrap();
    assert_eq!(parsed.scheme(), "http");
    let parsed: RelativeRef<Box<str>> = "//h/p".parse().unwrap();
    assert_eq!(parsed.host(), Some(Host::RegName("h")));
}

#[test]
fn errors_give_the_text_back() {
    let e = IriRef::<Arc<str>>::try_from(Arc::<str>::from("http://h/a b")).unwrap_err();
    assert_eq!(e.byte(), 10);
    assert_eq!(e.into_input(), "http://h/a b");
    let e = Iri::<Box<str>>::try_from(Box::<str>::from("../a")).unwrap_err();
    assert_eq!(e.into_input(), "../a");
    let e = AbsoluteIri::<Cow<str>>::try_from(Cow::Borrowed("http://h/#f")).unwrap_err();
    assert_eq!(e.byte(), 9);
    assert!("http://h/ ".parse::<RelativeRef<Rc<str>>>().is_err());
}

#[test]
fn kinds_convert_in_every_storage() {
    let r = IriRef::<Arc<str>>::try_from(Arc::<str>::from("http://h/")).unwrap();
    let iri = Iri::try_from(r).unwrap();
    let absolute = AbsoluteIri::try_from(IriRef::from(iri.clone())).unwrap();
    assert_eq!(Iri::from(absolute).scheme(), "http");
    let rel = IriRef::<Rc<str>>::try_from(Rc::<str>::from("../a")).unwrap();
    let err = Iri::try_from(rel).unwrap_err();
    assert_eq!(err.to_string(), "\"../a\" is not an IRI: it has no scheme");
    assert_eq!(err.value.as_str(), "../a");
    // Resolution takes any storage on either side.
    let base = Iri::<Box<str>>::try_from(Box::<str>::from("http://a/b/c")).unwrap();
    let reference = IriRef::<Cow<str>>::try_from(Cow::Borrowed("../d")).unwrap();
    assert_eq!(base.resolve(&reference), "http://a/d");
}

#[test]
fn storages_convert_without_a_parse() {
    let r = IriRef::parse(TEXT).unwrap();
    let want = view(&r);
    let arc: IriRef<Arc<str>> = r.into_storage();
    let rc: IriRef<Rc<str>> = r.into_storage();
    let cow: IriRef<Cow<str>> = r.into_storage();
    let string: IriRef<String> = arc.clone().into_owned();
    let boxed: IriRef<Box<str>> = string.clone().into_storage();
    let back: IriRef<String> = boxed.clone().into_storage();
    for v in [
        view(&arc),
        view(&rc),
        view(&cow),
        view(&string),
        view(&boxed),
        view(&back),
    ] {
        assert_eq!(v, want);
    }
    // `into_owned` moves a `String`'s or an owned `Cow`'s text.
    let s = TEXT.to_owned();
    let at = s.as_ptr();
    let moved = IriRef::<Cow<str>>::try_from(Cow::<str>::Owned(s))
        .unwrap()
        .into_owned();
    assert_eq!(moved.as_str().as_ptr(), at);
    let i: Iri<Arc<str>> = Iri::parse("urn:x").unwrap().into_storage();
    assert_eq!(i.into_owned().into_string(), "urn:x");
}

#[test]
fn storages_compare_hash_and_look_up_alike() {
    let arc: IriRef<Arc<str>> = "http://h/b".parse().unwrap();
    let rc: IriRef<Rc<str>> = "http://h/b".parse().unwrap();
    let string: IriRef<String> = "http://h/a".parse().unwrap();
    assert_eq!(arc, rc);
    assert!(string < arc);
    assert_eq!(arc, "http://h/b");
    assert_eq!(arc.to_string(), "http://h/b");
    assert_eq!(format!("{rc:?}"), "IriRef(\"http://h/b\")");
    let set: HashSet<IriRef<Arc<str>>> = [arc.clone()].into_iter().collect();
    assert!(set.contains("http://h/b"));
    let sorted: BTreeSet<IriRef<Box<str>>> =
        ["b", "a"].iter().map(|s| s.parse().unwrap()).collect();
    assert!(sorted.contains("a"));
    assert_eq!(sorted.iter().next().unwrap().as_str(), "a");
}
