//! The document readers (`iribis_documents`) give the same items whatever
//! the pieces a document arrives in: a reader of a pipe or a socket gets
//! it in reads of any length, and a byte order mark, a token, a character
//! of several octets or an octet the encoding cannot decode may be cut
//! anywhere. Every input here is read whole, then cut before every offset
//! in turn, then in pieces of every length.

// The fuzz targets' reader in pieces and the items of one reading (with
// the invariants every reading keeps), shared with them.
use iribis_testkit::documents::{items, stable};

use iribis_documents::Format;

/// The items of `data` read as `format` in the pieces `cuts` says, but for
/// those a cut may move (RDF/XML's syntax errors).
fn read_in(format: Format, data: &[u8], cuts: Vec<usize>) -> Vec<iribis_documents::Found> {
    stable(format, items(format, data, cuts))
}

fn same_whatever_the_cuts(format: Format, data: &[u8]) {
    let whole = read_in(format, data, Vec::new());
    for at in 1..data.len() {
        assert_eq!(
            read_in(format, data, vec![at]),
            whole,
            "{format:?} {data:?} cut at {at}"
        );
    }
    for step in 1..data.len() {
        let cuts = (step..data.len()).step_by(step).collect();
        assert_eq!(
            read_in(format, data, cuts),
            whole,
            "{format:?} {data:?} in pieces of {step}"
        );
    }
}

#[test]
fn rdf_documents_are_read_alike_in_any_pieces() {
    let documents: &[&[u8]] = &[
        // Found by the fuzz target documents_rdf: octets that are not UTF-8 around a
        // '?' that is no token, read in pieces of 3.
        b"\xff\xff?\xe7\xf5",
        b"\xef\xbb\xbf<http://e/s> <http://e/p> <http://e/o> .\n",
        b"<http://e/\xe6\x97\xa5> <http://e/p> \"\xe6\x97\xa5\xe6\x9c\xac\" .\n",
        b"<http://e/\xff> <http://e/p> \"x\" ? .\n<http://e/a> <http://e/b> <c> .\n",
        b"<http://e/a\\> <http://e/p> <http://e/o> .\n",
        b"<a> <b> \"\"\"x\ny\"\"\" .\n<c d> <e> <f> .\n",
        b"\xe6\x97<http://e/> <p> <o> .",
        // Variables, which oxttl lexes (and rejects) as N3's QUICK_VAR_NAME:
        // a `?` and a whole PN_LOCAL, longer than any token of ours.
        b"<http://e/s> ?v\xe6\x97\xa5 <http://e/o> .\n<a> $ <b> ?x:y .\n",
        b"<a> <b> ?x.y:z%41\\. <c> .\n? $ ?? <d>#c\n?:a <e> <f> .",
        // Found by the fuzz target documents_bom: an empty variable before a name.
        b"\xef\xbb\xbf?:_S;",
        // Found by the fuzz target documents_rdf: short strings that a line ends.
        b"\"\n-I\"\n",
        b"\0\"\xb9\n\0\"\n",
        // Found by the fuzz target documents_rdf: a string a line ends after an octet
        // that is not UTF-8 (oxttl's token then ends before the line jump).
        b"\"^'\xd0\n\"\xbd\xbd=(\x15\0\0\0^\xd0\n\"<'",
    ];
    for data in documents {
        same_whatever_the_cuts(Format::NTriples, data);
        same_whatever_the_cuts(Format::NQuads, data);
        same_whatever_the_cuts(Format::Turtle, data);
    }
    let turtle: &[&[u8]] = &[
        b"@prefix ex: <http://e/\xe6\x97\xa5/> .\nex:a ex:b ex:\xe6\x97\xa5 .\n",
        b"@base <http://e/> . <a\xff> <b> <c> .",
        b"PREFIX : <http://e/>\n:a :b :c ; :d \"\xff\" .\n",
    ];
    for data in turtle {
        same_whatever_the_cuts(Format::Turtle, data);
        same_whatever_the_cuts(Format::TriG, data);
    }
}

#[test]
fn markup_documents_are_read_alike_in_any_pieces() {
    let html: &[&[u8]] = &[
        b"\xff\xfe<\x00a\x00 \x00h\x00r\x00e\x00f\x00=\x00\"\x00x\x00 \x00y\x00\"\x00>\x00",
        b"<meta charset=\"shift_jis\"><p>\x93\xfa<a href=\"http://e/?q=\x93\xfa\x96{\">",
        b"<p>\xab<a href=\" http://e/a b \">",
        b"<a href=x href=y src='\xe6\x97\xa5'>",
    ];
    for data in html {
        same_whatever_the_cuts(Format::Html, data);
    }
    // A <meta> past the prescan's 1,024 bytes: the document is read again
    // in the encoding it names, whatever the pieces; a replacement label.
    let mut late = b"<a href=\"http://e/\xef\"><!--".to_vec();
    late.resize(late.len() + 1030, b'x');
    late.extend_from_slice(b"--><meta charset=windows-1251><a href=\"http://e/\xe6\">");
    same_whatever_the_cuts(Format::Html, &late);
    same_whatever_the_cuts(Format::Html, b"<meta charset=hz-gb-2312><a href=x>");
    let xml: &[&[u8]] = &[
        b"<?xml version=\"1.0\" encoding=\"EUC-JP\"?><r xmlns=\"http://e/\xc6\xfc\"/>",
        b"\xef\xbb\xbf<r xml:base=\"http://e/a/\"><a xml:base=\"b/\" xmlns:p=\"c\xff\"/></r>",
        b"<r xmlns:a=\"http://e/&amp;\xff\"/>",
    ];
    for data in xml {
        same_whatever_the_cuts(Format::Xml, data);
        same_whatever_the_cuts(Format::RdfXml, data);
    }
}
