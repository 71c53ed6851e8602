//! Text for a terminal: what the reports of [`ParseError`](crate::error::ParseError),
//! [`Violation::underline`](crate::check::Violation::underline) and the `iri`
//! command show of an input.
//!
//! Two rules. A character that prints as nothing, or that a terminal would
//! act on (controls such as ESC and BEL, C1 controls, DEL, bidi formatting
//! characters, zero-width characters, private-use characters,
//! noncharacters, tags), is never written raw: it is shown as `\u{1B}`.
//! And a report shows a bounded window of the input around a position,
//! never the whole input, so that its size does not grow with the input's
//! length, nor with the number of findings times that length.

use crate::prelude::*;
use alloc::borrow::Cow;

use unicode_width::UnicodeWidthChar;

use crate::chars;
use crate::profile::Profile;

/// Display columns of the input shown on each side of a span.
const CONTEXT: usize = 40;
/// Display columns of a span shown before it is cut.
const SPAN: usize = 80;
/// The mark where a window cuts the input.
const CUT: char = '…';

/// Whether `c` is shown escaped (`\u{..}`) rather than written to a
/// terminal: controls (C0, DEL, C1), format characters (soft hyphen,
/// zero-width characters, bidi formatting characters, word joiner, BOM),
/// every other Default_Ignorable_Code_Point (the combining grapheme joiner,
/// the Hangul fillers: characters that show nothing) but the variation
/// selectors of the BMP, which choose how the character before them shows
/// (`❤️` is U+2764 U+FE0F) and stay, the line and paragraph separators,
/// private-use characters, noncharacters, specials and tags.
///
/// ```
/// assert!(iribis::render::is_invisible('\u{1B}'));
/// assert!(iribis::render::is_invisible('\u{9B}'));
/// assert!(iribis::render::is_invisible('\u{202E}'));
/// assert!(iribis::render::is_invisible('\u{3164}')); // HANGUL FILLER
/// assert!(iribis::render::is_invisible('\u{34F}')); // COMBINING GRAPHEME JOINER
/// assert!(!iribis::render::is_invisible('é'));
/// assert!(!iribis::render::is_invisible('\u{FE0F}'));
/// ```
pub fn is_invisible(c: char) -> bool {
    let variation_selector =
        matches!(c, '\u{180B}'..='\u{180D}' | '\u{180F}' | '\u{FE00}'..='\u{FE0F}');
    c.is_control()
        || chars::is_bidi_formatting(c)
        || (crate::unicode::is_default_ignorable(c) && !variation_selector)
        || matches!(
            c,
            '\u{AD}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{FEFF}'
        )
        || matches!(c, '\u{FDD0}'..='\u{FDEF}' | '\u{FFF0}'..='\u{FFFF}')
        || (c as u32 & 0xFFFE) == 0xFFFE
        || chars::is_iprivate(c, Profile::Rfc3987bis)
        || (0xE0000..=0xE0FFF).contains(&(c as u32))
}

/// A character as messages name it: `'é' (U+00E9)`, or only its code
/// point (`U+200E`) for one that does not show by itself: an
/// [invisible](is_invisible) character, whitespace or a combining mark.
/// The one spelling of a character in parse errors and check findings.
pub(crate) fn describe(c: char) -> String {
    if shows_alone(c) {
        format!("'{c}' (U+{:04X})", c as u32)
    } else {
        format!("U+{:04X}", c as u32)
    }
}

/// Whether `c` shows by itself between quotes in a message: not
/// [invisible](is_invisible), whitespace or a combining mark.
///
/// ```
/// use iribis::render::shows_alone;
///
/// assert!(shows_alone('a'));
/// assert!(!shows_alone(' '));
/// assert!(!shows_alone('\u{200B}'));
/// ```
pub fn shows_alone(c: char) -> bool {
    !(is_invisible(c) || c.is_whitespace() || crate::unicode::is_combining_mark(c))
}

/// `text` with every [invisible](is_invisible) character written as
/// `\u{..}` (uppercase hexadecimal): safe to write to a terminal. Borrowed
/// when there is nothing to escape.
///
/// ```
/// assert_eq!(iribis::render::escape_invisible("http://a/\u{1B}c\u{7}"), "http://a/\\u{1B}c\\u{7}");
/// assert_eq!(iribis::render::escape_invisible("http://例え.jp/"), "http://例え.jp/");
/// ```
pub fn escape_invisible(text: &str) -> Cow<'_, str> {
    // Printable ASCII, the common case, needs no look at each character.
    if text.bytes().all(|b| (0x20..0x7F).contains(&b)) || !text.chars().any(is_invisible) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_shown(&mut shown, c);
    }
    Cow::Owned(shown)
}

