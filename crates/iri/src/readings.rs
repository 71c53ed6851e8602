//! `iri parse --readings`: every reader's components side by side, the
//! ones that differ marked; or, with `--json`, the same as data.

use iribis::readings::{Difference, ReadHost, Reader, Reading, Readings};
use iribis::render::escape_invisible;
use serde_json::{Map, Value, json};
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

fn reading_json(r: &Reading) -> Value {
    let opt = |s: &Option<String>| s.as_ref().map_or(Value::Null, |s| Value::String(s.clone()));
    json!({
        "scheme": opt(&r.scheme),
        "userinfo": opt(&r.userinfo),
        "host": r.host.as_ref().map_or(Value::Null, |h| Value::String(h.to_string())),
        "host_type": r.host.as_ref().map_or(Value::Null, |h| Value::String(h.kind_name().into())),
        "address_class": r.host.as_ref().and_then(ReadHost::address_class).map_or(Value::Null, |c| Value::String(c.name().into())),
        "port": opt(&r.port),
        "path": opt(&r.path),
        "query": opt(&r.query),
        "fragment": opt(&r.fragment),
    })
}

/// Adds `readings` (one object per reader: its components, or `{"error":
/// …}` when it rejects the input, `null` when it does not read it) and
/// `differences` (the `READING_` findings) to a `parse --json` answer.
pub(crate) fn add_json(m: &mut Map<String, Value>, input: &str, all: &Readings) {
    let mut readings = Map::new();
    for reader in Reader::ALL {
        readings.insert(reader.name().into(), Value::Null);
    }
    for (reader, reading) in all.all() {
        let value = match reading {
            Ok(r) => reading_json(r),
            Err(rejection) => json!({ "error": rejection.message }),
        };
        readings.insert(reader.name().into(), value);
    }
    m.insert("readings".into(), Value::Object(readings));
    let differences: Vec<Value> = all
        .differences()
        .iter()
        .map(|d| {
            let detail = all.detail(d);
            json!({
                "code": d.code.name(),
                "component": d.component.name(),
                "byte": d.start,
                "char": input.get(..d.start).map_or(0, |s| s.chars().count()),
                "len": input.get(d.start..d.end).map_or(0, |s| s.chars().count()),
                "readers": d.readers.iter().map(|r| r.name()).collect::<Vec<_>>(),
                "reached": detail.reached,
                "address_class": detail.address_class.map(|c| c.name()),
                "message": d.message,
            })
        })
        .collect();
    m.insert("differences".into(), Value::Array(differences));
}
