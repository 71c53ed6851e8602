//! Where inputs come from: the arguments, or one per line of standard input.

use std::io::{self, BufRead};

/// One input: its text, or the line's bytes when they are not UTF-8.
pub(crate) enum Input {
    Text(String),
    NotUtf8 { lossy: String, valid_up_to: usize },
}

/// The arguments when there are any; otherwise each line of standard input,
/// with only its terminator ("\n" or "\r\n") removed: nothing is trimmed, and
/// an empty line is an input (the empty reference).
pub(crate) fn inputs(args: Vec<String>) -> Box<dyn Iterator<Item = io::Result<Input>>> {
    if !args.is_empty() {
        return Box::new(args.into_iter().map(|a| Ok(Input::Text(a))));
    }
    Box::new(lines(io::stdin().lock()))
}

/// Each line of `reader` as one input, with only its terminator ("\n" or
/// "\r\n") removed.
pub(crate) fn lines(mut reader: impl BufRead) -> impl Iterator<Item = io::Result<Input>> {
    let mut buf = Vec::new();
    std::iter::from_fn(move || {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(_) => {
                if buf.last() == Some(&b'\n') {
                    buf.pop();
                    if buf.last() == Some(&b'\r') {
                        buf.pop();
                    }
                }
                Some(Ok(match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(s) => Input::Text(s),
                    Err(e) => Input::NotUtf8 {
                        valid_up_to: e.utf8_error().valid_up_to(),
                        lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                    },
                }))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

/// `--preprocess[=keep|split|encode]`: raw strings cleaned up before
/// parsing (iri-processing-draft-2011 §4), off by default.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub(crate) struct Preprocess {
    /// Trim leading and trailing space, CR, LF and TAB from each input
    /// first; with =split, also split it on runs of spaces into several
    /// inputs, with =encode write inner spaces as %20
    #[arg(long, value_name = "SPACES", num_args = 0..=1, default_missing_value = "keep", value_parser = spaces_arg)]
    preprocess: Option<iribis::InnerSpaces>,
}

fn spaces_arg(s: &str) -> Result<iribis::InnerSpaces, String> {
    match s {
        "keep" => Ok(iribis::InnerSpaces::Keep),
        "split" => Ok(iribis::InnerSpaces::Split),
        "encode" => Ok(iribis::InnerSpaces::Encode),
        _ => Err(format!("{s:?}: use keep, split or encode")),
    }
}

impl Preprocess {
    /// The inputs, pre-processed when asked; a line that is not UTF-8 is
    /// passed on as it is.
    pub(crate) fn apply(
        self,
        inputs: impl Iterator<Item = io::Result<Input>>,
    ) -> impl Iterator<Item = io::Result<Input>> {
        inputs.flat_map(move |input| -> Vec<io::Result<Input>> {
            match (self.preprocess, input) {
                (Some(spaces), Ok(Input::Text(t))) => iribis::preprocess(&t, spaces)
                    .into_iter()
                    .map(|s| Ok(Input::Text(s)))
                    .collect(),
                (_, other) => vec![other],
            }
        })
    }
}
