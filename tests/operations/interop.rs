//! The conversions with other crates' types (features `url`, `http`,
//! `oxiri`, `fluent-uri`), both ways, on the cases where the two sides
//! disagree.

#[cfg(feature = "url")]
mod url_url {
    use iribis::interop::InteropErrorKind as K;
    use iribis::{Iri, IriRef, ParseOptions, Profile};

    fn into_url(s: &str) -> Result<url::Url, iribis::interop::InteropError> {
        url::Url::try_from(&IriRef::parse(s).unwrap())
    }

    #[test]
    fn into_url_through_the_uri_form() {
        // 3987bis §3: non-ASCII percent-encoded as UTF-8; a DNS scheme's
        // host by IDNA, another scheme's percent-encoded (§3.4.1).
        assert_eq!(
            into_url("http://résumé.example/é?é#é").unwrap().as_str(),
            "http://xn--rsum-bpad.example/%C3%A9?%C3%A9#%C3%A9"
        );
        assert_eq!(
            into_url("foo://résumé/x").unwrap().as_str(),
            "foo://r%C3%A9sum%C3%A9/x"
        );
        assert_eq!(
            into_url("urn:isbn:0-395-36341-1").unwrap().as_str(),
            "urn:isbn:0-395-36341-1"
        );
        // The same by &Iri.
        let iri = Iri::parse("https://例え.jp/").unwrap();
        assert_eq!(
            url::Url::try_from(&iri).unwrap().as_str(),
            "https://xn--r8jz45g.jp/"
        );
        // A LEIRI's space is encoded on the way (3987bis §6.2).
        let leiri =
            IriRef::parse_with("http://h/a b", &ParseOptions::new().profile(Profile::Leiri))
                .unwrap();
        assert_eq!(
            url::Url::try_from(&leiri).unwrap().as_str(),
            "http://h/a%20b"
        );
    }

    #[test]
    fn into_url_refusals() {
        for r in ["../a", "//h/p", "?q", "#f", ""] {
            let e = into_url(r).unwrap_err();
            assert!(matches!(e.kind(), K::Relative), "{r}");
            assert!(e.to_string().contains("relative reference"), "{e}");
        }
        // What rust-url refuses and 3987bis takes: its own message.
        for (r, why) in [
            ("http://[v7.x]/", "invalid IPv6 address"),
            (
                "http://ex%00ample.com/",
                "invalid international domain name",
            ),
            ("http://a.b.c.127.0.0.1/", "invalid IPv4 address"),
            ("http://h:99999/", "invalid port number"),
        ] {
            match into_url(r) {
                Err(e) => {
                    assert!(matches!(e.kind(), K::Refused(m) if m == why), "{r}: {e}");
                    assert_eq!(e.to_string(), format!("url::Url refuses {r:?}: {why}"));
                }
                Ok(u) => panic!("{r} became {u}"),
            }
        }
        // IDNA refusing a label: the ConvertError is the source.
        let e = into_url("http://\u{0300}a.example/").unwrap_err();
        assert!(matches!(e.kind(), K::ToUri(_)), "{e}");
        assert!(std::error::Error::source(&e).is_some());
    }

    /// The WHATWG reading rewrites: the same IRI, another resource.
    #[test]
    fn into_url_rewrites() {
        for (iri, url) in [
            ("http://h/a/../b/./c", "http://h/b/c"),
            ("http://h/a/%2e%2e/b", "http://h/b"),
            ("http://h:80/", "http://h/"),
            ("http://0x7f.1/", "http://127.0.0.1/"),
            ("HTTP://H/", "http://h/"),
            ("http://%6c%6fcalhost/", "http://localhost/"),
            // An empty host: the first segment becomes the host.
            ("http:///x/y", "http://x/y"),
        ] {
            assert_eq!(into_url(iri).unwrap().as_str(), url, "{iri}");
        }
    }

