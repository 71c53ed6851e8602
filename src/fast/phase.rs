//! The delimiter automaton of the fast path: RFC 3986 Appendix B's
//! expression `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`,
//! with the authority's "@", ":" and brackets, as states ("phases") and
//! transitions over bytes.
//!
//! The generator in `gen/` (through `iribis::__gen::phase`) crosses each grammar DFA
//! with this automaton, so every state of the tables it writes carries the
//! phase its input is in; the split (`super::split`) reads the components
//! off how many bytes the walk spent in each phase. That works because the
//! phases come in the order of the components and every transition goes
//! forward in that order: phase k was entered at the position equal to the
//! number of bytes spent in the phases before it.

// The phases, in the order of the components: every transition goes from
// a phase to itself or to a later one.

/// Nothing read yet.
pub const START: u8 = 0;
/// In a first run of bytes with none of ":/?#": a scheme if a ":"
/// follows, else the path.
pub const FIRST: u8 = 1;
/// The scheme's ":".
pub const SCHEME: u8 = 2;
/// A "/" where the hierarchical part starts.
pub const SLASH: u8 = 3;
/// The second "/" of "//", and the authority up to its first ":", "@"
/// or "[".
pub const AUTHORITY: u8 = 4;
/// From a ":" before any "@": the userinfo's or the port's.
pub const COLON: u8 = 5;
/// From the "@" that ends the userinfo.
pub const HOST: u8 = 6;
/// From the "[" that opens an IP literal.
pub const LITERAL: u8 = 7;
/// The "]" that closes it.
pub const CLOSED: u8 = 8;
/// From the ":" of the port, after an "@" or an IP literal.
pub const PORT: u8 = 9;
/// From the delimiter that starts the path, if any.
pub const PATH: u8 = 10;
/// From the "?".
pub const QUERY: u8 = 11;
/// From the "#".
pub const FRAGMENT: u8 = 12;
/// The number of phases.
pub const COUNT: usize = 13;

/// The phase after `s` reads `b`. Transitions that no valid reference
/// takes (such as "[" after a ":" in the authority) go anywhere forward.
///
/// `gen/` compiles this function into the tables; in the library, the
/// tests check the tables against it.
pub fn next(s: u8, b: u8) -> u8 {
    match (s, b) {
        // "#" ends everything before the fragment, "?" everything before
        // the query.
        (FRAGMENT, _) => FRAGMENT,
        (_, b'#') => FRAGMENT,
        (QUERY, _) => QUERY,
        (_, b'?') => QUERY,
        // A scheme needs one character at least, so a first ":" starts a path.
        (START, b':') => PATH,
        (START, b'/') | (SCHEME, b'/') => SLASH,
        (START, _) => FIRST,
        (FIRST, b':') => SCHEME,
        (FIRST, b'/') => PATH,
        (FIRST, _) => FIRST,
        (SLASH, b'/') => AUTHORITY,
        (SCHEME | SLASH | PATH, _) => PATH,
        // In the authority, "/" starts the path.
        (_, b'/') => PATH,
        (AUTHORITY, b':') => COLON,
        (AUTHORITY | COLON, b'@') => HOST,
        (AUTHORITY | HOST, b'[') => LITERAL,
        (LITERAL, b']') => CLOSED,
        (HOST | CLOSED, b':') => PORT,
        (s, _) => s,
    }
}
