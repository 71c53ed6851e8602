//! `iri man`: a manual page per command (`iri(1)`, `iri-check(1)`,
//! `iri-grammar-check(1)`...), generated from the clap definitions by
//! clap_mangen, with the sections clap knows nothing of: EXIT STATUS,
//! ENVIRONMENT, EXAMPLES and SEE ALSO.

use std::io::{self, Write};
use std::path::PathBuf;

use clap_mangen::roff::{Roff, bold, roman};

use crate::Outcome;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// The command whose page to print (`check`, `grammar check`); without
    /// one, the page of iri itself.
    #[arg(value_name = "COMMAND")]
    command: Vec<String>,
    /// Write every page (iri.1, iri-parse.1, ..., iri-grammar-check.1)
    /// into this directory, and print their paths, instead.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    out: Option<PathBuf>,
}

/// The exit statuses of the commands that check inputs.
const INPUTS_STATUS: &[(&str, &str)] = &[
    ("0", "every input is valid"),
    ("1", "some input is not (each gets its answer all the same)"),
    ("2", "a usage or I/O error"),
];

/// What a page says of one command, by its path under `iri` ("" for iri
/// itself).
struct Page {
    path: &'static str,
    status: &'static [(&'static str, &'static str)],
    /// Each example: what it does, then the command lines.
    examples: &'static [(&'static str, &'static str)],
    /// Related pages, by command path.
    see_also: &'static [&'static str],
}