    #[test]
    fn from_url() {
        let url = url::Url::parse("http://例え.jp/ü?é#f").unwrap();
        let r = IriRef::try_from(&url).unwrap();
        assert_eq!(r, "http://xn--r8jz45g.jp/%C3%BC?%C3%A9#f");
        assert_eq!(Iri::try_from(url.clone()).unwrap().scheme(), "http");
        assert_eq!(IriRef::try_from(url).unwrap(), r);
        // rust-url's serializations that are not IRIs.
        for (input, serialization, component) in [
            ("http://h/a|b", "http://h/a|b", "path"),
            ("http://h/a^b", "http://h/a^b", "path"),
            ("http://h/?a{b}", "http://h/?a{b}", "query"),
            ("http://h/#a#b", "http://h/#a#b", "fragment"),
            ("mailto:a b", "mailto:a b", "path"),
            ("foo://h/a\\b", "foo://h/a\\b", "path"),
        ] {
            let url = url::Url::parse(input).unwrap();
            assert_eq!(url.as_str(), serialization);
            let e = IriRef::try_from(&url).unwrap_err();
            let K::NotAnIri(parse) = e.kind() else {
                panic!("{input}: {e}")
            };
            assert_eq!(parse.component().name(), component, "{input}");
            assert_eq!(e.text(), serialization);
            assert!(
                e.to_string().starts_with(&format!(
                    "the url::Url {serialization:?} is not an IRI reference (3987bis §2.2"
                )),
                "{e}"
            );
            assert!(Iri::try_from(&url).is_err());
        }
    }
}

#[cfg(feature = "http")]
mod http_uri {
    use iribis::interop::InteropErrorKind as K;
    use iribis::{Iri, IriRef};

    fn into_uri(s: &str) -> Result<http::Uri, iribis::interop::InteropError> {
        http::Uri::try_from(&IriRef::parse(s).unwrap())
    }

    #[test]
    fn into_http() {
        assert_eq!(
            into_uri("https://例え.jp/ü?q=é").unwrap(),
            "https://xn--r8jz45g.jp/%C3%BC?q=%C3%A9"
        );
        assert_eq!(into_uri("http://h").unwrap(), "http://h/");
        assert_eq!(into_uri("/a/b?c").unwrap(), "/a/b?c");
        assert_eq!(
            into_uri("http://[::1]:8080/x").unwrap().port_u16(),
            Some(8080)
        );
        assert_eq!(
            http::Uri::try_from(&Iri::parse("ws://h/").unwrap()).unwrap(),
            "ws://h/"
        );
        for r in [
            "http://h/#f",
            "mailto:a@b",
            "file:///x",
            "//h/p",
            "a/b",
            "?q",
            "",
        ] {
            let e = into_uri(r).unwrap_err();
            assert!(matches!(e.kind(), K::Unrepresentable(_)), "{r}: {e}");
        }
        // What http refuses: its own message.
        // What http refuses: its own message. A port past 65535 it takes
        // (and `port_u16` is `None`); a target past its length limit not.
        assert_eq!(into_uri("http://h:99999/").unwrap().port_u16(), None);
        let long = format!("http://h/{}", "a".repeat(70_000));
        let e = into_uri(&long).unwrap_err();
        assert!(
            matches!(e.kind(), K::Refused(m) if m == "uri too long"),
            "{e}"
        );
        assert_eq!(into_uri("http://[v7.x]/").unwrap(), "http://[v7.x]/");
    }

    #[test]
    fn from_http() {
        let r = |s: &str| IriRef::try_from(&s.parse::<http::Uri>().unwrap());
        assert_eq!(r("http://h/a?b").unwrap(), "http://h/a?b");
        assert_eq!(r("/a?b").unwrap(), "/a?b");
        assert_eq!(r("example.com:443").unwrap(), "//example.com:443");
        // http drops the fragment as it parses.
        assert_eq!(r("http://h/a#f").unwrap(), "http://h/a");
        let e = r("*").unwrap_err();
        assert!(matches!(e.kind(), K::Unrepresentable(_)), "{e}");
        for s in ["/a\"b", "/a{b}", "/a\\b", "/a|b", "/a^b", "/?a[b"] {
            let e = r(s).unwrap_err();
            assert!(matches!(e.kind(), K::NotAnIri(_)), "{s}: {e}");
        }
        // Non-ASCII in a path: http 1 takes it, and it is an IRI.
        let uri = http::Uri::try_from("/日本".as_bytes()).unwrap();
        assert_eq!(IriRef::try_from(uri).unwrap(), "/日本");
        let uri: http::Uri = "/x".parse().unwrap();
        assert!(Iri::try_from(&uri).is_err());
        let uri: http::Uri = "https://h/x".parse().unwrap();
        assert_eq!(Iri::try_from(uri).unwrap(), "https://h/x");
    }
}

#[cfg(feature = "oxiri")]
mod oxiri_iri {
    use iribis::interop::InteropErrorKind as K;
    use iribis::{Iri, IriRef, ParseOptions, Profile};

