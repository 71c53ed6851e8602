//! `iri`: the command-line client of the iribis library.
//!
//! Exit status: 0 when every input is valid, 1 when some input is not, 2 on a
//! usage or I/O error, 3 when a document of `check --from` has a syntax
//! error.

mod check;
mod convert;
mod grammar;
mod inputs;
mod man;
mod normalize;
mod output;
mod parse;
mod readings;
mod resolve;
mod suite;
mod tree;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Internationalized Resource Identifiers, by draft-ietf-iri-3987bis-13.
// The command's own one-line about (the crate's description is the
// library's): the headline of `iri --help` and the man page's NAME.
#[derive(Parser)]
#[command(
    name = "iri",
    version,
    about = "Parse, check, convert, resolve and compare IRIs (draft-ietf-iri-3987bis-13, RFC 3987, RFC 3986)"
)]
struct Cli {
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always or
    /// never.
    // Under its own heading, after each subcommand's options.
    #[arg(
        long,
        global = true,
        value_enum,
        default_value = "auto",
        help_heading = "Global options"
    )]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

/// `--color`.
#[derive(clap::ValueEnum, Clone, Copy)]
enum Color {
    /// On a terminal, unless NO_COLOR is set (or CLICOLOR_FORCE asks).
    Auto,
    /// Always, even into a pipe.
    Always,
    /// Never.
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Parse IRI references (arguments, or one per line of standard input)
    /// and print their components or the error.
    Parse(parse::Args),
    /// Print the parse tree of one input: every rule, with its byte span.
    Tree(tree::Args),
    /// Check inputs against the specs: every finding with a code, a
    /// severity, the spec section and the span.
    Check(check::Args),
    /// Convert IRIs to URIs (3987bis §3): percent-encode what a URI cannot hold.
    ToUri(convert::ToUriArgs),
    /// Convert URIs to IRIs (3987bis §4.2): decode what an IRI can hold.
    ToIri(convert::ToIriArgs),
    /// Resolve references against a base IRI (RFC 3986 §5.2).
    Resolve(resolve::ResolveArgs),
    /// The shortest reference from a base IRI to each target IRI.
    Relativize(resolve::RelativizeArgs),
    /// Normalize IRI references (RFC 3987 §5.3, RFC 3986 §6.2).
    Normalize(normalize::NormalizeArgs),
    /// Whether two IRIs are equivalent, and at which rung of the comparison
    /// ladder (RFC 3987 §5.3); exit 0 when they are, 1 when not.
    Compare(normalize::CompareArgs),
    /// The grammar lab: show, check, diff and transcribe grammars.
    #[command(subcommand)]
    Grammar(grammar::Command),
    /// The conformance suite: export it, run it against an implementation's
    /// adapter, fuzz an adapter, or answer it as iribis.
    #[command(subcommand)]
    Suite(suite::Command),
    /// Print the completion script for a shell (bash, zsh, fish,
    /// powershell, elvish).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) of iri or of one of its commands, for
    /// `man -l -`; with --out, write them all into a man directory.
    Man(man::Args),
}

/// The outcome of a subcommand, turned into the exit status.
pub(crate) enum Outcome {
    /// Every input was valid.
    AllValid,
    /// At least one input was not.
    SomeInvalid,
    /// A document given to `check --from` has a syntax error.
    SyntaxError,
}

fn main() -> ExitCode {
    // A panic is a bug: say where, with nothing of the input raw. The
    // commands catch it per input, so that every other input still gets its
    // answer.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let _ = writeln!(
            io::stderr(),
            "iri: internal error{place}: {}",
            iribis::render::escape_invisible(&what)
        );
    }));
    let matches = match with_help_usage(Cli::command()).try_get_matches() {
        Ok(m) => m,
        Err(e) => return usage_error(&e),
    };
    let mut cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    if let (Command::Check(args), Some(sub)) =
        (&mut cli.command, matches.subcommand_matches("check"))
    {
        args.order_severities(sub);
    }
    anstream::ColorChoice::write_global(match cli.color {
        Color::Auto => anstream::ColorChoice::Auto,
        Color::Always => anstream::ColorChoice::Always,
        Color::Never => anstream::ColorChoice::Never,
    });
    let result = match cli.command {
        Command::Parse(args) => parse::run(args),
        Command::Tree(args) => tree::run(args),
        Command::Check(args) => check::run(args),
        Command::ToUri(args) => convert::run_to_uri(args),
        Command::ToIri(args) => convert::run_to_iri(args),
        Command::Resolve(args) => resolve::run_resolve(args),
        Command::Relativize(args) => resolve::run_relativize(args),
        Command::Normalize(args) => normalize::run_normalize(args),
        Command::Compare(args) => normalize::run_compare(args),
        Command::Grammar(command) => grammar::run(command),
        Command::Suite(command) => suite::run(command),
        Command::Completions { shell } => {
            // Into memory first: clap_complete panics on a write error, and a
            // closed pipe is no error.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut completion_command(), "iri", &mut script);
            let mut out = io::stdout().lock();
            out.write_all(&script)
                .and_then(|()| out.flush())
                .map(|()| Outcome::AllValid)
        }
        Command::Man(args) => man::run(&args, Cli::command()),
    };
    match result {
        Ok(Outcome::AllValid) => ExitCode::SUCCESS,
        Ok(Outcome::SomeInvalid) => ExitCode::from(1),
        Ok(Outcome::SyntaxError) => ExitCode::from(3),
        // A closed pipe (`iri parse ... | head`) is not an error.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            // Escaped line by line: a report of several lines (pest's, on a
            // grammar) keeps its line breaks.
            let _ = writeln!(
                io::stderr(),
                "iri: {}",
                output::escape_lines(&e.to_string())
            );
            ExitCode::from(2)
        }
    }
}

