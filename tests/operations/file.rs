//! File paths and `file:` IRIs (RFC 8089): its §2 forms and Appendix E's,
//! both path styles, the inputs of the reports where rust-url and Node got
//! it wrong, and round trips over generated paths.

use iribis::file::FilePathErrorKind as K;
use iribis::{Iri, IriRef, ParseOptions, Profile};
use proptest::prelude::*;

fn posix(iri: &str) -> Result<Vec<u8>, K> {
    IriRef::parse(iri)
        .unwrap()
        .to_posix_path()
        .map_err(|e| e.kind())
}

fn windows(iri: &str) -> Result<String, K> {
    IriRef::parse(iri)
        .unwrap()
        .to_windows_path()
        .map_err(|e| e.kind())
}

fn from_windows(path: &str) -> Result<String, K> {
    Iri::from_windows_path(path)
        .map(Iri::into_string)
        .map_err(|e| e.kind())
}

fn from_posix(path: &[u8]) -> Result<String, K> {
    Iri::from_posix_path(path)
        .map(Iri::into_string)
        .map_err(|e| e.kind())
}

/// RFC 8089 §2: `file-hier-part = ( "//" auth-path ) / local-path`,
/// `auth-path = [ file-auth ] path-absolute`, `file-auth = "localhost" /
/// host`; Appendix B's examples.
#[test]
fn rfc8089_section_2_forms() {
    for iri in [
        "file:///path/to/file",
        "file:/path/to/file",
        "file://localhost/path/to/file",
        "file://LOCALHOST/path/to/file",
    ] {
        assert_eq!(posix(iri).unwrap(), b"/path/to/file", "{iri}");
    }
    // Another host: a UNC path on Windows, no POSIX path.
    assert_eq!(
        posix("file://host.example.com/path/to/file"),
        Err(K::RemoteHost)
    );
    assert_eq!(
        windows("file://host.example.com/path/to/file").unwrap(),
        r"\\host.example.com\path\to\file"
    );
    // Every path made is of the first form, and parses as an IRI.
    assert_eq!(
        from_posix(b"/path/to/file").unwrap(),
        "file:///path/to/file"
    );
    // No userinfo or port (E.1 is non-standard), no query.
    assert_eq!(posix("file://user@host/x"), Err(K::UserinfoOrPort));
    assert_eq!(posix("file://localhost:1/x"), Err(K::UserinfoOrPort));
    assert_eq!(posix("file:///x?q"), Err(K::Query));
    // A fragment names a part of the file: the file is the same.
    assert_eq!(posix("file:///x#part").unwrap(), b"/x");
    assert_eq!(posix("http://h/x"), Err(K::NotFile));
    assert_eq!(posix("FILE:///x").unwrap(), b"/x");
    assert_eq!(posix("file:x"), Err(K::Rootless));
}