/// Whether a terminal acts on `c` rather than printing it: C0 controls,
/// DEL, C1 controls, the bidi formatting characters (RFC 3987 §4.1) and
/// the line and paragraph separators. A subset of [`is_invisible`].
///
/// ```
/// assert!(iribis::render::is_terminal_control('\u{1B}'));
/// assert!(iribis::render::is_terminal_control('\u{202E}'));
/// assert!(!iribis::render::is_terminal_control('\u{200D}'));
/// ```
pub fn is_terminal_control(c: char) -> bool {
    c.is_control() || chars::is_bidi_formatting(c) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// `text` with every [terminal control](is_terminal_control) written as
/// `\u{..}`: for a line that is data, such as the result of `iri to-iri`
/// or `iri normalize`, which must stay the value it is where that is
/// harmless (a zero-width joiner a script needs is kept), and must never
/// act on the terminal. Borrowed when there is nothing to escape.
///
/// ```
/// assert_eq!(iribis::render::escape_controls("a\u{1B}b\u{200D}c"), "a\\u{1B}b\u{200D}c");
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if text.bytes().all(|b| (0x20..0x7F).contains(&b)) || !text.chars().any(is_terminal_control) {
        return Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_terminal_control(c) {
            shown.push_str(&format!("\\u{{{:X}}}", c as u32));
        } else {
            shown.push(c);
        }
    }
    Cow::Owned(shown)
}

/// `text` as a report shows a whole line of input: [escaped](escape_invisible),
/// and in a left-to-right embedding when it has right-to-left characters
/// (RFC 3987 §4.1), as the windows of [`underline`] are.
///
/// ```
/// assert_eq!(iribis::render::escape_line("http://a/\u{1B}"), "http://a/\\u{1B}");
/// assert_eq!(iribis::render::escape_line("http://a/\u{5D0}"), "\u{202A}http://a/\u{5D0}\u{202C}");
/// ```
pub fn escape_line(text: &str) -> Cow<'_, str> {
    let shown = escape_invisible(text);
    if text.chars().any(chars::is_rtl) {
        Cow::Owned(format!("\u{202A}{shown}\u{202C}"))
    } else {
        shown
    }
}

/// A window of `text` around the bytes `start..end`, as a terminal shows it,
/// and the line to print beneath it with `^` under that span.
///
/// The window holds about 40 display columns on each side of the span and
/// at most 80 of the span itself, with `…` where it cuts the text;
/// [invisible](is_invisible) characters are escaped, and a window with
/// right-to-left characters is shown in a left-to-right embedding (RFC 3987
/// §4.1) so that the marks stay under the right characters. The marks are
/// placed by display width (CJK characters are two columns wide). Offsets
/// past the end, or inside a character, are moved back to a character
/// boundary.
///
/// ```
/// let (shown, marks) = iribis::render::underline("http://例え.jp/%7e", 17, 20);
/// assert_eq!(shown, "http://例え.jp/%7e");
/// assert_eq!(marks, format!("{}^^^", " ".repeat(15)));
///
/// let long = format!("http://a/{}%zz", "b".repeat(1000));
/// let (shown, marks) = iribis::render::underline(&long, 1009, 1010);
/// assert!(shown.starts_with('…') && shown.ends_with("b%zz"));
/// assert_eq!(marks.trim_start(), "^");
/// assert!(shown.chars().count() < 50);
/// ```
pub fn underline(text: &str, start: usize, end: usize) -> (String, String) {
    let (shown, from, to) = render_span(text, start, end);
    let mut marks = " ".repeat(from);
    marks.push_str(&"^".repeat(to.saturating_sub(from).max(1)));
    (shown, marks)
}

/// The report of an error at byte `byte` (character `char`) in `component`
/// by `spec`: the message, where, and a window of `shown` with the bytes
/// `span` of it underlined. The format of the `iri` command's error reports
/// for an error that is not a [`ParseError`](crate::ParseError) (which has
/// its own [`report`](crate::ParseError::report)).
///
/// ```
/// let r = iribis::render::error_report("bad", 2, 2, "path", "my.pest", "a/%", (2, 3));
/// assert_eq!(r, "error: bad\n --> byte 2, character 2, in the path (my.pest)\n  |\n  | a/%\n  |   ^");
/// ```
pub fn error_report(
    message: &str,
    byte: usize,
    char: usize,
    component: &str,
    spec: &str,
    shown: &str,
    span: (usize, usize),
) -> String {
    let (window, marks) = underline(shown, span.0, span.1);
    format!(
        "error: {}\n --> byte {byte}, character {char}, in the {component} ({spec})\n  |\n  | {window}\n  | {marks}",
        escape_invisible(message)
    )
}