/// `cmd` with each subcommand's usage in errors written as its `--help`
/// writes it: clap's usage in an error names the arguments given, which
/// makes positional inputs look required (`--base` missing: `<REFS>...`,
/// where they are optional, standard input taking their place).
fn with_help_usage(mut cmd: clap::Command) -> clap::Command {
    cmd.build();
    cmd.mut_subcommands(|mut sub| {
        let usage = sub.render_usage().to_string();
        let usage = usage.strip_prefix("Usage: ").unwrap_or(&usage).to_owned();
        with_help_usage(sub.override_usage(usage))
    })
}

/// The command as the completion scripts see it: every option whose value
/// is a name (a profile, a severity preset, a normalization level, a check
/// code; every `--profile`) offers those names instead of file names.
/// Parsing does not use it: each option keeps its own parser
/// (case-insensitive codes, the closest codes suggested).
fn completion_command() -> clap::Command {
    use std::any::TypeId;

    use clap::builder::PossibleValuesParser;
    use iribis::Profile;
    use iribis::check::{Code, Preset};
    use iribis::normalize::Level;

    /// The names of the values of type `T`, as its parser's error lists
    /// them: the empty string is no name.
    fn names<T: std::str::FromStr<Err = iribis::UnknownName>>() -> Vec<&'static str> {
        T::from_str("")
            .err()
            .map_or(Vec::new(), |e| e.expected().to_vec())
    }

    let codes = || Code::ALL.iter().map(|c| c.name());
    let candidates = |arg: &clap::Arg| -> Option<Vec<&'static str>> {
        let of = arg.get_value_parser().type_id();
        // `suite`'s --profile takes names it reads later, as strings.
        if of == TypeId::of::<Profile>() || arg.get_long() == Some("profile") {
            Some(Profile::ALL.iter().map(|p| p.name()).collect())
        } else if of == TypeId::of::<Preset>() {
            Some(names::<Preset>())
        } else if of == TypeId::of::<Level>() {
            Some(names::<Level>())
        } else if of == TypeId::of::<Code>() {
            Some(codes().collect())
        } else if of == TypeId::of::<check::Explained>() {
            Some(codes().chain([check::DOCUMENT_SYNTAX_ERROR]).collect())
        } else {
            None
        }
    };
    fn offer(
        cmd: clap::Command,
        candidates: &dyn Fn(&clap::Arg) -> Option<Vec<&'static str>>,
    ) -> clap::Command {
        cmd.mut_args(|arg| match candidates(&arg) {
            Some(names) => arg.value_parser(PossibleValuesParser::new(names)),
            None => arg,
        })
        .mut_subcommands(|sub| offer(sub, candidates))
    }
    offer(Cli::command(), &candidates)
}

/// Prints clap's message (help, version or a usage error) and gives its exit
/// status. A usage error quotes the arguments, which may hold controls: then
/// it is printed plain and escaped.
fn usage_error(e: &clap::Error) -> ExitCode {
    let plain = e.render().to_string();
    // clap's message is several lines: escaped within each line, so that an
    // argument's escape sequences never reach the terminal but the line
    // breaks stay line breaks.
    let invisible = |line: &str| line.chars().any(iribis::render::is_invisible);
    if e.use_stderr() && plain.split('\n').any(invisible) {
        let _ = write!(io::stderr(), "{}", output::escape_lines(&plain));
    } else {
        let _ = e.print();
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}
