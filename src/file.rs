//! File paths and `file:` IRIs (RFC 8089), both ways, for POSIX and
//! Windows paths.
//!
//! [`Iri::from_file_path`] and [`IriRef::to_file_path`] use the path style
//! of the host they run on; [`Iri::from_posix_path`],
//! [`Iri::from_windows_path`], [`IriRef::to_posix_path`] and
//! [`IriRef::to_windows_path`] take the style by name, so Windows paths
//! can be made and read anywhere. This module needs `std` (`Path`,
//! `OsStr`).
//!
//! # From a path
//!
//! - **POSIX**: an absolute path `/a b/c` is `file:///a%20b/c`: the empty
//!   authority and the path (RFC 8089 §2, `"//" auth-path`). The path's
//!   bytes that are not UTF-8 are percent-encoded one by one, and decoded
//!   back by `to_posix_path`.
//! - **Windows**: a drive letter `C:\a b\c` is `file:///C:/a%20b/c` (RFC
//!   8089 Appendix E.2); a UNC path `\\server\share\x` is
//!   `file://server/share/x`, the server as the host (E.3.1); the verbatim
//!   forms `\\?\C:\x` and `\\?\UNC\server\share\x` are the same IRIs as
//!   `C:\x` and `\\server\share\x`. Either slash separates. `.` and `..`
//!   are resolved as Win32 resolves them, by the text.
//! - **Names** keep their characters where an IRI path can: letters,
//!   digits, `-._~`, `!$&'()*+,;=:@`, and characters outside ASCII that
//!   are `ucschar` (3987bis §2.2). That is what makes it an IRI and not a
//!   URI: `/tmp/日本` is `file:///tmp/日本`. Everything else is
//!   percent-encoded as UTF-8: space, `%`, `#`, `?`, `\` on POSIX, the
//!   controls, and the bidi formatting characters (RFC 3987 §4.1).
//! - **Refused**: a relative path (`a/b`, and on Windows `C:a` and `\a`,
//!   which are relative to a drive's current directory) by the `Iri`
//!   constructors; [`IriRef::from_file_path`] makes a relative reference
//!   of it. `..` in an absolute POSIX path, which the system resolves
//!   through symbolic links and an IRI resolves by the text (RFC 3986
//!   §5.2.4); on Windows, device paths (`\\.\COM1`), a name Win32 would
//!   change (a trailing `.` or space) or read as a device (`NUL`,
//!   `COM1.txt`) outside a verbatim path, and verbatim paths other than a
//!   drive or UNC.
//!
//! # To a path
//!
//! The IRI must have the scheme `file`; its empty host and `localhost`
//! (RFC 8089 §2) are the local machine. Another host is a UNC path on
//! Windows and refused on POSIX. `file:/x` (the `local-path` form) is
//! read as `file:///x`; `file:c:/x` and `file:////server/share/x`
//! (Appendix E.2 and E.3.2) are read on Windows too. A query is refused
//! (RFC 8089's grammar has none); a fragment names a part of the file and
//! is left aside. A percent-encoded `/` (`%2F`, and `%5C` on Windows) or
//! NUL in a segment is refused: no file name holds it. Dot segments are
//! removed first, as IRI resolution does (RFC 3986 §5.2.4). On Windows a
//! name that only a verbatim path reaches (a trailing `.` or space, a
//! device name) or a path of 260 characters or more gets the `\\?\`
//! prefix. The characters Windows refuses in a name (`<>:"|?*`) come
//! back as they are: the system refuses them where the path is used.
//!
//! ```
//! use iribis::Iri;
//!
//! let iri = Iri::from_windows_path(r"C:\Users\Zoë\a b.txt")?;
//! assert_eq!(iri, "file:///C:/Users/Zoë/a%20b.txt");
//! assert_eq!(iri.to_windows_path()?, r"C:\Users\Zoë\a b.txt");
//!
//! let unc = Iri::from_windows_path(r"\\server\share\x")?;
//! assert_eq!(unc, "file://server/share/x");
//! assert_eq!(unc.to_windows_path()?, r"\\server\share\x");
//!
//! let posix = Iri::from_posix_path(b"/tmp/caf\xE9/%")?;
//! assert_eq!(posix, "file:///tmp/caf%E9/%25");
//! assert_eq!(posix.to_posix_path()?, b"/tmp/caf\xE9/%");
//! # Ok::<(), iribis::file::FilePathError>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use crate::components::Component;
use crate::iri::{Iri, IriRef, Storage};
use crate::percent::allowed_in_normal_form;