const PAGES: &[Page] = &[
    Page {
        path: "",
        status: &[
            (
                "0",
                "every input is valid (for compare: the two are equivalent)",
            ),
            ("1", "some input is not"),
            ("2", "a usage or I/O error"),
            ("3", "a document of check --from has a syntax error"),
        ],
        examples: &[
            (
                "The components of an IRI:",
                "iri parse 'https://例え.jp/résumé?q=日本#s'",
            ),
            (
                "Check a file of IRIs, one per line, showing only the invalid ones:",
                "iri check --only-invalid --file iris.txt",
            ),
            (
                "Install every page into a man directory:",
                "iri man --out ~/.local/share/man/man1",
            ),
        ],
        see_also: &[],
    },
    Page {
        path: "parse",
        status: INPUTS_STATUS,
        examples: &[
            (
                "The components of an IRI, or where it goes wrong:",
                "iri parse 'https://例え.jp/résumé?q=日本#s'\niri parse 'http://example.org/a b'",
            ),
            (
                "Any ABNF rule as the start rule:",
                "iri parse --rule IPv6address 2001:db8::7",
            ),
            (
                "Each line of a file, as JSON Lines:",
                "iri parse --json --file iris.txt",
            ),
        ],
        see_also: &["tree", "check"],
    },
    Page {
        path: "tree",
        status: INPUTS_STATUS,
        examples: &[
            (
                "The derivation of an input, one rule per line:",
                "iri tree 'http://[::1]/a'",
            ),
            (
                "The PEG parse itself, every alternative tried:",
                "iri tree --trace --rule dec-octet 25",
            ),
        ],
        see_also: &["parse", "grammar"],
    },
    Page {
        path: "check",
        status: &[
            (
                "0",
                "every input is valid: it parses, and no finding is an error",
            ),
            ("1", "some input is not"),
            ("2", "a usage or I/O error"),
            ("3", "a document of --from has a syntax error"),
        ],
        examples: &[
            ("Check one IRI:", "iri check 'http://例え.jp:80/%7euser'"),
            (
                "Check a file of IRIs, one per line; the invalid ones, with their line numbers:",
                "iri check --only-invalid --file iris.txt",
            ),
            (
                "Check the IRIs inside an HTML page, as a SARIF log:",
                "iri check --from html --format sarif page.html",
            ),
            (
                "What a code means (DOCUMENT_SYNTAX_ERROR, a document's syntax error, too); every code:",
                "iri check --explain BIDI_FORMATTING_CHARACTER\niri check --list-codes",
            ),
        ],
        see_also: &["parse", "to-uri"],
    },
    Page {
        path: "to-uri",
        status: INPUTS_STATUS,
        examples: &[
            (
                "Map an IRI to a URI; the host is percent-encoded unless --idna asks for punycode:",
                "iri to-uri 'https://例え.jp/'\niri to-uri --idna 'https://例え.jp/'",
            ),
            (
                "Every step of the mapping:",
                "iri to-uri --explain 'http://例え.jp/résumé'",
            ),
        ],
        see_also: &["to-iri", "check"],
    },
    Page {
        path: "to-iri",
        status: INPUTS_STATUS,
        examples: &[
            (
                "Map a URI back to an IRI:",
                "iri to-iri 'http://xn--r8jz45g.jp/%E3%81%82'",
            ),
            (
                "Every step of the mapping:",
                "iri to-iri --explain 'http://example.org/%E2%80%AE'",
            ),
        ],
        see_also: &["to-uri"],
    },
    Page {
        path: "resolve",
        status: INPUTS_STATUS,
        examples: &[
            (
                "Resolve references against a base:",
                "iri resolve --base 'http://a/b/c/d;p?q' ../g '?y' '#s'",
            ),
            (
                "Resolve each line of a file, as JSON Lines:",
                "iri resolve --base http://example.org/ --json --file refs.txt",
            ),
        ],
        see_also: &["relativize", "normalize"],
    },
    Page {
        path: "relativize",
        status: INPUTS_STATUS,
        examples: &[(
            "The shortest reference from a base to a target:",
            "iri relativize --base 'http://a/b/c/d;p?q' 'http://a/b/e/f?x#y'",
        )],
        see_also: &["resolve"],
    },
    Page {
        path: "normalize",
        status: INPUTS_STATUS,
        examples: &[
            (
                "Syntax-based normalization (the port stays):",
                "iri normalize 'HTTP://Example.ORG:80/%7euser/./a/../b'",
            ),
            (
                "Scheme-based normalization too (the default port goes):",
                "iri normalize --level scheme 'HTTP://Example.ORG:80/%7euser/./a/../b'",
            ),
        ],
        see_also: &["compare", "resolve"],
    },
    Page {
        path: "compare",
        status: &[
            ("0", "the two are equivalent"),
            ("1", "they are not, or one of them does not parse"),
            ("2", "a usage error"),
        ],
        examples: &[(
            "Whether two IRIs are equivalent, and at which rung:",
            "iri compare 'HTTP://例え.jp:80/%7Ea' 'http://例え.jp/~a'",
        )],
        see_also: &["normalize"],
    },
    Page {
        path: "grammar",
        status: &[
            ("0", "the subcommand succeeded"),
            ("1", "check or diff found a difference"),
            ("2", "a usage or I/O error, or a grammar that does not load"),
        ],
        examples: &[(
            "Copy the built-in grammar, edit it, check it against the ABNF and diff it:",
            "iri grammar show > my.pest\niri grammar check --grammar my.pest\niri grammar diff my.pest",
        )],
        see_also: &["grammar show", "grammar check", "grammar diff", "tree"],
    },
    Page {
        path: "grammar show",
        status: &[
            ("0", "the grammar was printed"),
            ("2", "a usage or I/O error"),
        ],
        examples: &[
            (
                "The built-in grammar of RFC 3986, to copy and edit:",
                "iri grammar show --profile rfc3986 > uri.pest",
            ),
            (
                "The built-in ABNF of the rfc3987 profile, file by file:",
                "iri grammar show --abnf --profile rfc3987",
            ),
        ],
        see_also: &["grammar check", "grammar diff", "grammar from-abnf"],
    },
    Page {
        path: "grammar check",
        status: &[
            ("0", "every rule agrees with the ABNF"),
            ("1", "a rule differs, is missing or could not be checked"),
            ("2", "a usage or I/O error, or a grammar that does not load"),
        ],
        examples: &[
            (
                "The built-in grammar against the spec's ABNF:",
                "iri grammar check",
            ),
            (
                "An edited grammar, against the ABNF plus rules of your own:",
                "iri grammar check --grammar zone.pest --extra-abnf zone.abnf",
            ),
        ],
        see_also: &["grammar diff", "grammar watch", "grammar from-abnf"],
    },
    Page {
        path: "grammar watch",
        status: &[
            ("0", "with --max-runs, the last run passed"),
            ("1", "with --max-runs, the last run failed"),
            ("2", "a usage or I/O error"),
        ],
        examples: &[(
            "Check and diff a grammar again whenever it changes:",
            "iri grammar watch my.pest",
        )],
        see_also: &["grammar check", "grammar diff"],
    },
    Page {
        path: "grammar diff",
        status: &[
            ("0", "no input is treated differently"),
            ("1", "some input is"),
            ("2", "a usage or I/O error, or a grammar that does not load"),
        ],
        examples: &[
            (
                "An edited grammar against the built-in one, over the built-in corpus:",
                "iri grammar diff my.pest",
            ),
            (
                "Over a corpus of your own, comparing parse trees too:",
                "iri grammar diff --trees my.pest corpus.txt",
            ),
        ],
        see_also: &["grammar check", "grammar show"],
    },
    Page {
        path: "grammar from-abnf",
        status: &[
            ("0", "the grammar was written"),
            ("2", "a usage or I/O error, or ABNF that does not load"),
        ],
        examples: &[
            (
                "Transcribe ABNF into pest:",
                "iri grammar from-abnf rules.abnf > rules.pest",
            ),
            (
                "Transcribe the built-in ABNF of 3987bis, then with rules of your own replacing or adding to its rules:",
                "iri grammar from-abnf > 3987bis.pest\niri grammar from-abnf --builtin rfc3987bis zone.abnf > zone.pest",
            ),
        ],
        see_also: &["grammar check", "grammar show"],
    },
    Page {
        path: "suite",
        status: &[
            (
                "0",
                "the subcommand succeeded (run: no case failed; fuzz: no disagreement)",
            ),
            (
                "1",
                "run: some case failed; fuzz: a disagreement was found, or nothing was compared (the adapter answered unsupported to every request)",
            ),
            (
                "2",
                "a usage or I/O error, or an adapter that keeps failing",
            ),
        ],
        examples: &[(
            "Export the conformance suite and run it against iribis's own adapter:",
            "iri suite export --out conformance\niri suite run --adapter 'iri suite adapter'",
        )],
        see_also: &["suite export", "suite run", "suite fuzz", "suite adapter"],
    },
    Page {
        path: "suite export",
        status: &[
            ("0", "the suite was written"),
            ("2", "a usage or I/O error"),
        ],
        examples: &[(
            "Write the suite (JSON Lines per operation, index.json, JSON Schemas, README):",
            "iri suite export --out conformance",
        )],
        see_also: &["suite run"],
    },
    Page {
        path: "suite adapter",
        status: &[("0", "standard input ended"), ("2", "an I/O error")],
        examples: &[(
            "Answer one case, as the runner asks it:",
            "echo '{\"id\":\"x\",\"op\":\"valid\",\"profile\":\"rfc3987bis\",\"rule\":\"IRI\",\"input\":\"http://a/\"}' | iri suite adapter",
        )],
        see_also: &["suite run"],
    },
    Page {
        path: "suite run",
        status: &[
            (
                "0",
                "no case failed (the cases the adapter answers unsupported are counted apart; when all are, or none was run, the report says nothing was compared)",
            ),
            ("1", "some case failed"),
            (
                "2",
                "a usage or I/O error, or an adapter that answers nothing",
            ),
        ],
        examples: &[
            (
                "Test an implementation through its adapter, the valid cases only:",
                "iri suite run --adapter 'python3 conformance/adapters/python/rfc3987_adapter.py' --op valid",
            ),
            (
                "The report as one JSON object:",
                "iri suite run --adapter 'iri suite adapter' --json",
            ),
        ],
        see_also: &["suite export", "suite fuzz", "suite adapter"],
    },
    Page {
        path: "suite fuzz",
        status: &[
            ("0", "no disagreement was found"),
            (
                "1",
                "a disagreement was found, or nothing was compared: the adapter answered unsupported to every request (the report says so)",
            ),
            (
                "2",
                "a usage or I/O error, or an adapter that answers nothing",
            ),
        ],
        examples: &[(
            "Ten minutes of differential fuzzing, new findings appended as cases:",
            "iri suite fuzz --adapter 'my-adapter' --seconds 600 --append findings.jsonl",
        )],
        see_also: &["suite run"],
    },
    Page {
        path: "completions",
        status: &[
            ("0", "the script was printed"),
            ("2", "a usage or I/O error"),
        ],
        examples: &[(
            "Completions for bash:",
            "iri completions bash > ~/.local/share/bash-completion/completions/iri",
        )],
        see_also: &[],
    },
    Page {
        path: "man",
        status: &[
            ("0", "the pages were printed or written"),
            ("2", "a usage or I/O error, or no such command"),
        ],
        examples: &[
            ("Read the page of iri check:", "iri man check | man -l -"),
            (
                "Install every page into a man directory:",
                "iri man --out ~/.local/share/man/man1",
            ),
        ],
        see_also: &[],
    },
];