/// A window of `input` around the bytes `start..end` (see [`underline`]),
/// with the display columns where the span starts and ends in it, for a
/// caret or an underline beneath. Costs time in the window's length, not
/// the input's.
pub(crate) fn render_span(input: &str, start: usize, end: usize) -> (String, usize, usize) {
    let start = floor_boundary(input, start);
    let end = floor_boundary(input, end.max(start));
    // The context before the span: whole characters, up to CONTEXT columns.
    let mut left = start;
    let mut width = 0;
    for (i, c) in input[..start].char_indices().rev() {
        width += budget_width(c);
        if width > CONTEXT {
            break;
        }
        left = i;
    }
    // The span, up to SPAN columns.
    let mut span_end = start;
    width = 0;
    for (i, c) in input[start..end].char_indices() {
        width += budget_width(c);
        if width > SPAN {
            break;
        }
        span_end = start + i + c.len_utf8();
    }
    let span_cut = span_end < end;
    // The context after the span, when the span is whole.
    let mut right = end;
    if !span_cut {
        width = 0;
        for (i, c) in input[end..].char_indices() {
            width += budget_width(c);
            if width > CONTEXT {
                break;
            }
            right = end + i + c.len_utf8();
        }
    }

    let mut shown = String::new();
    let push = |shown: &mut String, part: &str| part.chars().for_each(|c| push_shown(shown, c));
    if left > 0 {
        shown.push(CUT);
    }
    push(&mut shown, &input[left..start]);
    let from = col_of(&shown);
    push(&mut shown, &input[start..span_end]);
    if span_cut {
        shown.push(CUT);
    }
    let to = col_of(&shown);
    if !span_cut {
        push(&mut shown, &input[end..right]);
        if right < input.len() {
            shown.push(CUT);
        }
    }
    let window = &input[left..if span_cut { span_end } else { right }];
    if window.chars().any(chars::is_rtl) {
        // LEFT-TO-RIGHT EMBEDDING ... POP DIRECTIONAL FORMATTING.
        shown = format!("\u{202A}{shown}\u{202C}");
    }
    (shown, from, to)
}

/// The display columns of `shown` (text already escaped).
fn col_of(shown: &str) -> usize {
    shown.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// Appends `c` as a terminal shows it: itself, or escaped.
fn push_shown(shown: &mut String, c: char) {
    if is_invisible(c) {
        shown.push_str(&format!("\\u{{{:X}}}", c as u32));
    } else {
        shown.push(c);
    }
}

/// The share of a window's budget `c` takes: its display columns once
/// shown, and at least one, so that a run of zero-width characters (a
/// combining mark repeated) cannot make the window unbounded.
fn budget_width(c: char) -> usize {
    shown_width(c).max(1)
}

/// The display columns `c` takes once shown.
fn shown_width(c: char) -> usize {
    if is_invisible(c) {
        format!("\\u{{{:X}}}", c as u32).len()
    } else {
        c.width().unwrap_or(0)
    }
}

/// `i`, or the start of the character it falls in, within `text`.
fn floor_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_shown_whole() {
        assert_eq!(
            render_span("http://a/b c", 10, 11),
            ("http://a/b c".to_owned(), 10, 11)
        );
        assert_eq!(render_span("", 0, 0), (String::new(), 0, 0));
        assert_eq!(render_span("ab", 2, 2), ("ab".to_owned(), 2, 2));
    }

    #[test]
    fn escapes_count_their_width() {
        let (shown, from, to) = render_span("a\u{1B}b\u{202E}c", 3, 6);
        assert_eq!(shown, "a\\u{1B}b\\u{202E}c");
        assert_eq!((from, to), (8, 16));
    }

    #[test]
    fn long_input_is_windowed_on_both_sides() {
        let input = format!("{}X{}", "a".repeat(70_000), "b".repeat(70_000));
        let (shown, from, to) = render_span(&input, 70_000, 70_001);
        assert_eq!(shown, format!("…{}X{}…", "a".repeat(40), "b".repeat(40)));
        assert_eq!((from, to), (41, 42));
    }

    #[test]
    fn long_span_is_cut() {
        let input = "é".repeat(500);
        let (shown, from, to) = render_span(&input, 0, input.len());
        assert_eq!(shown, format!("{}…", "é".repeat(80)));
        assert_eq!((from, to), (0, 81));
    }

    #[test]
    fn wide_characters_and_embedding() {
        let (shown, from, to) = render_span("http://例え.jp/%7e", 17, 20);
        assert_eq!((shown.as_str(), from, to), ("http://例え.jp/%7e", 15, 18));
        let (shown, ..) = render_span("http://a/\u{5D0}", 9, 11);
        assert_eq!(shown, "\u{202A}http://a/\u{5D0}\u{202C}");
    }

    #[test]
    fn offsets_inside_a_character_move_back() {
        assert_eq!(render_span("aé", 2, 9), ("aé".to_owned(), 1, 2));
    }
}