/// Why a path has no `file:` IRI, or an IRI no path.
///
/// ```
/// use iribis::Iri;
/// use iribis::file::FilePathErrorKind;
///
/// let e = Iri::from_posix_path(b"a/b").unwrap_err();
/// assert_eq!(e.kind(), FilePathErrorKind::Relative);
/// assert_eq!(
///     e.to_string(),
///     "no file IRI for the path \"a/b\": it is relative, and a file IRI names an absolute path (RFC 8089 §2); make it absolute first (std::path::absolute), or make a relative reference of it (IriRef::from_file_path)"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePathError {
    subject: String,
    from_path: bool,
    kind: FilePathErrorKind,
}

/// What [`FilePathError`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FilePathErrorKind {
    /// A relative path, where a `file:` IRI needs an absolute one.
    Relative,
    /// The empty path, which names no file.
    Empty,
    /// A Windows path relative to a drive's current directory (`C:a`) or
    /// to the current drive (`\a`).
    DriveRelative,
    /// `..` in an absolute POSIX path.
    ParentInAbsolutePosixPath,
    /// A Windows path of a kind with no `file:` IRI: a device path
    /// (`\\.\`), a verbatim path that is neither a drive nor UNC, a UNC
    /// path without a server, a `/` inside a verbatim path.
    UnsupportedWindowsPath,
    /// A Windows name outside a verbatim path that Win32 would change (a
    /// trailing `.` or space) or read as a device (`NUL`, `COM1.txt`).
    WindowsNameChanged,
    /// A Windows path or file name that is not Unicode (an unpaired
    /// surrogate), or a decoded IRI path that is not UTF-8 for Windows.
    NotUnicode,
    /// The IRI's scheme is not `file`.
    NotFile,
    /// A host other than `localhost` for a POSIX path.
    RemoteHost,
    /// A userinfo or a port (RFC 8089 Appendix E.1 at most).
    UserinfoOrPort,
    /// A query, which RFC 8089's grammar does not have.
    Query,
    /// A percent-encoded separator (`%2F`; `%5C` on Windows) or NUL in a
    /// segment.
    EncodedSeparator,
    /// A Windows IRI path without a drive letter or UNC server.
    NoDrive,
    /// A `file:` IRI whose path does not start with `/` (`file:a`), for a
    /// POSIX path.
    Rootless,
    /// A relative reference with an authority, or whose path is absolute,
    /// for a relative path.
    NotRelativePath,
}

impl FilePathError {
    fn of_path(path: impl Into<String>, kind: FilePathErrorKind) -> Self {
        FilePathError {
            subject: path.into(),
            from_path: true,
            kind,
        }
    }

    fn of_iri(iri: &str, kind: FilePathErrorKind) -> Self {
        FilePathError {
            subject: iri.to_owned(),
            from_path: false,
            kind,
        }
    }

    /// What was found.
    pub fn kind(&self) -> FilePathErrorKind {
        self.kind
    }

    /// The path (lossily, for a POSIX path that is not UTF-8) or the IRI
    /// that was refused.
    pub fn subject(&self) -> &str {
        &self.subject
    }
}