/// Prints the page of `args.command`, or with `--out` writes them all.
pub(crate) fn run(args: &Args, cli: clap::Command) -> io::Result<Outcome> {
    let mut root = cli.disable_help_subcommand(true);
    root.build();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        let mut out = io::stdout().lock();
        for (path, cmd) in commands(&root, "") {
            let file = dir.join(format!("{}.1", page_name(&path)));
            let written = std::fs::write(&file, page(&path, cmd));
            written.map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", file.display())))?;
            writeln!(out, "{}", file.display())?;
        }
        out.flush()?;
        return Ok(Outcome::AllValid);
    }
    let path = args.command.join(" ");
    let Some(cmd) = find(&root, &args.command) else {
        let known: Vec<String> = commands(&root, "")
            .into_iter()
            .map(|(p, _)| p)
            .filter(|p| !p.is_empty())
            .collect();
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "no command \"{path}\" has a page: name one of {}",
                known.join(", ")
            ),
        ));
    };
    let mut out = io::stdout().lock();
    out.write_all(page(&path, cmd).as_bytes())?;
    out.flush()?;
    Ok(Outcome::AllValid)
}

/// Every command with a page, by path, `root` first, each before its
/// subcommands.
fn commands<'a>(cmd: &'a clap::Command, path: &str) -> Vec<(String, &'a clap::Command)> {
    let mut all = vec![(path.to_owned(), cmd)];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let sub_path = if path.is_empty() {
            sub.get_name().to_owned()
        } else {
            format!("{path} {}", sub.get_name())
        };
        all.extend(commands(sub, &sub_path));
    }
    all
}

