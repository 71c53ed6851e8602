//! The look-alike table of the host spoofing checks: `gen/data/lookalikes.tsv`
//! (curated data, one character per row with its target, script, rule and
//! provenance) written as a Rust table, `src/spoof/lookalikes.rs`, sorted by
//! character for a binary search.

/// Where the table is written, relative to the repository root.
pub const PATH: &str = "src/spoof/lookalikes.rs";

/// The data file, relative to the repository root.
pub const DATA: &str = "gen/data/lookalikes.tsv";

/// The Rust names of the data file's rules.
const RULES: [(&str, &str); 4] = [
    ("letter", "Letter"),
    ("digit", "Digit"),
    ("skeleton", "Skeleton"),
    ("cjk", "Cjk"),
];

/// The table's text from the data file's: an error names the first row
/// that is not a character, its code point, a target, a script, a rule
/// and a provenance.
pub fn table(data: &str) -> Result<String, String> {
    let mut rows: Vec<(char, String, &str)> = Vec::new();
    for (i, line) in data.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let bad = |why: &str| format!("{DATA} line {}: {why}: {line:?}", i + 1);
        let [ch, code, target, script, rule, provenance] = fields[..] else {
            return Err(bad("not six tab-separated columns"));
        };
        let mut chars = ch.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(bad("the first column is not one character"));
        };
        if code != format!("U+{:04X}", c as u32) {
            return Err(bad("the code point is not the character's"));
        }
        if target.is_empty() || script.is_empty() || provenance.is_empty() {
            return Err(bad("an empty column"));
        }
        let Some(&(_, name)) = RULES.iter().find(|(r, _)| *r == rule) else {
            return Err(bad("the rule is not letter, digit, skeleton or cjk"));
        };
        rows.push((c, target.to_owned(), name));
    }
    rows.sort();
    rows.dedup();
    let mut out = String::from(
        "// DO NOT EDIT: written by `cargo run -p iribis-gen` from gen/data/lookalikes.tsv\n\
         // (crates/iri/tests/cli/generated_files.rs fails when it is stale).\n\n\
         //! The look-alike table: each character with what it reads as and the\n\
         //! rule that uses it, sorted by character (see gen/data/lookalikes.tsv for\n\
         //! each entry's script and provenance).\n\n\
         use super::Rule;\n\n\
         /// (character, target, rule), sorted.\n",
    );
    out.push_str(&format!(
        "pub(super) const LOOKALIKES: [(char, &str, Rule); {}] = [\n",
        rows.len()
    ));
    for (c, target, rule) in &rows {
        out.push_str(&format!(
            "    ('\\u{{{:04X}}}', {target:?}, Rule::{rule}),\n",
            *c as u32
        ));
    }
    out.push_str("];\n");
    Ok(out)
}