impl fmt::Display for FilePathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FilePathErrorKind::*;
        if self.from_path {
            write!(f, "no file IRI for the path {:?}: ", self.subject)?;
        } else {
            write!(f, "no file path for {:?}: ", self.subject)?;
        }
        f.write_str(match self.kind {
            Relative => "it is relative, and a file IRI names an absolute path (RFC 8089 §2); make it absolute first (std::path::absolute), or make a relative reference of it (IriRef::from_file_path)",
            Empty => "the empty path names no file",
            Rootless => "its path does not start with '/' (RFC 8089 §2, path-absolute)",
            DriveRelative => "it is relative to the current directory of a drive (C:a) or to the current drive (\\a); make it absolute first (std::path::absolute)",
            ParentInAbsolutePosixPath => "it has a '..' segment, which POSIX resolves through symbolic links and an IRI by the text (RFC 3986 §5.2.4); canonicalize it first (std::fs::canonicalize)",
            UnsupportedWindowsPath => "a file IRI names a drive path (C:\\x) or a UNC path (\\\\server\\share\\x), verbatim (\\\\?\\) or not (RFC 8089 Appendix E.2, E.3); device paths (\\\\.\\) and other verbatim paths have none",
            WindowsNameChanged => "Win32 drops a name's trailing '.' or space and reads NUL, CON, AUX, PRN, COM1-9 and LPT1-9 as devices, so the IRI would name another file; write the name as Win32 reads it, or as a verbatim path (\\\\?\\C:\\...)",
            NotUnicode => "a Windows path is Unicode: this one is not (an unpaired surrogate, or percent-encoded octets that are not UTF-8)",
            NotFile => "its scheme is not file (RFC 8089 §2)",
            RemoteHost => "its host is another machine's (RFC 8089 §2: only an empty host or localhost is this one), which a POSIX path cannot name; on Windows it is a UNC path (to_windows_path)",
            UserinfoOrPort => "a file IRI has no userinfo or port (RFC 8089 §2)",
            Query => "a file IRI has no query (RFC 8089 §2)",
            EncodedSeparator => "a segment holds a percent-encoded '/' (%2F, or '\\' as %5C on Windows) or NUL (%00), which no file name holds",
            NoDrive => "a Windows path needs a drive letter (file:///C:/x) or a server (file://server/share/x) (RFC 8089 Appendix E.2, E.3)",
            NotRelativePath => "a relative reference makes a relative path only when it has no authority and its path starts neither with '/' nor, for Windows, with a drive (c:)",
        })
    }
}

impl std::error::Error for FilePathError {}