/// The subcommand at `path` (words) under `root`.
fn find<'a>(root: &'a clap::Command, path: &[String]) -> Option<&'a clap::Command> {
    path.iter().try_fold(root, |cmd, word| {
        cmd.get_subcommands()
            .find(|s| !s.is_hide_set() && s.get_name() == word)
    })
}

/// The page's name: `iri`, `iri-check`, `iri-grammar-check`.
fn page_name(path: &str) -> String {
    std::iter::once("iri")
        .chain(path.split(' ').filter(|w| !w.is_empty()))
        .collect::<Vec<_>>()
        .join("-")
}

/// The page of the command at `path`: clap_mangen's sections (NAME,
/// SYNOPSIS, DESCRIPTION, OPTIONS, SUBCOMMANDS), then EXIT STATUS,
/// ENVIRONMENT (on iri's own page), EXAMPLES and SEE ALSO, then VERSION.
fn page(path: &str, cmd: &clap::Command) -> String {
    let name = page_name(path);
    let mut buf = Vec::new();
    // Writing into a vector cannot fail.
    let _ = clap_mangen::Man::new(cmd.clone().display_name(name.clone()))
        .source(format!("iri {}", env!("CARGO_PKG_VERSION")))
        .render(&mut buf);
    let generated = String::from_utf8_lossy(&buf).into_owned();
    let ours = sections(path);
    let whole = match generated.find("\n.SH VERSION\n") {
        Some(at) => format!("{}\n{}{}", &generated[..at], ours, &generated[at + 1..]),
        None => format!("{generated}{ours}"),
    };
    ascii(&whole)
}

