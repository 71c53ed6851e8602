//! Table tests, one data file per ABNF rule (`tests/data/rules/RULE.txt`; the
//! format is in the README there): each input must match, or not match, the
//! rule as the whole-input start rule under the profile the line names.

use crate::common;
use std::net::Ipv6Addr;

use std::path::Path;

use common::unescape;

use iribis::{Components, GrammarRule, Host, IriRef, Profile};

/// One line of a table: the expectation, the profile and the input.
struct Case {
    line: usize,
    valid: bool,
    profile: Profile,
    input: String,
}

fn cases(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, input) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{}:{}: no input", path.display(), i + 1));
        let valid = match &head[..1] {
            "+" => true,
            "-" => false,
            _ => panic!("{}:{}: a line starts with + or -", path.display(), i + 1),
        };
        let profile = match &head[1..] {
            "" => Profile::default(),
            name => name.parse().unwrap(),
        };
        cases.push(Case {
            line: i + 1,
            valid,
            profile,
            input: unescape(input),
        });
    }
    cases
}

fn table_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

fn rule_of(path: &Path) -> GrammarRule {
    let name = path.file_stem().unwrap().to_str().unwrap();
    GrammarRule::from_name(name).unwrap_or_else(|| panic!("{name} is not a rule"))
}

#[test]
fn every_table_holds() {
    let mut failures = Vec::new();
    let mut count = 0;
    for path in table_files() {
        let rule = rule_of(&path);
        for case in cases(&path) {
            assert!(
                rule.is_in(case.profile),
                "{}:{}: {rule} is not in profile {}",
                path.display(),
                case.line,
                case.profile
            );
            count += 1;
            let result = Components::parse(&case.input, rule, case.profile);
            if result.is_ok() != case.valid {
                failures.push(format!(
                    "{}:{}: {:?} should {}match {rule} under {}{}",
                    path.file_name().unwrap().to_string_lossy(),
                    case.line,
                    case.input,
                    if case.valid { "" } else { "not " },
                    case.profile,
                    match result {
                        Err(e) => format!(": {}", e.message()),
                        Ok(_) => String::new(),
                    }
                ));
            }
            // Components::parse consults the rule's DFA before pest: each
            // of the two must hold the table on its own.
            let pest = iribis::pest_accepts(&case.input, rule, case.profile);
            let dfa = iribis::dfa_accepts(&case.input, rule, case.profile);
            if pest != case.valid || dfa != Some(case.valid) {
                failures.push(format!(
                    "{}:{}: {:?} under {}: pest says {pest}, the DFA {dfa:?}",
                    path.file_name().unwrap().to_string_lossy(),
                    case.line,
                    case.input,
                    case.profile,
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(count > 400, "only {count} cases");
}

/// Every rule of every profile has a table, and the tables together reach
/// every rule (the character-range rules too: ucschar, iprivate,
/// leiri-ucschar).
#[test]
fn every_rule_has_a_table() {
    let tabled: Vec<GrammarRule> = table_files().iter().map(|p| rule_of(p)).collect();
    let missing: Vec<&str> = GrammarRule::all()
        .filter(|r| !tabled.contains(r))
        .map(GrammarRule::abnf_name)
        .collect();
    assert!(missing.is_empty(), "rules without a table: {missing:?}");
}

/// Each valid IPv6address of the table is the address std::net reads from
/// the same text, and a host of that kind inside an IRI.
#[test]
fn ipv6_values_agree_with_std() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules/IPv6address.txt");
    for case in cases(&path) {
        let std: Option<Ipv6Addr> = case.input.parse().ok();
        let iri = format!("http://[{}]/", case.input);
        let host = IriRef::parse(&iri).ok().and_then(|r| match r.host() {
            Some(Host::Ipv6(a)) => Some(a),
            _ => None,
        });
        assert_eq!(host, std, "{:?} (line {})", case.input, case.line);
        assert_eq!(host.is_some(), case.valid, "{:?}", case.input);
    }
}

#[test]
fn host_kinds() {
    use std::net::Ipv4Addr;
    let cases = [
        ("192.0.2.1", "IPv4address"),
        ("0.0.0.0", "IPv4address"),
        ("255.255.255.255", "IPv4address"),
        ("1.2.3.4.5", "reg-name"),
        ("256.1.1.1", "reg-name"),
        ("01.2.3.4", "reg-name"),
        ("1.2.3", "reg-name"),
        ("1.2.3.4.", "reg-name"),
        ("[::1]", "IPv6address"),
        ("[::ffff:1.2.3.4]", "IPv6address"),
        ("[V1.x]", "IPvFuture"),
        ("[vF.a:b]", "IPvFuture"),
        ("", "reg-name"),
        ("例え.jp", "reg-name"),
    ];
    for (host, kind) in cases {
        let input = format!("http://{host}:80/");
        let r = IriRef::parse(&input).unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(r.host().map(|h| h.kind_name()), Some(kind), "{input}");
        assert_eq!(r.host_str(), Some(host));
        assert_eq!(r.port_number(), Some(80));
    }
    let r = IriRef::parse("http://10.99.199.249/").unwrap();
    assert_eq!(r.host(), Some(Host::Ipv4(Ipv4Addr::new(10, 99, 199, 249))));
    let r = IriRef::parse("http://[V1.x]/").unwrap();
    let Some(Host::IpvFuture(f)) = r.host() else {
        panic!("not IPvFuture")
    };
    assert_eq!((f.version(), f.address()), ("1", "x"));
}

/// Absent and empty components differ (issue text and 3987bis §2.2).
#[test]
fn absent_and_empty() {
    let r = IriRef::parse("http://h?").unwrap();
    assert_eq!((r.query(), r.fragment()), (Some(""), None));
    let r = IriRef::parse("http://h").unwrap();
    assert_eq!((r.query(), r.path()), (None, ""));
    let r = IriRef::parse("http://h:/").unwrap();
    assert_eq!((r.port(), r.port_number()), (Some(""), None));
    let r = IriRef::parse("file:///x").unwrap();
    assert_eq!((r.authority(), r.host_str()), (Some(""), Some("")));
    let r = IriRef::parse("http://h:65536/").unwrap();
    assert_eq!((r.port(), r.port_number()), (Some("65536"), None));
    let r = IriRef::parse("http://@h#").unwrap();
    assert_eq!((r.userinfo(), r.fragment()), (Some(""), Some("")));
    let r = IriRef::parse("").unwrap();
    assert_eq!((r.scheme(), r.authority(), r.path()), (None, None, ""));
}