    #[test]
    fn both_ways() {
        let r = IriRef::parse("http://例え.jp/ü?\u{E000}#f").unwrap();
        let o = oxiri::IriRef::<String>::try_from(&r).unwrap();
        assert_eq!(o.as_str(), r.as_str());
        let borrowed: oxiri::IriRef<&str> = oxiri::IriRef::try_from(r).unwrap();
        assert_eq!(borrowed.authority(), Some("例え.jp"));
        assert_eq!(IriRef::try_from(&o).unwrap(), r);
        assert_eq!(IriRef::try_from(o).unwrap(), r);

        let iri = Iri::parse("urn:a:b").unwrap();
        let oi = oxiri::Iri::<String>::try_from(&iri).unwrap();
        let back: oxiri::Iri<&str> = oxiri::Iri::try_from(iri).unwrap();
        assert_eq!(back.scheme(), "urn");
        assert_eq!(Iri::try_from(&oi).unwrap(), iri);
        assert_eq!(Iri::try_from(oi).unwrap(), iri);
    }

    #[test]
    fn refusals() {
        let e = oxiri::Iri::<String>::try_from(&IriRef::parse("a").unwrap()).unwrap_err();
        assert!(matches!(e.kind(), K::Relative));
        let leiri =
            IriRef::parse_with("http://h/<a>", &ParseOptions::new().profile(Profile::Leiri))
                .unwrap();
        let e = oxiri::IriRef::<String>::try_from(&leiri).unwrap_err();
        assert!(matches!(e.kind(), K::Refused(_)), "{e}");
        // What oxiri holds unchecked and 3987bis refuses.
        for s in ["http://h/a b", "http://[::1/", "http://h/%zz"] {
            let o = oxiri::IriRef::parse_unchecked(s.to_owned());
            let e = IriRef::try_from(o).unwrap_err();
            assert!(matches!(e.kind(), K::NotAnIri(_)), "{s}: {e}");
        }
        let o = oxiri::Iri::parse_unchecked("no-scheme");
        assert!(Iri::try_from(&o).is_err());
    }
}

#[cfg(feature = "fluent-uri")]
mod fluent {
    use iribis::interop::InteropErrorKind as K;
    use iribis::{Iri, IriRef};

    #[test]
    fn both_ways() {
        let r = IriRef::parse("http://例え.jp/ü?q#f").unwrap();
        let fi = fluent_uri::IriRef::try_from(&r).unwrap();
        assert_eq!(fi.as_str(), r.as_str());
        let fu = fluent_uri::UriRef::try_from(&r).unwrap();
        assert_eq!(fu.as_str(), "http://xn--r8jz45g.jp/%C3%BC?q#f");
        let iri = Iri::parse("foo://résumé/é").unwrap();
        let u = fluent_uri::Uri::try_from(&iri).unwrap();
        assert_eq!(u.as_str(), "foo://r%C3%A9sum%C3%A9/%C3%A9");
        let i = fluent_uri::Iri::try_from(&iri).unwrap();
        assert_eq!(i.as_str(), iri.as_str());

        assert_eq!(IriRef::try_from(&fi).unwrap(), r);
        assert_eq!(
            IriRef::try_from(fu.borrow()).unwrap(),
            "http://xn--r8jz45g.jp/%C3%BC?q#f"
        );
        assert_eq!(
            IriRef::try_from(fu).unwrap(),
            "http://xn--r8jz45g.jp/%C3%BC?q#f"
        );
        assert_eq!(Iri::try_from(&u).unwrap(), "foo://r%C3%A9sum%C3%A9/%C3%A9");
        assert_eq!(Iri::try_from(i).unwrap(), iri);
    }

    #[test]
    fn refusals() {
        for r in ["../a", "#f"] {
            let r = IriRef::parse(r).unwrap();
            assert!(matches!(
                fluent_uri::Uri::try_from(&r).unwrap_err().kind(),
                K::Relative
            ));
            assert!(matches!(
                fluent_uri::Iri::try_from(&r).unwrap_err().kind(),
                K::Relative
            ));
            assert!(fluent_uri::UriRef::try_from(&r).is_ok());
        }
        // 3987bis's iprivate takes the tag range U+E0000..U+E0FFF in a
        // query; RFC 3987's, which fluent-uri follows, does not.
        let tagged = IriRef::parse("http://h/?\u{E0001}").unwrap();
        let e = fluent_uri::IriRef::try_from(&tagged).unwrap_err();
        assert!(
            matches!(e.kind(), K::Refused(m) if m.starts_with("unexpected character at index")),
            "{e}"
        );
        // Its URI form is fine.
        assert_eq!(
            fluent_uri::UriRef::try_from(&tagged).unwrap().as_str(),
            "http://h/?%F3%A0%80%81"
        );
    }
}
