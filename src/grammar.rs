//! The grammar's own files, as this build of the library was made from them:
//! the pest transcription (`grammar/*.pest`) and the ABNF as printed
//! (`grammar/abnf/*.abnf`).
//!
//! The grammar lab reads and edits them, and a tool can print or diff them
//! without a copy of the repository.
//!
//! ```
//! use iribis::{grammar, Profile};
//!
//! let names: Vec<&str> = grammar::pest_files(Profile::Rfc3986).iter().map(|f| f.0).collect();
//! assert_eq!(names, ["grammar/rfc3986.pest"]);
//! assert!(grammar::abnf_file("3987bis.abnf").unwrap().contains("ireg-name"));
//! ```

use crate::Profile;

const RFC3986: (&str, &str) = (
    "grammar/rfc3986.pest",
    include_str!("../grammar/rfc3986.pest"),
);
const IRI: (&str, &str) = ("grammar/iri.pest", include_str!("../grammar/iri.pest"));

/// The pest files of `profile`'s grammar, in the order they are read, as
/// (path in the repository, text). The generated `whole-*.pest` wrappers
/// (`WHOLE_r = { SOI ~ r ~ EOI }` for each rule) are left out.
///
/// ```
/// let files = iribis::grammar::pest_files(iribis::Profile::Leiri);
/// assert_eq!(files.last().unwrap().0, "grammar/ucschar-leiri.pest");
/// ```
pub fn pest_files(profile: Profile) -> &'static [(&'static str, &'static str)] {
    match profile {
        Profile::Rfc3987bis => &[
            RFC3986,
            IRI,
            (
                "grammar/ucschar-3987bis.pest",
                include_str!("../grammar/ucschar-3987bis.pest"),
            ),
        ],
        Profile::Rfc3987 => &[
            RFC3986,
            IRI,
            (
                "grammar/ucschar-3987.pest",
                include_str!("../grammar/ucschar-3987.pest"),
            ),
        ],
        Profile::Rfc3986 => &[RFC3986],
        Profile::Leiri => &[
            RFC3986,
            IRI,
            (
                "grammar/ucschar-leiri.pest",
                include_str!("../grammar/ucschar-leiri.pest"),
            ),
        ],
    }
}

/// The ABNF files of each profile, by the profile's name, in the order
/// they are read: a rule of a later file replaces the earlier rule of the
/// same name.
///
/// ```
/// let (_, files) = iribis::grammar::ABNF_PROFILES.iter().find(|p| p.0 == "rfc3987").unwrap();
/// assert_eq!(files.last(), Some(&"rfc3987.abnf"));
/// ```
pub const ABNF_PROFILES: &[(&str, &[&str])] = &[
    ("rfc3987bis", &["3987bis.abnf", "3987bis-errata.abnf"]),
    (
        "rfc3987",
        &["3987bis.abnf", "3987bis-errata.abnf", "rfc3987.abnf"],
    ),
    (
        "leiri",
        &["3987bis.abnf", "3987bis-errata.abnf", "leiri.abnf"],
    ),
    ("rfc3986", &["rfc3986.abnf"]),
];

/// The text of a file of `grammar/abnf/`, by its name: the spec's ABNF as
/// printed (`3987bis.abnf`, `rfc3986.abnf`) and the rules that replace
/// printed ones in the other profiles (`3987bis-errata.abnf`,
/// `rfc3987.abnf`, `leiri.abnf`).
///
/// ```
/// let text = iribis::grammar::abnf_file("3987bis-errata.abnf").unwrap();
/// assert!(text.contains("ireg-name"));
/// assert!(iribis::grammar::abnf_file("nope.abnf").is_none());
/// ```
pub fn abnf_file(name: &str) -> Option<&'static str> {
    Some(match name {
        "3987bis.abnf" => include_str!("../grammar/abnf/3987bis.abnf"),
        "3987bis-errata.abnf" => include_str!("../grammar/abnf/3987bis-errata.abnf"),
        "rfc3987.abnf" => include_str!("../grammar/abnf/rfc3987.abnf"),
        "leiri.abnf" => include_str!("../grammar/abnf/leiri.abnf"),
        "rfc3986.abnf" => include_str!("../grammar/abnf/rfc3986.abnf"),
        _ => return None,
    })
}