/// Appends `name`, one segment of a path, to an IRI path: the characters
/// an IRI path may hold unencoded (3987bis §2.2 `ipchar`, but the bidi
/// formatting characters, RFC 3987 §4.1) as they are, the rest
/// percent-encoded, and octets that are not UTF-8 one by one. With
/// `colon`, a `:` is encoded too (the first segment of a relative
/// reference, RFC 3986 §4.2).
fn push_name(out: &mut String, name: &[u8], colon: bool) {
    for chunk in name.utf8_chunks() {
        for c in chunk.valid().chars() {
            let keep = if c.is_ascii() {
                c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=@".contains(c) || (c == ':' && !colon)
            } else {
                allowed_in_normal_form(c, Component::Path)
            };
            if keep {
                out.push(c);
            } else {
                push_encoded(out, c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        }
        push_encoded(out, chunk.invalid());
    }
}

/// Appends a UNC server name as an `ireg-name`: as [`push_name`] without
/// `:` and `@`, which a host does not hold.
fn push_server(out: &mut String, server: &str) {
    for c in server.chars() {
        let keep = if c.is_ascii() {
            c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c)
        } else {
            allowed_in_normal_form(c, Component::Host)
        };
        if keep {
            out.push(c);
        } else {
            push_encoded(out, c.encode_utf8(&mut [0; 4]).as_bytes());
        }
    }
}

fn push_encoded(out: &mut String, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in bytes {
        out.push('%');
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
}

/// The parsed IRI of text this module built.
fn built(text: String) -> IriRef<String> {
    match IriRef::try_from(text) {
        Ok(r) => r,
        Err(e) => unreachable!("a file IRI built from a path parses: {e}"),
    }
}

/// A POSIX path's IRI text: `file://` and the path for an absolute one,
/// the path alone for a relative one.
fn posix_text(path: &[u8], relative: bool) -> Result<String, FilePathError> {
    let lossy = || String::from_utf8_lossy(path).into_owned();
    if path.is_empty() {
        return Err(FilePathError::of_path("", FilePathErrorKind::Empty));
    }
    let absolute = path.first() == Some(&b'/');
    if absolute == relative {
        return Err(FilePathError::of_path(
            lossy(),
            if relative {
                FilePathErrorKind::NotRelativePath
            } else {
                FilePathErrorKind::Relative
            },
        ));
    }
    let mut out = String::with_capacity(path.len() + 8);
    if absolute {
        out.push_str("file://");
    }
    // `/a/./b` is `/a/b`, and `/a/.` the directory `/a/`.
    let segments: Vec<&[u8]> = path.split(|&b| b == b'/').collect();
    let last = segments.len() - 1;
    let mut kept: Vec<&[u8]> = Vec::with_capacity(segments.len());
    for (i, segment) in segments.into_iter().enumerate() {
        match segment {
            b"." if absolute => {
                if i == last {
                    kept.push(b"");
                }
            }
            b".." if absolute => {
                return Err(FilePathError::of_path(
                    lossy(),
                    FilePathErrorKind::ParentInAbsolutePosixPath,
                ));
            }
            _ => kept.push(segment),
        }
    }
    for (i, segment) in kept.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        push_name(&mut out, segment, relative && i == 0);
    }
    Ok(out)
}

/// The devices Win32 reads a name as, whatever its extension.
fn is_dos_device(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    matches!(upper.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (upper.len() == 4
            && (upper.starts_with("COM") || upper.starts_with("LPT"))
            && upper.as_bytes()[3].is_ascii_digit()
            && upper.as_bytes()[3] != b'0')
}

/// Whether `s` is a drive letter and its colon.
fn is_drive(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 2 && b[0].is_ascii_alphabetic() && b[1] == b':'
}

/// A Windows path's IRI text.
fn windows_text(path: &str, relative: bool) -> Result<String, FilePathError> {
    let err = |kind| FilePathError::of_path(path, kind);
    if path.is_empty() {
        return Err(err(FilePathErrorKind::Empty));
    }
    let is_sep = |c: char| c == '\\' || c == '/';
    // The root: a drive, a UNC server and share, or none; whether the rest
    // is verbatim.
    let (root, rest, verbatim): (Option<Root<'_>>, &str, bool) = if let Some(v) =
        path.strip_prefix(r"\\?\")
    {
        if let Some(unc) = v.strip_prefix(r"UNC\") {
            let (server, rest) = unc.split_once('\\').unwrap_or((unc, ""));
            (Some(Root::Unc(server)), rest, true)
        } else if v.len() >= 2 && is_drive(&v[..2]) && (v.len() == 2 || v[2..].starts_with('\\')) {
            (
                Some(Root::Drive(&v[..2])),
                v[2..].trim_start_matches('\\'),
                true,
            )
        } else {
            return Err(err(FilePathErrorKind::UnsupportedWindowsPath));
        }
    } else if path.starts_with(r"\\.\") || path.starts_with("//./") || path.starts_with(r"\??\") {
        return Err(err(FilePathErrorKind::UnsupportedWindowsPath));
    } else if path.len() >= 2 && path.chars().take(2).all(is_sep) {
        let unc = &path[2..];
        let end = unc.find(is_sep).unwrap_or(unc.len());
        let rest = unc[end..].strip_prefix(is_sep).unwrap_or("");
        (Some(Root::Unc(&unc[..end])), rest, false)
    } else if path.len() >= 2 && path.is_char_boundary(2) && is_drive(&path[..2]) {
        if !path[2..].starts_with(is_sep) {
            return Err(err(FilePathErrorKind::DriveRelative));
        }
        (
            Some(Root::Drive(&path[..2])),
            path[3..].trim_start_matches(is_sep),
            false,
        )
    } else if path.starts_with(is_sep) {
        return Err(err(FilePathErrorKind::DriveRelative));
    } else {
        (None, path, false)
    };
    match (&root, relative) {
        (None, false) => return Err(err(FilePathErrorKind::Relative)),
        (Some(_), true) => return Err(err(FilePathErrorKind::NotRelativePath)),
        (Some(Root::Unc("")), _) => return Err(err(FilePathErrorKind::UnsupportedWindowsPath)),
        _ => {}
    }
    if verbatim && rest.contains('/') {
        return Err(err(FilePathErrorKind::UnsupportedWindowsPath));
    }
    // The names, `.` and `..` resolved by the text as Win32 does (never
    // above the root), except in a relative path, where they stay for
    // resolution against a base.
    let names: Vec<&str> = if rest.is_empty() {
        Vec::new()
    } else if verbatim {
        rest.split('\\').collect()
    } else {
        rest.split(is_sep).collect()
    };
    let mut kept: Vec<&str> = Vec::with_capacity(names.len());
    let last = names.len().saturating_sub(1);
    for (i, name) in names.iter().copied().enumerate() {
        if root.is_some() && !verbatim && (name == "." || name == "..") {
            if name == ".." {
                kept.pop();
            }
            // The directory itself: a trailing separator.
            if i == last {
                kept.push("");
            }
            continue;
        }
        // Win32 reads `a\\b` as `a\b`; a trailing separator stays.
        if name.is_empty() && !verbatim && i != last {
            continue;
        }
        if verbatim && (name == "." || name == "..") {
            return Err(err(FilePathErrorKind::UnsupportedWindowsPath));
        }
        let changed =
            name != "." && name != ".." && (name.ends_with(['.', ' ']) || is_dos_device(name));
        if !verbatim && changed && !name.is_empty() {
            return Err(err(FilePathErrorKind::WindowsNameChanged));
        }
        kept.push(name);
    }
    let mut out = String::with_capacity(path.len() + 8);
    match root {
        Some(Root::Drive(d)) => {
            out.push_str("file:///");
            out.push_str(d);
            out.push('/');
        }
        Some(Root::Unc(server)) => {
            out.push_str("file://");
            push_server(&mut out, server);
            out.push('/');
        }
        None => {}
    }
    for (i, name) in kept.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        push_name(&mut out, name.as_bytes(), relative && i == 0);
    }
    Ok(out)
}

enum Root<'a> {
    Drive(&'a str),
    Unc(&'a str),
}

/// The bytes of a host path, in the host's style.
fn host_path(path: &Path, relative: bool) -> Result<String, FilePathError> {
    #[cfg(windows)]
    {
        let Some(text) = path.to_str() else {
            return Err(FilePathError::of_path(
                path.to_string_lossy(),
                FilePathErrorKind::NotUnicode,
            ));
        };
        windows_text(text, relative)
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        posix_text(path.as_os_str().as_bytes(), relative)
    }
    #[cfg(not(any(unix, windows)))]
    {
        posix_text(path.as_os_str().as_encoded_bytes(), relative)
    }
}

impl Iri<String> {
    /// The `file:` IRI of an absolute path, in the style of the host it
    /// runs on ([`Iri::from_posix_path`] on Unix, [`Iri::from_windows_path`]
    /// on Windows); see [`crate::file`].
    ///
    /// ```
    /// # #[cfg(unix)]
    /// # {
    /// use iribis::Iri;
    ///
    /// let iri = Iri::from_file_path("/home/zoë/notes #1.txt")?;
    /// assert_eq!(iri, "file:///home/zoë/notes%20%231.txt");
    /// assert!(Iri::from_file_path("notes.txt").is_err());
    /// # }
    /// # Ok::<(), iribis::file::FilePathError>(())
    /// ```
    pub fn from_file_path(path: impl AsRef<Path>) -> Result<Self, FilePathError> {
        host_path(path.as_ref(), false).map(|t| Iri::from_ref(built(t)))
    }

    /// As [`Iri::from_file_path`], for a directory: the IRI ends with `/`,
    /// so that references resolve inside it (RFC 3986 §5.2.3).
    ///
    /// ```
    /// # #[cfg(unix)]
    /// # {
    /// use iribis::{Iri, IriRef};
    ///
    /// let dir = Iri::from_directory_path("/srv/www")?;
    /// assert_eq!(dir, "file:///srv/www/");
    /// let page = dir.resolve(&IriRef::parse("index.html").unwrap());
    /// assert_eq!(page, "file:///srv/www/index.html");
    /// # }
    /// # Ok::<(), iribis::file::FilePathError>(())
    /// ```
    pub fn from_directory_path(path: impl AsRef<Path>) -> Result<Self, FilePathError> {
        let mut text = host_path(path.as_ref(), false)?;
        if !text.ends_with('/') {
            text.push('/');
        }
        Ok(Iri::from_ref(built(text)))
    }

    /// The `file:` IRI of an absolute POSIX path, given as its bytes (which
    /// need not be UTF-8).
    ///
    /// ```
    /// use iribis::Iri;
    ///
    /// assert_eq!(Iri::from_posix_path(b"/a/./b/")?, "file:///a/b/");
    /// assert_eq!(Iri::from_posix_path(b"/x\\y?\xE2\x80\xAE")?, "file:///x%5Cy%3F%E2%80%AE");
    /// assert!(Iri::from_posix_path(b"/a/../b").is_err());
    /// # Ok::<(), iribis::file::FilePathError>(())
    /// ```
    pub fn from_posix_path(path: &[u8]) -> Result<Self, FilePathError> {
        posix_text(path, false).map(|t| Iri::from_ref(built(t)))
    }

    /// The `file:` IRI of an absolute Windows path: a drive path, a UNC
    /// path, or either as a verbatim path.
    ///
    /// ```
    /// use iribis::Iri;
    ///
    /// assert_eq!(Iri::from_windows_path(r"\\?\C:\Windows\System")?, "file:///C:/Windows/System");
    /// assert_eq!(Iri::from_windows_path(r"\\?\UNC\srv\share\a")?, "file://srv/share/a");
    /// assert_eq!(Iri::from_windows_path(r"D:/a\b\..\c")?, "file:///D:/a/c");
    /// assert!(Iri::from_windows_path(r"C:relative").is_err());
    /// # Ok::<(), iribis::file::FilePathError>(())
    /// ```
    pub fn from_windows_path(path: &str) -> Result<Self, FilePathError> {
        windows_text(path, false).map(|t| Iri::from_ref(built(t)))
    }
}

impl IriRef<String> {
    /// A path of the host's style as a reference: a `file:` IRI for an
    /// absolute path ([`Iri::from_file_path`]), a relative reference for a
    /// relative one, its `.` and `..` kept for resolution and a `:` of its
    /// first segment percent-encoded (RFC 3986 §4.2).
    ///
    /// ```
    /// # #[cfg(unix)]
    /// # {
    /// use iribis::IriRef;
    ///
    /// assert_eq!(IriRef::from_file_path("../a b/c")?, "../a%20b/c");
    /// assert_eq!(IriRef::from_file_path("a:b")?, "a%3Ab");
    /// assert_eq!(IriRef::from_file_path("/a:b")?, "file:///a:b");
    /// # }
    /// # Ok::<(), iribis::file::FilePathError>(())
    /// ```
    pub fn from_file_path(path: impl AsRef<Path>) -> Result<Self, FilePathError> {
        let path = path.as_ref();
        match host_path(path, false) {
            Err(e) if e.kind == FilePathErrorKind::Relative => host_path(path, true).map(built),
            other => other.map(built),
        }
    }

    /// As [`IriRef::from_file_path`], for a POSIX path.
    pub fn from_posix_path(path: &[u8]) -> Result<Self, FilePathError> {
        posix_text(path, path.first() != Some(&b'/')).map(built)
    }

    /// As [`IriRef::from_file_path`], for a Windows path. A path relative
    /// to a drive (`C:a`, `\a`) is refused.
    ///
    /// ```
    /// use iribis::IriRef;
    ///
    /// assert_eq!(IriRef::from_windows_path(r"..\a b\c")?, "../a%20b/c");
    /// assert!(IriRef::from_windows_path(r"\a").is_err());
    /// # Ok::<(), iribis::file::FilePathError>(())
    /// ```
    pub fn from_windows_path(path: &str) -> Result<Self, FilePathError> {
        match windows_text(path, false) {
            Err(e) if e.kind == FilePathErrorKind::Relative => windows_text(path, true).map(built),
            other => other.map(built),
        }
    }
}

/// An IRI's path read for a file path: the host (`None` for the local
/// machine) and the decoded segments, dot segments removed.
struct Read {
    host: Option<String>,
    segments: Vec<Vec<u8>>,
    absolute: bool,
}

fn decode_segment(segment: &str, windows: bool) -> Option<Vec<u8>> {
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(segment).collect();
    if bytes.contains(&b'/') || bytes.contains(&0) || (windows && bytes.contains(&b'\\')) {
        return None;
    }
    Some(bytes)
}

fn read<T: Storage>(r: &IriRef<T>, windows: bool) -> Result<Read, FilePathError> {
    let text = r.as_str();
    let err = |kind| FilePathError::of_iri(text, kind);
    if r.query().is_some() {
        return Err(err(FilePathErrorKind::Query));
    }
    if r.userinfo().is_some() || r.port().is_some() {
        return Err(err(FilePathErrorKind::UserinfoOrPort));
    }
    let path = r.path();
    let absolute = match r.scheme() {
        Some(s) if s.eq_ignore_ascii_case("file") => true,
        Some(_) => return Err(err(FilePathErrorKind::NotFile)),
        None if r.authority().is_some() || path.starts_with('/') => {
            return Err(err(FilePathErrorKind::NotRelativePath));
        }
        None => false,
    };
    let host = match r.host_str() {
        None | Some("") => None,
        Some(h) if h.eq_ignore_ascii_case("localhost") => None,
        Some(h) => Some(
            String::from_utf8(percent_encoding::percent_decode_str(h).collect())
                .map_err(|_| err(FilePathErrorKind::NotUnicode))?,
        ),
    };
    // The segments after the root's '/', dot segments removed in an IRI
    // (RFC 3986 §5.2.4), kept in a relative reference.
    let body = if absolute {
        path.strip_prefix('/').unwrap_or(path)
    } else {
        path
    };
    let parts: Vec<&str> = body.split('/').collect();
    let last = parts.len() - 1;
    let mut segments: Vec<Vec<u8>> = Vec::with_capacity(parts.len());
    for (i, part) in parts.iter().enumerate() {
        if absolute && (*part == "." || *part == "..") {
            if *part == ".." {
                segments.pop();
            }
            if i == last {
                segments.push(Vec::new());
            }
            continue;
        }
        segments.push(
            decode_segment(part, windows)
                .ok_or_else(|| err(FilePathErrorKind::EncodedSeparator))?,
        );
    }
    Ok(Read {
        host,
        segments,
        absolute,
    })
}

/// Whether a Windows path needs the verbatim prefix to reach the file its
/// IRI names: a name Win32 would change, or MAX_PATH (260) reached.
fn needs_verbatim(names: &[String], len: usize) -> bool {
    len >= 260
        || names
            .iter()
            .any(|n| !n.is_empty() && (n.ends_with(['.', ' ']) || is_dos_device(n)))
}

impl<T: Storage> IriRef<T> {
    /// The file path of a `file:` IRI (or of a relative reference, as a
    /// relative path), in the style of the host it runs on
    /// ([`IriRef::to_posix_path`] on Unix, [`IriRef::to_windows_path`] on
    /// Windows); see [`crate::file`].
    ///
    /// ```
    /// # #[cfg(unix)]
    /// # {
    /// use std::path::Path;
    /// use iribis::IriRef;
    ///
    /// let r = IriRef::parse("file://localhost/tmp/a%20b#part")?;
    /// assert_eq!(r.to_file_path().unwrap(), Path::new("/tmp/a b"));
    /// assert!(IriRef::parse("file://server/x")?.to_file_path().is_err());
    /// # }
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn to_file_path(&self) -> Result<PathBuf, FilePathError> {
        #[cfg(windows)]
        {
            self.to_windows_path().map(PathBuf::from)
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            self.to_posix_path()
                .map(|b| PathBuf::from(std::ffi::OsString::from_vec(b)))
        }
        #[cfg(not(any(unix, windows)))]
        {
            let bytes = self.to_posix_path()?;
            String::from_utf8(bytes)
                .map(PathBuf::from)
                .map_err(|_| FilePathError::of_iri(self.as_str(), FilePathErrorKind::NotUnicode))
        }
    }

    /// The POSIX path of a `file:` IRI, as bytes (decoded octets need not
    /// be UTF-8), or the relative path of a relative reference.
    ///
    /// ```
    /// use iribis::IriRef;
    ///
    /// assert_eq!(IriRef::parse("file:/a/caf%E9")?.to_posix_path().unwrap(), b"/a/caf\xE9");
    /// assert_eq!(IriRef::parse("file:///a/b/../c/")?.to_posix_path().unwrap(), b"/a/c/");
    /// assert!(IriRef::parse("file:///a%2Fb")?.to_posix_path().is_err());
    /// assert!(IriRef::parse("file:///a?q")?.to_posix_path().is_err());
    /// # Ok::<(), iribis::ParseError>(())
    /// ```
    pub fn to_posix_path(&self) -> Result<Vec<u8>, FilePathError> {
        let read = read(self, false)?;
        if read.host.is_some() {
            return Err(FilePathError::of_iri(
                self.as_str(),
                FilePathErrorKind::RemoteHost,
            ));
        }
        if read.absolute && self.authority().is_none() && !self.path().starts_with('/') {
            // `file:a`: no root.
            return Err(FilePathError::of_iri(
                self.as_str(),
                FilePathErrorKind::Rootless,
            ));
        }
        let mut out = Vec::new();
        for (i, s) in read.segments.iter().enumerate() {
            if i > 0 || read.absolute {
                out.push(b'/');
            }
            out.extend_from_slice(s);
        }
        Ok(out)
    }

    /// The Windows path of a `file:` IRI: a drive path for `file:///C:/x`
    /// (also `file:/C:/x`, `file:C:/x` and `file://localhost/C:/x`), a UNC
    /// path for `file://server/share/x` (also `file:////server/share/x`);
    /// or the relative path of a relative reference.
    ///
    /// ```
    /// use iribis::IriRef;
    ///
    /// let w = |s| IriRef::parse(s).unwrap().to_windows_path();
    /// assert_eq!(w("file:///c%3A/foo/bar").unwrap(), r"c:\foo\bar");
    /// assert_eq!(w("file:c:/path/to/file").unwrap(), r"c:\path\to\file");
    /// assert_eq!(w("file:////host.example.com/path/to/file").unwrap(), r"\\host.example.com\path\to\file");
    /// assert_eq!(w("file:///C:/a./NUL").unwrap(), r"\\?\C:\a.\NUL");
    /// assert!(w("file:///no/drive").is_err());
    /// ```
    pub fn to_windows_path(&self) -> Result<String, FilePathError> {
        let text = self.as_str();
        let err = |kind| FilePathError::of_iri(text, kind);
        let mut read = read(self, true)?;
        let names: Vec<String> = std::mem::take(&mut read.segments)
            .into_iter()
            .map(String::from_utf8)
            .collect::<Result<_, _>>()
            .map_err(|_| err(FilePathErrorKind::NotUnicode))?;
        if !read.absolute {
            // `c%3Ax` would come back as `c:x`, relative to a drive.
            if names
                .first()
                .is_some_and(|n| n.len() >= 2 && n.is_char_boundary(2) && is_drive(&n[..2]))
            {
                return Err(err(FilePathErrorKind::NotRelativePath));
            }
            return Ok(names.join("\\"));
        }
        // The root: a server (the host, or E.3.2's `file:////server/...`)
        // or a drive letter as the first segment.
        let (prefix, names): (String, &[String]) = if let Some(host) = read.host.take() {
            (format!(r"\\{host}"), &names[..])
        } else if self.path().starts_with("//") {
            let rest: &[String] = &names[..];
            let skip = rest.iter().take_while(|n| n.is_empty()).count();
            match rest.get(skip) {
                Some(server) if !server.is_empty() => (format!(r"\\{server}"), &rest[skip + 1..]),
                _ => return Err(err(FilePathErrorKind::NoDrive)),
            }
        } else {
            match names.first() {
                Some(d) if is_drive(d) => (d.clone(), &names[1..]),
                _ => return Err(err(FilePathErrorKind::NoDrive)),
            }
        };
        let mut path = prefix;
        if names.is_empty() {
            path.push('\\');
        }
        for n in names {
            path.push('\\');
            path.push_str(n);
        }
        if needs_verbatim(names, path.chars().count()) {
            path = match path.strip_prefix(r"\\") {
                Some(unc) => format!(r"\\?\UNC\{unc}"),
                None => format!(r"\\?\{path}"),
            };
        }
        Ok(path)
    }
}
