//! Documents in every encoding, in the spirit of Dürst's "from
//! specification to testing": HTML (both `<meta>` forms), XHTML, XML and
//! RDF/XML in UTF-8 (with and without a byte order mark), UTF-16LE/BE,
//! windows-1252 (declared as ISO-8859-1), ISO-8859-2, windows-1251,
//! KOI8-R, Shift_JIS, EUC-JP, ISO-2022-JP, GBK, Big5 and EUC-KR, each with
//! IRIs in its script: a valid one (an internationalized host and path),
//! one with a query outside ASCII, and an invalid one after text outside
//! ASCII on the same line.
//!
//! The documents are generated from one template per format and written
//! to [`FOLDER`]; the command's tests read them and take the expected
//! answers (input, line, column, validity, codes, encoding) from the
//! template, the oracle: a position is the one of the IRI's first
//! character in the template's text, counted in characters.

use encoding_rs::Encoding;

/// The folder of the documents, relative to the repository root.
pub const FOLDER: &str = "tests/data/documents/encodings";

/// The documents, as (path relative to the repository root, bytes).
pub fn files() -> Vec<(String, Vec<u8>)> {
    suite()
        .into_iter()
        .map(|(_, name, _, bytes, _)| (format!("{FOLDER}/{name}"), bytes))
        .collect()
}

/// One encoding of the suite: the label the documents declare, the WHATWG
/// name the reader must report, how the bytes are made, and the words of
/// its script.
pub struct Case {
    /// The file name's stem.
    pub name: &'static str,
    /// The label the document declares (the `<meta>` and the XML
    /// declaration).
    pub label: &'static str,
    /// The encoding's WHATWG name, as the output must give it.
    pub expect: &'static str,
    /// How the bytes are made.
    pub bytes: Bytes,
    /// A word of the script.
    pub word: &'static str,
    /// An internationalized domain name in the script.
    pub host: &'static str,
}

