//! Every example IRI, URI and reference printed in the specs
//! (`crates/suite/data/spec-examples/`, one file per section), parsed under the
//! default profile, with its components or its error pinned by a snapshot.
//! Lines marked `# invalid:` in the data must fail; all others must parse.

use crate::common;
use iribis::Profile;

#[test]
fn spec_examples() {
    common::settings().bind(|| {
        insta::glob!("../../crates/suite/data/spec-examples", "*.txt", |path| {
            let text = std::fs::read_to_string(path).unwrap();
            let mut out = String::new();
            let mut expect_invalid = false;
            for line in text.lines() {
                if line.starts_with("# invalid:") {
                    expect_invalid = true;
                    continue;
                }
                if line.starts_with("# ") {
                    continue;
                }
                let input = if line == "\"\"" { "" } else { line };
                let result = common::parse(input, Profile::Rfc3987bis);
                assert_eq!(
                    result.is_err(),
                    expect_invalid,
                    "{}: {input:?} should be {}",
                    path.display(),
                    if expect_invalid { "invalid" } else { "valid" }
                );
                expect_invalid = false;
                out.push_str(&common::render(input, result));
            }
            insta::assert_snapshot!(out);
        });
    });
}
