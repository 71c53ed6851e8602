#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora, fuzz/corpus/TARGET/: a few small
inputs each, in the target's input format, made from the specs' examples
(crates/suite/data/spec-examples/) and the test documents
(tests/data/documents/). CI's short runs start from them (docs/fuzzing.md);
run again after a target's input format changes."""

import pathlib
import shutil

FUZZ = pathlib.Path(__file__).resolve().parent
ROOT = FUZZ.parent
DOCS = ROOT / "tests/data/documents"

# IRIs printed in the specs: RFC 3986 §1.1.2 and §3, 3987bis §3.4.2,
# RFC 3987 §3.2, 3987bis §6.3 (not an IRI: delimited) and RFC 3986 §1.1.2.
IRIS = [
    "foo://example.com:8042/over/there?name=ferret#nose",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "http://r\u00e9sum\u00e9.example.org",
    "http://www.example.org/r%E9sum%E9.html",
    "<http://example.com/>",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
]
# URIs of RFC 3987 §3.2 and 3987bis §3.4.2, and one of RFC 3986 §3.
URIS = [
    "http://www.example.org/r%C3%A9sum%C3%A9.html",
    "http://xn--rsum-bpad.example.org",
    "http://www.example.org/r%E9sum%E9.html",
    "mailto:John.Doe@example.com",
]
# RFC 3986 §5.4's base with references of §5.4.1 and §5.4.2.
BASE = "http://a/b/c/d;p?q"
RESOLVE = [f"{BASE}\n{r}" for r in ["g;x?y#s", "../../../g", "//g", "?y", "./g/."]]
# Equivalent pairs of RFC 3986 §6.2.2 and RFC 3987 §5.3.
COMPARE = [
    "example://a/b/c/%7Bfoo%7D\neXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    "http://example.com\nhttp://example.com:80/",
    "http://www.example.org/r%C3%A9sum%C3%A9.html\nhttp://www.example.org/r\u00e9sum\u00e9.html",
]
# RFC 3986 §3.2.2's IPv6 forms and one that is not.
IPV6 = ["2001:db8::7", "::ffff:192.0.2.1", "fe80::1:2:3:4", "1::2::3"]
# An ABNF rule of RFC 3986 and its transcription into pest.
ABNF = [
    'scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )\n',
    'dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35\n',
    'ls32 = ( h16 ":" h16 ) / IPv4address\nh16 = 1*4HEXDIG\nIPv4address = 1*3DIGIT 3( "." 1*3DIGIT )\n',
]
PEST = [
    'scheme = { ASCII_ALPHA ~ (ASCII_ALPHA | ASCII_DIGIT | "+" | "-" | ".")* }\n',
    'h16 = { ASCII_HEX_DIGIT{1,4} }\nls32 = { h16 ~ ":" ~ h16 }\n',
]


def long_input(prefix, fragment, suffix):
    """long_inputs' format: [prefix length, fragment length, prefix, fragment, suffix]."""
    p, f = prefix.encode(), fragment.encode()
    return bytes([len(p), len(f)]) + p + f + suffix.encode()


SEEDS = {
    "parse_any": IRIS,
    "fast_vs_pest": IRIS,
    "roundtrip": IRIS,
    "check": IRIS,
    "differential": IRIS,
    "to_uri": IRIS,
    "cli": ["\n".join(IRIS) + "\n"],
    "to_iri": URIS,
    "resolve": RESOLVE,
    "compare": COMPARE,
    "ipv6": IPV6,
    "long_inputs": [
        long_input("http://a/", "%E9", "?q"),
        long_input("http://", "a", ".com/"),
        long_input("http://a/b", "/..", "#f"),
    ],
    "lab_from_abnf": ABNF,
    "lab_check": ABNF + [ABNF[0] + "\0" + PEST[0]],
    "lab_grammar": PEST,
    # The first byte picks the mode, the cap, the built-in grammar and its rule.
    "lab_trace": [b"\x00" + BASE.encode(), b"\x15" + IRIS[0].encode(), b"\x01" + PEST[1].encode() + b"\x00ab:cd"],
    # The first byte picks the format (Format::ALL, or the target's list) and the cuts.
    "documents_rdf": [b"\x00" + (DOCS / "doc.nt").read_bytes(), b"\x05" + (DOCS / "doc.nq").read_bytes(),
                      b"\x06" + (DOCS / "doc.ttl").read_bytes(), b"\x07" + (DOCS / "doc.trig").read_bytes()],
    "documents_markup": [b"\x00" + (DOCS / "doc.html").read_bytes(), b"\x04" + (DOCS / "doc.xml").read_bytes(),
                         b"\x05" + (DOCS / "doc.rdf").read_bytes()],
    "documents_bom": [b"\x00" + (DOCS / "doc.nt").read_bytes(), b"\x02" + (DOCS / "doc.ttl").read_bytes(),
                      b"\x04" + (DOCS / "doc.rdf").read_bytes(), b"\x05" + (DOCS / "doc.html").read_bytes(),
                      b"\x06" + (DOCS / "doc.xml").read_bytes()],
}

for target, seeds in SEEDS.items():
    folder = FUZZ / "corpus" / target
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for n, seed in enumerate(seeds, 1):
        data = seed if isinstance(seed, bytes) else seed.encode()
        (folder / f"seed-{n}").write_bytes(data)