/// How a document's text becomes bytes.
#[derive(Clone, Copy)]
pub enum Bytes {
    /// Encoded by encoding_rs with the encoding of this label.
    Legacy(&'static str),
    /// UTF-8 without a byte order mark.
    Utf8,
    /// UTF-8 after a byte order mark.
    Utf8Bom,
    /// UTF-16LE after its byte order mark.
    Utf16Le,
    /// UTF-16BE after its byte order mark.
    Utf16Be,
}

/// The encodings of the suite, one case each.
pub const CASES: &[Case] = &[
    Case {
        name: "utf-8",
        label: "utf-8",
        expect: "UTF-8",
        bytes: Bytes::Utf8,
        word: "日本語",
        host: "例え.jp",
    },
    Case {
        name: "utf-8-bom",
        label: "utf-8",
        expect: "UTF-8",
        bytes: Bytes::Utf8Bom,
        word: "Ελληνικά",
        host: "παράδειγμα.ελ",
    },
    Case {
        name: "utf-16le",
        label: "utf-16",
        expect: "UTF-16LE",
        bytes: Bytes::Utf16Le,
        word: "日本語",
        host: "例え.jp",
    },
    Case {
        name: "utf-16be",
        label: "utf-16",
        expect: "UTF-16BE",
        bytes: Bytes::Utf16Be,
        word: "한국어",
        host: "예시.한국",
    },
    Case {
        name: "iso-8859-1",
        label: "iso-8859-1",
        expect: "windows-1252",
        bytes: Bytes::Legacy("windows-1252"),
        word: "Größe",
        host: "café.example",
    },
    Case {
        name: "iso-8859-2",
        label: "iso-8859-2",
        expect: "ISO-8859-2",
        bytes: Bytes::Legacy("iso-8859-2"),
        word: "příliš",
        host: "příklad.cz",
    },
    Case {
        name: "windows-1251",
        label: "windows-1251",
        expect: "windows-1251",
        bytes: Bytes::Legacy("windows-1251"),
        word: "пример",
        host: "пример.рф",
    },
    Case {
        name: "koi8-r",
        label: "koi8-r",
        expect: "KOI8-R",
        bytes: Bytes::Legacy("koi8-r"),
        word: "Москва",
        host: "пример.рф",
    },
    Case {
        name: "shift_jis",
        label: "shift_jis",
        expect: "Shift_JIS",
        bytes: Bytes::Legacy("shift_jis"),
        word: "日本語",
        host: "例え.jp",
    },
    Case {
        name: "euc-jp",
        label: "euc-jp",
        expect: "EUC-JP",
        bytes: Bytes::Legacy("euc-jp"),
        word: "東京",
        host: "例え.jp",
    },
    Case {
        name: "iso-2022-jp",
        label: "iso-2022-jp",
        expect: "ISO-2022-JP",
        bytes: Bytes::Legacy("iso-2022-jp"),
        word: "大阪",
        host: "例え.jp",
    },
    Case {
        name: "gbk",
        label: "gbk",
        expect: "GBK",
        bytes: Bytes::Legacy("gbk"),
        word: "中文",
        host: "例子.中国",
    },
    Case {
        name: "big5",
        label: "big5",
        expect: "Big5",
        bytes: Bytes::Legacy("big5"),
        word: "中文",
        host: "例子.台灣",
    },
    Case {
        name: "euc-kr",
        label: "euc-kr",
        expect: "EUC-KR",
        bytes: Bytes::Legacy("euc-kr"),
        word: "한국어",
        host: "예시.한국",
    },
];

/// The kinds of document: the `--from` format, the file extension, and
/// the template (`{label}`, `{word}`, `{host}` filled in).
pub const KINDS: &[(&str, &str, &str)] = &[
    ("html", "meta-charset.html", HTML_CHARSET),
    ("html", "meta-http-equiv.html", HTML_HTTP_EQUIV),
    ("html", "xhtml.html", XHTML),
    ("xml", "xml", XML),
    ("rdfxml", "rdf", RDF_XML),
];

/// An HTML document that names its charset in `<meta charset>`.
pub const HTML_CHARSET: &str = "<!DOCTYPE html>
<html><head><meta charset=\"{label}\"><title>{word}</title></head>
<body><p>{word}: <a href=\"http://{host}/{word}\">{word}</a></p>
<p>{word} <a href=\"http://example.org/search?q={word}\">?</a></p>
<p>{word} <a href=\"http://example.org/a b\">!</a></p>
</body></html>
";

const HTML_HTTP_EQUIV: &str = "<!DOCTYPE html>
<html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset={label}\">
<title>{word}</title></head>
<body><p>{word}: <a href=\"http://{host}/{word}\">{word}</a></p>
<p>{word} <img src=\"http://example.org/search?q={word}\" alt=\"{word}\"></p>
<p>{word} <a href=\"http://example.org/a b\">!</a></p>
</body></html>
";

const XHTML: &str = "<?xml version=\"1.0\" encoding=\"{label}\"?>
<html xmlns=\"http://www.w3.org/1999/xhtml\"><head>
<meta http-equiv=\"Content-Type\" content=\"application/xhtml+xml; charset={label}\"/><title>{word}</title></head>
<body><p>{word}: <a href=\"http://{host}/{word}\">{word}</a></p>
<p>{word} <a href=\"http://example.org/search?q={word}\">?</a></p>
<p>{word} <a href=\"http://example.org/a b\">!</a></p>
</body></html>
";

const XML: &str = "<?xml version=\"1.0\" encoding=\"{label}\"?>
<doc xmlns=\"http://example.org/ns\">
<title>{word}</title>
<part xml:base=\"http://{host}/{word}\">{word}</part>
<part>{word} <ref xml:base=\"http://example.org/search?q={word}\"/></part>
<part>{word} <ref xmlns:bad=\"http://example.org/a b\"/></part>
</doc>
";

const RDF_XML: &str = "<?xml version=\"1.0\" encoding=\"{label}\"?>
<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">
<rdf:Description rdf:about=\"http://{host}/{word}\">
<rdf:value>{word}</rdf:value><rdf:value rdf:resource=\"http://example.org/search?q={word}\"/>
</rdf:Description>
<rdf:Description><rdf:value>{word}</rdf:value><rdf:value rdf:resource=\"http://example.org/a b\"/></rdf:Description>
</rdf:RDF>
";

/// A template with the case's label, word and host filled in.
pub fn fill(template: &str, case: &Case) -> String {
    template
        .replace("{label}", case.label)
        .replace("{word}", case.word)
        .replace("{host}", case.host)
}

/// `text` as the bytes `bytes` says: a legacy encoding must map every
/// character (the suite's texts are chosen so).
pub fn encode(text: &str, bytes: Bytes) -> Vec<u8> {
    match bytes {
        Bytes::Utf8 => text.as_bytes().to_vec(),
        Bytes::Utf8Bom => [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat(),
        Bytes::Utf16Le => [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect(),
        Bytes::Utf16Be => [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect(),
        Bytes::Legacy(label) => {
            let encoding = Encoding::for_label(label.as_bytes()).unwrap();
            let (bytes, used, unmappable) = encoding.encode(text);
            assert_eq!(used, encoding, "{label}");
            assert!(!unmappable, "{label}: {text}");
            bytes.into_owned()
        }
    }
}

/// Every document of the suite: (format, file name, text, bytes, case).
///
/// ```
/// let all = iribis_gen::encodings::suite();
/// assert!(all.iter().any(|d| d.1 == "shift_jis.meta-charset.html"));
/// ```
pub fn suite() -> Vec<(&'static str, String, String, Vec<u8>, &'static Case)> {
    let mut all = Vec::new();
    for case in CASES {
        for &(format, ext, template) in KINDS {
            let text = fill(template, case);
            let bytes = encode(&text, case.bytes);
            all.push((format, format!("{}.{ext}", case.name), text, bytes, case));
        }
    }
    all
}
