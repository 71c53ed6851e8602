//! The grammar profiles.

use crate::prelude::*;
use core::fmt;
use core::str::FromStr;

/// Which grammar a parse follows.
///
/// Each profile is a pest grammar in `grammar/` (see `grammar/README.md`):
/// the IRI profiles share `rfc3986.pest` and `iri.pest` and differ only in
/// their character sets.
///
/// ```
/// use iribis::{IriRef, ParseOptions, Profile};
///
/// let tag_char = "http://example.org/?\u{E0041}";
/// assert!(IriRef::parse(tag_char).is_ok()); // rfc3987bis: tag range in iprivate
/// let rfc3987 = ParseOptions::new().profile(Profile::Rfc3987);
/// assert!(IriRef::parse_with(tag_char, &rfc3987).is_err());
/// assert_eq!("leiri".parse::<Profile>(), Ok(Profile::Leiri));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Profile {
    /// draft-ietf-iri-3987bis-13 §2.2, with the ireg-name erratum (the default).
    #[default]
    Rfc3987bis,
    /// RFC 3987 §2.2: as `Rfc3987bis`, but `iprivate` lacks the tag range
    /// U+E0000..U+E0FFF.
    Rfc3987,
    /// RFC 3986: URIs, ASCII only. The IRI start rules map to their URI
    /// counterparts (`IRI-reference` to `URI-reference`, and so on).
    Rfc3986,
    /// draft-ietf-iri-3987bis-13 §6.1: Legacy Extended IRIs, `ucschar`
    /// replaced by `leiri-ucschar` (spaces, controls, `<>"{}|\^``, ...).
    Leiri,
}

impl Profile {
    /// Every profile, default first.
    pub const ALL: [Profile; 4] = [
        Profile::Rfc3987bis,
        Profile::Rfc3987,
        Profile::Rfc3986,
        Profile::Leiri,
    ];

    /// The profile's name on the command line: `rfc3987bis`, `rfc3987`,
    /// `rfc3986` or `leiri`.
    ///
    /// ```
    /// assert_eq!(iribis::Profile::Rfc3986.name(), "rfc3986");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc3987bis => "rfc3987bis",
            Profile::Rfc3987 => "rfc3987",
            Profile::Rfc3986 => "rfc3986",
            Profile::Leiri => "leiri",
        }
    }

    /// Whether the profile is one of the IRI grammars (all but `Rfc3986`).
    pub(crate) fn is_iri(self) -> bool {
        self != Profile::Rfc3986
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of the `FromStr` impls of the crate's named values
/// ([`Profile`], [`crate::normalize::Level`], [`crate::check::Preset`]): the name is none of
/// them.
///
/// ```
/// use iribis::Profile;
/// use iribis::normalize::Level;
///
/// let err = "rfc3988".parse::<Profile>().unwrap_err();
/// assert_eq!(err.name(), "rfc3988");
/// assert_eq!(err.expected(), ["rfc3987bis", "rfc3987", "rfc3986", "leiri"]);
/// assert_eq!(err.to_string(), r#"unknown profile "rfc3988": expected rfc3987bis, rfc3987, rfc3986 or leiri"#);
/// let err = "exact".parse::<Level>().unwrap_err();
/// assert_eq!(err.to_string(), r#"unknown normalization level "exact": expected simple, syntax or scheme"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    what: &'static str,
    name: String,
    expected: &'static [&'static str],
    /// For a list too long to print: what to write when no name is close.
    hint: Option<&'static str>,
}

impl UnknownName {
    /// `name` is not one of the `expected` names of `what`.
    pub fn new(what: &'static str, name: &str, expected: &'static [&'static str]) -> Self {
        UnknownName {
            what,
            name: name.to_owned(),
            expected,
            hint: None,
        }
    }

    /// `name` is not one of the `expected` names of `what`, a list too long
    /// to print: the message names the [closest](UnknownName::suggestions)
    /// instead, or gives `hint` when none is close.
    ///
    /// ```
    /// use iribis::UnknownName;
    ///
    /// let names = &["DOT_SEGMENT", "DEFAULT_PORT", "EMPTY_HOST"];
    /// let err = UnknownName::among("code", "DOT_SEGMNT", names, "see `iri check --explain`");
    /// assert_eq!(err.to_string(), r#"unknown code "DOT_SEGMNT": did you mean DOT_SEGMENT?"#);
    /// let err = UnknownName::among("code", "X", names, "see `iri check --explain`");
    /// assert_eq!(err.to_string(), r#"unknown code "X": see `iri check --explain`"#);
    /// ```
    pub fn among(
        what: &'static str,
        name: &str,
        expected: &'static [&'static str],
        hint: &'static str,
    ) -> Self {
        UnknownName {
            hint: Some(hint),
            ..UnknownName::new(what, name, expected)
        }
    }

    /// The name that was given.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The names there are.
    pub fn expected(&self) -> &'static [&'static str] {
        self.expected
    }

    /// The expected names closest to the one given, closest first, at most
    /// three: those within an edit distance of a third of its length (at
    /// least 2), ignoring ASCII case and `-` against `_`.
    ///
    /// ```
    /// let err = "rfc3968".parse::<iribis::Profile>().unwrap_err();
    /// assert_eq!(err.suggestions(), ["rfc3987", "rfc3986"]);
    /// ```
    pub fn suggestions(&self) -> Vec<&'static str> {
        let key = |s: &str| -> Vec<char> {
            s.chars()
                .map(|c| {
                    if c == '-' {
                        '_'
                    } else {
                        c.to_ascii_lowercase()
                    }
                })
                .collect()
        };
        let want = key(&self.name);
        // Names are short: a much longer one is no typo of any, and is not
        // compared (the distance takes the product of the lengths).
        if want.len() > 256 {
            return Vec::new();
        }
        let limit = (want.len() / 3).max(2);
        let mut close: Vec<(usize, usize, &'static str)> = self
            .expected
            .iter()
            .enumerate()
            .map(|(i, &name)| (edit_distance(&key(name), &want), i, name))
            .filter(|&(d, _, _)| d <= limit)
            .collect();
        close.sort_unstable();
        close.into_iter().take(3).map(|(_, _, name)| name).collect()
    }
}

/// The Levenshtein distance between `a` and `b`: the fewest insertions,
/// deletions and substitutions of characters that turn one into the other.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// `names` joined as a sentence lists them: `a, b or c`.
fn write_list(f: &mut fmt::Formatter<'_>, names: &[&str]) -> fmt::Result {
    for (i, name) in names.iter().enumerate() {
        let sep = match i {
            0 => "",
            i if i + 1 == names.len() => " or ",
            _ => ", ",
        };
        write!(f, "{sep}{name}")?;
    }
    Ok(())
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}: ", self.what, self.name)?;
        let Some(hint) = self.hint else {
            f.write_str("expected ")?;
            return write_list(f, self.expected);
        };
        match self.suggestions() {
            close if close.is_empty() => f.write_str(hint),
            close => {
                f.write_str("did you mean ")?;
                write_list(f, &close)?;
                f.write_str("?")
            }
        }
    }
}

impl core::error::Error for UnknownName {}

impl FromStr for Profile {
    type Err = UnknownName;

    /// A profile by its [`Profile::name`], in any case.
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                UnknownName::new("profile", s, &["rfc3987bis", "rfc3987", "rfc3986", "leiri"])
            })
    }
}
