//! `iri parse --readings`: every reader's components side by side, the
//! ones that differ marked (with `--json`, the library's
//! `readings::ReadingsJson` gives the same as data).

use iribis::readings::{Difference, ReadHost, Reading, Readings};
use iribis::render::escape_invisible;
use unicode_width::UnicodeWidthStr;

/// The rows of the table: a component's name, and how to read it.
type Row = (&'static str, fn(&Reading) -> Option<String>);

const ROWS: [Row; 7] = [
    ("scheme", |r| r.scheme.clone()),
    ("userinfo", |r| r.userinfo.clone()),
    ("host", |r| r.host.as_ref().map(host_cell)),
    ("port", |r| r.port.clone()),
    ("path", |r| r.path.clone()),
    ("query", |r| r.query.clone()),
    ("fragment", |r| r.fragment.clone()),
];

fn host_cell(h: &ReadHost) -> String {
    match h {
        ReadHost::Empty => "(empty)".to_owned(),
        _ => format!("{h} ({})", h.kind_name()),
    }
}

/// The components a difference is about, for the marks.
fn marked(d: &Difference) -> &'static [&'static str] {
    match d.code.name() {
        "READING_HOST_DIFFERS" => &["host"],
        "READING_USERINFO_ENCODED_DELIMITER" => &["userinfo", "host"],
        "READING_ENCODED_DOT_SEGMENT" | "READING_PATH_DIFFERS" => &["path"],
        _ => &[],
    }
}

/// A cell of the table: its text and its width in columns.
type Cell = (String, usize);

/// The widest a cell is shown, in columns; longer ones are cut with `…`.
const CELL: usize = 40;

/// `text` escaped and cut to [`CELL`] columns, with its width.
fn cell(text: &str) -> Cell {
    let shown = escape_invisible(text);
    if shown.width() <= CELL {
        let w = shown.width();
        return (shown.into_owned(), w);
    }
    let mut out = String::new();
    let mut w = 0;
    for c in shown.chars() {
        let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if w + cw > CELL - 1 {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    (out, w + 1)
}

/// Pads by writing spaces (no width from the input reaches a format).
fn pad(out: &mut String, width: usize, to: usize) {
    for _ in width..to {
        out.push(' ');
    }
}

/// The human table: the input, a header of readers, one row per component
/// that some reader has, `*` before a row whose readings differ, then each
/// difference in words.
pub(crate) fn side_by_side(input: &str, all: &Readings) -> String {
    let columns = all.all();
    let mut out = String::new();
    out.push_str(&escape_invisible(input));
    out.push('\n');
    let mut grid: Vec<(bool, &str, Vec<Cell>)> = Vec::new();
    let header: Vec<Cell> = columns
        .iter()
        .map(|(reader, _)| cell(reader.name()))
        .collect();
    let rejected = columns.iter().any(|(_, r)| r.is_err());
    for (name, get) in ROWS {
        let cells: Vec<Cell> = columns
            .iter()
            .map(|(_, reading)| match reading {
                Ok(r) => get(r).map_or((String::new(), 0), |v| {
                    if v.is_empty() {
                        cell("(empty)")
                    } else {
                        cell(&v)
                    }
                }),
                Err(_) if name == "scheme" => cell("(rejected)"),
                Err(_) => (String::new(), 0),
            })
            .collect();
        if cells.iter().all(|c| c.0.is_empty()) {
            continue;
        }
        let differs = all.differences().iter().any(|d| marked(d).contains(&name));
        grid.push((differs, name, cells));
    }
    let widths: Vec<usize> = (0..columns.len())
        .map(|i| {
            grid.iter()
                .map(|row| row.2[i].1)
                .chain([header[i].1])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let write_row = |out: &mut String, mark: &str, name: &str, cells: &[Cell]| {
        out.push_str(mark);
        out.push_str(name);
        pad(out, name.len(), 9);
        for (i, (text, w)) in cells.iter().enumerate() {
            out.push_str("  ");
            out.push_str(text);
            if i + 1 < cells.len() {
                pad(out, *w, widths[i]);
            }
        }
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    };
    write_row(&mut out, "  ", "", &header);
    for (differs, name, cells) in &grid {
        write_row(&mut out, if *differs { "* " } else { "  " }, name, cells);
    }
    if rejected {
        for (reader, reading) in &columns {
            if let Err(rejection) = reading {
                out.push_str(&format!(
                    "  {}: rejected: {}\n",
                    reader.name(),
                    escape_invisible(&rejection.message)
                ));
            }
        }
    }
    for d in all.differences() {
        out.push_str(&format!(
            "  {}: {}\n",
            d.code.name(),
            escape_invisible(&d.message)
        ));
    }
    out
}