/// Appendix E.2 (drive letters) and E.3 (UNC strings).
#[test]
fn rfc8089_appendix_e_forms() {
    for iri in [
        "file:c:/path/to/file",
        "file:///c:/path/to/file",
        "file:/c:/path/to/file",
        "file://localhost/c:/path/to/file",
    ] {
        assert_eq!(windows(iri).unwrap(), r"c:\path\to\file", "{iri}");
    }
    // E.3.1: the server as the host.
    assert_eq!(
        windows("file://host.example.com/Share/path/to/file.txt").unwrap(),
        r"\\host.example.com\Share\path\to\file.txt"
    );
    assert_eq!(
        from_windows(r"\\host.example.com\Share\path\to\file.txt").unwrap(),
        "file://host.example.com/Share/path/to/file.txt"
    );
    // E.3.2: the UNC string in the path, with four or five slashes.
    for iri in [
        "file:////host.example.com/path/to/file",
        "file://///host.example.com/path/to/file",
    ] {
        assert_eq!(
            windows(iri).unwrap(),
            r"\\host.example.com\path\to\file",
            "{iri}"
        );
    }
    // Without a drive or a server there is no Windows path.
    assert_eq!(windows("file:///path/to/file"), Err(K::NoDrive));
    // The drive root, with or without its slash.
    assert_eq!(windows("file:///C:").unwrap(), r"C:\");
    assert_eq!(windows("file:///C:/").unwrap(), r"C:\");
    assert_eq!(from_windows(r"C:\").unwrap(), "file:///C:/");
}

/// Drive letters and spaces, both ways: `C:\a b\c` ↔ `file:///C:/a%20b/c`.
#[test]
fn windows_drive_paths() {
    assert_eq!(from_windows(r"C:\a b\c").unwrap(), "file:///C:/a%20b/c");
    assert_eq!(windows("file:///C:/a%20b/c").unwrap(), r"C:\a b\c");
    assert_eq!(from_windows("C:/a/b").unwrap(), "file:///C:/a/b");
    assert_eq!(from_windows(r"C:\a\\b\").unwrap(), "file:///C:/a/b/");
    // Relative to a drive: refused.
    assert_eq!(from_windows(r"C:a"), Err(K::DriveRelative));
    assert_eq!(from_windows("C:"), Err(K::DriveRelative));
    assert_eq!(from_windows(r"\a"), Err(K::DriveRelative));
    assert_eq!(from_windows(r"a\b"), Err(K::Relative));
    assert_eq!(from_windows(""), Err(K::Empty));
    // `.` and `..` as Win32 reads them, never above the root.
    assert_eq!(from_windows(r"C:\a\.\b\..\c").unwrap(), "file:///C:/a/c");
    assert_eq!(from_windows(r"C:\..\..\x").unwrap(), "file:///C:/x");
    assert_eq!(from_windows(r"C:\a\..").unwrap(), "file:///C:/");
    // Names Win32 would change or read as devices.
    assert_eq!(from_windows(r"C:\a.\b"), Err(K::WindowsNameChanged));
    assert_eq!(from_windows(r"C:\a \b"), Err(K::WindowsNameChanged));
    assert_eq!(from_windows(r"C:\x\NUL"), Err(K::WindowsNameChanged));
    assert_eq!(from_windows(r"C:\x\com1.txt"), Err(K::WindowsNameChanged));
    assert_eq!(from_windows(r"C:\x\COM0").unwrap(), "file:///C:/x/COM0");
    assert_eq!(
        from_windows(r"C:\x\CONSOLE").unwrap(),
        "file:///C:/x/CONSOLE"
    );
    // ...which a verbatim path reaches, and to_windows_path makes one for.
    assert_eq!(from_windows(r"\\?\C:\a.\NUL").unwrap(), "file:///C:/a./NUL");
    assert_eq!(windows("file:///C:/a./NUL").unwrap(), r"\\?\C:\a.\NUL");
    // A path of MAX_PATH characters or more: verbatim too.
    let long = format!("file:///C:/{}", "a".repeat(300));
    assert_eq!(
        windows(&long).unwrap(),
        format!(r"\\?\C:\{}", "a".repeat(300))
    );
    let long_unc = format!("file://srv/share/{}", "b".repeat(300));
    assert_eq!(
        windows(&long_unc).unwrap(),
        format!(r"\\?\UNC\srv\share\{}", "b".repeat(300))
    );
    // Device paths and other verbatim paths have no file IRI.
    for path in [
        r"\\.\COM1",
        r"\\.\C:\x",
        r"\\?\Volume{b75e2c83-0000-0000-0000-602f00000000}\x",
        r"\\?\C:\a/b",
        r"\\?\C:\a\..\b",
        r"\\\share",
    ] {
        assert_eq!(from_windows(path), Err(K::UnsupportedWindowsPath), "{path}");
    }
}

/// rust-url#450: a verbatim path through `Url::from_file_path` and back
/// lost its prefix. The prefix is Win32's, not the file's: the IRI is the
/// same as the plain path's, and the path comes back plain unless it
/// needs the prefix (as above).
#[test]
fn rust_url_450_verbatim_paths() {
    let iri = from_windows(r"\\?\C:\Windows\System").unwrap();
    assert_eq!(iri, "file:///C:/Windows/System");
    assert_eq!(iri, from_windows(r"C:\Windows\System").unwrap());
    assert_eq!(windows(&iri).unwrap(), r"C:\Windows\System");
    // The UNC paths of rust-url#284/#360: the server is the host.
    assert_eq!(
        from_windows(r"\\fileserver\share\foo\bar.txt").unwrap(),
        "file://fileserver/share/foo/bar.txt"
    );
    assert_eq!(
        windows("file://fileserver/share/foo/bar.txt").unwrap(),
        r"\\fileserver\share\foo\bar.txt"
    );
}

/// nodejs/node#34736 (UNC), #54261 (verbatim UNC) and #56262 (a UNC
/// current directory): the server is the host, never a path segment.
#[test]
fn node_unc_paths() {
    assert_eq!(
        from_windows(r"\\laptop\My Documents\FileSchemeURIs.doc").unwrap(),
        "file://laptop/My%20Documents/FileSchemeURIs.doc"
    );
    assert_eq!(
        windows("file://laptop/My%20Documents/FileSchemeURIs.doc").unwrap(),
        r"\\laptop\My Documents\FileSchemeURIs.doc"
    );
    assert_eq!(
        from_windows(r"\\?\UNC\server\share\folder\file.txt").unwrap(),
        "file://server/share/folder/file.txt"
    );
    assert_eq!(
        from_windows(r"\\strongman\c$\Users").unwrap(),
        "file://strongman/c$/Users"
    );
    assert_eq!(from_windows("//srv/share/x").unwrap(), "file://srv/share/x");
    // A server alone (Explorer lists its shares).
    assert_eq!(from_windows(r"\\server").unwrap(), "file://server/");
    assert_eq!(windows("file://server/").unwrap(), r"\\server\");
    // A server name that is not all ireg-name characters.
    assert_eq!(from_windows(r"\\a b\s").unwrap(), "file://a%20b/s");
    assert_eq!(windows("file://a%20b/s").unwrap(), r"\\a b\s");
}

/// rust-url#901: a backslash in a POSIX name is a character, not a
/// separator; rust-url#230: a percent-encoded drive colon; rust-url#461:
/// `%2F` is no name's.
#[test]
fn rust_url_encoding_cases() {
    assert_eq!(from_posix(br"/a/b/c\d").unwrap(), "file:///a/b/c%5Cd");
    assert_eq!(posix("file:///a/b/c%5Cd").unwrap(), br"/a/b/c\d");
    assert_eq!(windows("file:///c%3a/foo/bar").unwrap(), r"c:\foo\bar");
    assert_eq!(posix("file:///a%2Fb"), Err(K::EncodedSeparator));
    assert_eq!(posix("file:///a%2fb"), Err(K::EncodedSeparator));
    assert_eq!(windows("file:///C:/a%5Cb"), Err(K::EncodedSeparator));
    assert_eq!(posix("file:///a%00b"), Err(K::EncodedSeparator));
    // On POSIX %5C is a name's backslash.
    assert_eq!(posix("file:///a%5Cb").unwrap(), br"/a\b");
}

/// Names: IRI characters stay, the rest is encoded; `%` included.
#[test]
fn names() {
    assert_eq!(
        from_posix("/tmp/日本/Zoë".as_bytes()).unwrap(),
        "file:///tmp/日本/Zoë"
    );
    assert_eq!(
        from_posix(b"/100%/50%25").unwrap(),
        "file:///100%25/50%2525"
    );
    assert_eq!(posix("file:///100%25/50%2525").unwrap(), b"/100%/50%25");
    assert_eq!(from_posix(b"/a#b?c d").unwrap(), "file:///a%23b%3Fc%20d");
    assert_eq!(
        from_posix(b"/!$&'()*+,;=:@~").unwrap(),
        "file:///!$&'()*+,;=:@~"
    );
    // Bidi formatting characters (RFC 3987 §4.1), controls, DEL, and what
    // is not ucschar (U+FFFE, a private-use character) are encoded.
    assert_eq!(
        from_posix("/a\u{202E}b\u{200F}\t\x7F\u{FFFE}\u{E000}".as_bytes()).unwrap(),
        "file:///a%E2%80%AEb%E2%80%8F%09%7F%EF%BF%BE%EE%80%80"
    );
    // Not UTF-8: each octet, and back.
    assert_eq!(
        from_posix(b"/caf\xE9/\xFF\xFE").unwrap(),
        "file:///caf%E9/%FF%FE"
    );
    assert_eq!(
        posix("file:///caf%E9/%FF%FE").unwrap(),
        b"/caf\xE9/\xFF\xFE"
    );
    // Which Windows does not have.
    assert_eq!(windows("file:///C:/caf%E9"), Err(K::NotUnicode));
    // Dot segments: `.` goes, `..` is refused in an absolute POSIX path.
    assert_eq!(from_posix(b"/a/./b/.").unwrap(), "file:///a/b/");
    assert_eq!(from_posix(b"/a/../b"), Err(K::ParentInAbsolutePosixPath));
    assert_eq!(from_posix(b"a/b"), Err(K::Relative));
    assert_eq!(from_posix(b""), Err(K::Empty));
    // An IRI's dot segments are removed as resolution removes them.
    assert_eq!(posix("file:///a/b/../c").unwrap(), b"/a/c");
    assert_eq!(posix("file:///a/%2e%2e/c").unwrap(), b"/a/../c");
    // Empty segments stay (`//x` is implementation-defined in POSIX).
    assert_eq!(from_posix(b"//x//y").unwrap(), "file:////x//y");
    assert_eq!(posix("file:////x//y").unwrap(), b"//x//y");
}

#[test]
fn relative_references() {
    let rel = |p: &[u8]| IriRef::from_posix_path(p).map(IriRef::into_string);
    assert_eq!(rel(b"../a b/c").unwrap(), "../a%20b/c");
    assert_eq!(rel(b"a:b/c:d").unwrap(), "a%3Ab/c:d");
    assert_eq!(rel(b"./a/../b").unwrap(), "./a/../b");
    assert_eq!(rel(b"/abs").unwrap(), "file:///abs");
    let wrel = |p: &str| IriRef::from_windows_path(p).map(IriRef::into_string);
    assert_eq!(wrel(r"..\x\y").unwrap(), "../x/y");
    assert_eq!(wrel(r"C:\x").unwrap(), "file:///C:/x");
    assert_eq!(wrel(r"C:x").map_err(|e| e.kind()), Err(K::DriveRelative));
    // And back.
    let r = IriRef::parse("../a%20b/c").unwrap();
    assert_eq!(r.to_posix_path().unwrap(), b"../a b/c");
    assert_eq!(r.to_windows_path().unwrap(), r"..\a b\c");
    // A relative path on Windows that a drive would take.
    let e = IriRef::parse("c%3Ax")
        .unwrap()
        .to_windows_path()
        .unwrap_err();
    assert_eq!(e.kind(), K::NotRelativePath);
    for r in ["//h/x", "/x", "?q"] {
        assert!(IriRef::parse(r).unwrap().to_posix_path().is_err(), "{r}");
    }
}

#[test]
fn error_messages() {
    let e = Iri::from_posix_path(b"/a/../b").unwrap_err();
    assert_eq!(
        e.to_string(),
        "no file IRI for the path \"/a/../b\": it has a '..' segment, which POSIX resolves through symbolic links and an IRI by the text (RFC 3986 §5.2.4); canonicalize it first (std::fs::canonicalize)"
    );
    let e = IriRef::parse("file://srv/x")
        .unwrap()
        .to_posix_path()
        .unwrap_err();
    assert_eq!(e.subject(), "file://srv/x");
    assert!(e.to_string().starts_with(
        "no file path for \"file://srv/x\": its host is another machine's (RFC 8089 §2"
    ));
}

/// The host's own style, through `Path`.
#[cfg(unix)]
#[test]
fn host_paths() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    let path = Path::new(OsStr::from_bytes(b"/tmp/\xE9t\xE9/a b"));
    let iri = Iri::from_file_path(path).unwrap();
    assert_eq!(iri, "file:///tmp/%E9t%E9/a%20b");
    assert_eq!(iri.to_file_path().unwrap(), path);
    let dir = Iri::from_directory_path("/tmp").unwrap();
    assert_eq!(dir, "file:///tmp/");
    assert_eq!(Iri::from_directory_path("/tmp/").unwrap(), "file:///tmp/");
    assert_eq!(IriRef::from_file_path("src/lib.rs").unwrap(), "src/lib.rs");
    let e = Iri::from_file_path("src/lib.rs").unwrap_err();
    assert_eq!(e.kind(), K::Relative);
    // A LEIRI's path reads too.
    let leiri =
        IriRef::parse_with("file:///a b", &ParseOptions::new().profile(Profile::Leiri)).unwrap();
    assert_eq!(leiri.to_file_path().unwrap(), Path::new("/a b"));
}

fn posix_name() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            any::<u8>().prop_filter("not a separator or NUL", |b| *b != b'/' && *b != 0),
            prop::sample::select(b"%.:@#?\\ ".to_vec()),
        ],
        1..8,
    )
    .prop_filter("not a dot segment", |n| n != b"." && n != b"..")
}

fn windows_name() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 %#?:@!$&'()+,;=~\u{e9}\u{65e5}\u{202e}\u{1F600}-]{0,7}[a-zA-Z0-9_\u{e9}]"
        .prop_filter("not a device", |n| {
            let stem = n.split('.').next().unwrap().to_ascii_uppercase();
            !["CON", "PRN", "AUX", "NUL"].contains(&stem.as_str())
                && !(stem.len() == 4 && (stem.starts_with("COM") || stem.starts_with("LPT")))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any absolute POSIX path without dot segments comes back byte for
    /// byte, through an IRI that parses.
    #[test]
    fn posix_round_trip(names in prop::collection::vec(posix_name(), 0..5), dir in any::<bool>()) {
        let mut path = Vec::new();
        for n in &names {
            path.push(b'/');
            path.extend_from_slice(n);
        }
        if dir || names.is_empty() {
            path.push(b'/');
        }
        let iri = Iri::from_posix_path(&path).unwrap();
        prop_assert!(Iri::parse(iri.as_str()).is_ok());
        prop_assert_eq!(iri.to_posix_path().unwrap(), path);
    }

    /// Drive and UNC paths come back, with `\` separators.
    #[test]
    fn windows_round_trip(names in prop::collection::vec(windows_name(), 1..5), unc in any::<bool>()) {
        let root = if unc { r"\\server\share".to_owned() } else { "D:".to_owned() };
        let path = format!(r"{root}\{}", names.join(r"\"));
        let iri = Iri::from_windows_path(&path).unwrap();
        prop_assert!(Iri::parse(iri.as_str()).is_ok());
        prop_assert_eq!(iri.to_windows_path().unwrap(), path);
    }
}