/// `roff` with every character outside ASCII written as a groff escape
/// (`\[u4F8B]`), which man, groff and mandoc read whatever the locale:
/// raw, `例` and `§` are "invalid input characters" to a troff run
/// without preconv.
fn ascii(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    for c in roff.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    out
}

/// EXIT STATUS, ENVIRONMENT, EXAMPLES and SEE ALSO, in roff.
fn sections(path: &str) -> String {
    let mut roff = Roff::new();
    let page = PAGES.iter().find(|p| p.path == path);
    roff.control("SH", ["EXIT STATUS"]);
    match page {
        Some(p) => {
            for (status, meaning) in p.status {
                roff.control("TP", []);
                roff.text([bold(*status)]);
                roff.text([roman(*meaning)]);
            }
        }
        None => {
            roff.text([
                roman("As for every command of "),
                bold("iri"),
                roman("(1)."),
            ]);
        }
    }
    if path.is_empty() {
        roff.control("SH", ["ENVIRONMENT"]);
        roff.control("TP", []);
        roff.text([bold("NO_COLOR")]);
        roff.text([roman(
            "When set (to anything but the empty string), no colour with --color auto.",
        )]);
        roff.control("TP", []);
        roff.text([bold("CLICOLOR_FORCE")]);
        roff.text([roman(
            "When set (to anything but 0), colour with --color auto even into a pipe.",
        )]);
    }
    if let Some(p) = page.filter(|p| !p.examples.is_empty()) {
        roff.control("SH", ["EXAMPLES"]);
        for (what, lines) in p.examples {
            roff.control("PP", []);
            roff.text([roman(*what)]);
            roff.control("RS", ["4"]);
            roff.control("nf", []);
            for line in lines.lines() {
                roff.text([roman(format!("$ {line}"))]);
            }
            roff.control("fi", []);
            roff.control("RE", []);
        }
    }
    // iri's own page lists the others as SUBCOMMANDS; every other page
    // names iri(1), its parent's and its related pages.
    if !path.is_empty() {
        let parent = path.rsplit_once(' ').map(|(p, _)| p);
        let mut related = vec![""];
        for p in parent
            .into_iter()
            .chain(page.map_or(&[][..], |p| p.see_also).iter().copied())
        {
            if !related.contains(&p) {
                related.push(p);
            }
        }
        let names: Vec<String> = related
            .iter()
            .map(|p| format!("{}(1)", page_name(p)))
            .collect();
        roff.control("SH", ["SEE ALSO"]);
        roff.text([roman(names.join(", "))]);
    }
    roff.to_roff()
}

#[cfg(test)]
mod tests {
    use super::{PAGES, page_name};

    #[test]
    fn page_names() {
        assert_eq!(page_name(""), "iri");
        assert_eq!(page_name("grammar check"), "iri-grammar-check");
    }

    /// Every page named in SEE ALSO is a page of the table.
    #[test]
    fn see_also_names_pages_that_exist() {
        for p in PAGES {
            for also in p.see_also {
                assert!(PAGES.iter().any(|q| q.path == *also), "{also}");
            }
        }
    }
}
