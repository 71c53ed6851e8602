//! Pest grammars loaded at run time: pest_meta parses and validates the
//! text, pest_vm runs it.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest_meta::ast::RuleType;
use pest_meta::optimizer::{OptimizedExpr, OptimizedRule};
use pest_vm::Vm;

use super::limits;

use iribis::Profile;

/// The prefix of the wrapper rules added to every loaded grammar: for each
/// rule `r`, `<prefix>r = { SOI ~ r ~ EOI }`, so that a rule matches only
/// when it consumes the whole input (as the built-in parsers do, see
/// `grammar/whole-*.pest`).
const WHOLE: &str = "lab_whole__";

/// The pest files of the built-in grammar of each profile, in order (the
/// `whole-*.pest` wrappers left out: loading adds its own).
fn builtin_files(profile: Profile) -> &'static [(&'static str, &'static str)] {
    iribis::grammar::pest_files(profile)
}

/// A pest grammar loaded at run time.
///
/// Every rule can be the start rule and must then consume the whole input.
///
/// ```
/// use iribis_lab::PestGrammar;
///
/// let g = PestGrammar::parse("digits = { ASCII_DIGIT+ }\n", "mine.pest").unwrap();
/// assert!(g.accepts("digits", "2025"));
/// assert!(!g.accepts("digits", "20a5"));
/// let err = PestGrammar::parse("digits = { ASCII_DIGIT+ \n", "bad.pest").unwrap_err();
/// assert!(err.to_string().contains("--> bad.pest:2:1"), "{err}");
/// ```
pub struct PestGrammar {
    vm: Vm,
    /// The rules of the text, in order.
    rules: Vec<String>,
    /// Each rule's position in `rules`.
    index: HashMap<String, usize>,
    /// The text and its origin, to build variants with more rules.
    source: String,
    origin: String,
    /// See [`PestGrammar::char_bounds`].
    bounds: Option<Vec<u32>>,
    /// pest_meta's optimized expression of each rule of the text (what
    /// pest_vm runs), for the lab's automata and test strings.
    exprs: HashMap<String, OptimizedExpr>,
    /// The grammar compiled for [`PestGrammar::trace`], on first use.
    traced: std::sync::OnceLock<Result<super::trace::Program, String>>,
}

impl fmt::Debug for PestGrammar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PestGrammar")
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

/// A pest grammar that pest_meta rejects, a file that cannot be read, a
/// limit of the lab reached (see [`crate::MAX_NESTING`]), or a check
/// that cannot be made. Displays pest_meta's reports, each with the file,
/// line and column, or the lab's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarError {
    pub(crate) message: String,
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GrammarError {}

/// A node of a [`RuntimeTree`]: a rule of a [`PestGrammar`] and its span.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuntimeNode {
    /// The pest rule name.
    pub rule: String,
    /// Byte offset where the match starts.
    pub start: usize,
    /// Byte offset where it ends (exclusive).
    pub end: usize,
    /// 0 for the start rule.
    pub depth: usize,
}

/// The derivation of an input by a [`PestGrammar`]: the visible rules that
/// matched, in pre-order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuntimeTree {
    /// The nodes, a parent before its children.
    pub nodes: Vec<RuntimeNode>,
}

/// Why an input does not match: where pest got furthest and which rules
/// could have matched there.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RuntimeFailure {
    /// Byte offset of the failure.
    pub byte: usize,
    /// Character offset of the failure.
    pub char: usize,
    /// The rules (pest names) expected there; `EOI` when the input could have
    /// ended.
    pub expected: Vec<String>,
    /// Set when pest gave up instead of deciding, with pest's message: the
    /// input needs more nested calls of the grammar's rules than the stack
    /// holds ("stack limit reached"), or, when a call limit is set
    /// (`pest::set_call_limit`, as the playground does), the parse made
    /// more rule calls than it allows ("call limit reached"). Not a verdict
    /// on the input.
    pub limit: Option<String>,
}

/// How reports spell a rule of a runtime grammar: a rule with the pest
/// name of one of the spec's rules by its ABNF name (`IP_literal` is
/// `IP-literal`, as the built-in grammar's trees and errors write it), any
/// other rule as the grammar names it.
///
/// ```
/// use iribis_lab::spelling;
///
/// assert_eq!(spelling("IP_literal"), "IP-literal");
/// assert_eq!(spelling("ZoneID"), "ZoneID");
/// assert_eq!(spelling("ip_literal"), "ip_literal");
/// ```
pub fn spelling(rule: &str) -> &str {
    match iribis::GrammarRule::from_name(rule) {
        Some(r) if r.pest_name() == rule => r.abnf_name(),
        _ => rule,
    }
}

impl RuntimeTree {
    /// One line per node, indented by depth: rule (see [`spelling`]), byte
    /// span, matched text (the format of `iri tree`).
    pub fn render(&self, input: &str) -> String {
        let mut out = String::new();
        for n in &self.nodes {
            let text = input.get(n.start..n.end).unwrap_or("");
            // Spaces written out: a width taken from the input (the depth)
            // could pass what `format!` allows.
            out.extend(std::iter::repeat_n(' ', n.depth * 2));
            out.push_str(&format!(
                "{} {}..{} {:?}\n",
                spelling(&n.rule),
                n.start,
                n.end,
                text
            ));
        }
        out
    }
}

impl RuntimeFailure {
    /// The failure explained as the built-in grammar of `profile` explains
    /// its own (the same message, component and kind), when `rule` is one
    /// of the spec's rules by name (ABNF or pest spelling): the position
    /// and expected rules stay this grammar's. `None` for a rule the spec
    /// does not have, or when pest gave up.
    ///
    /// ```
    /// use iribis::{Component, Profile};
    /// use iribis_lab::PestGrammar;
    ///
    /// let g = PestGrammar::builtin(Profile::Rfc3987bis);
    /// let input = "http://[::1%25eth0]/";
    /// let f = g.tree("IRI_reference", input).unwrap_err();
    /// let e = f.explain(input, "IRI_reference", Profile::Rfc3987bis).unwrap();
    /// assert_eq!(e.component(), Component::Host);
    /// assert!(e.message().starts_with("'%' is not allowed in an IP literal"));
    /// ```
    pub fn explain(&self, input: &str, rule: &str, profile: Profile) -> Option<iribis::ParseError> {
        if self.limit.is_some() {
            return None;
        }
        let rule = iribis::GrammarRule::from_name(rule)?.for_profile(profile);
        let expected = self
            .expected
            .iter()
            .filter_map(|r| iribis::GrammarRule::from_name(r))
            .collect();
        // pest's EOI is the end of the input, as the built-in grammar's
        // errors name it (`Expected::End`).
        let end_allowed = self.expected.iter().any(|r| r == "EOI");
        Some(iribis::ParseError::explained_at(
            input,
            profile,
            rule,
            self.byte,
            expected,
            end_allowed,
        ))
    }
}

impl RuntimeFailure {
    /// The expected rules as reports name them, the way the built-in
    /// grammar's errors do ([`iribis::Expected`]): each rule by its
    /// [`spelling`], and pest's `EOI` as `the end`, last.
    ///
    /// ```
    /// use iribis::Profile;
    /// use iribis_lab::PestGrammar;
    ///
    /// let g = PestGrammar::builtin(Profile::Rfc3987bis);
    /// let f = g.tree("IRI_reference", "http://a/b c").unwrap_err();
    /// assert_eq!(f.expected_items(), ["ipchar", "path-sep", "the end"]);
    /// assert!(f.to_string().ends_with("expected ipchar, path-sep or the end"));
    /// ```
    pub fn expected_items(&self) -> Vec<String> {
        let mut items: Vec<String> = self
            .expected
            .iter()
            .filter(|r| *r != "EOI")
            .map(|r| spelling(r).to_owned())
            .collect();
        if self.expected.iter().any(|r| r == "EOI") {
            items.push("the end".to_owned());
        }
        items
    }
}

impl fmt::Display for RuntimeFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(limit) = &self.limit {
            // Each of pest's two ways of giving up says what ran out.
            return if limit.starts_with("call limit") {
                write!(
                    f,
                    "the parse made more rule calls than pest's call limit allows: the grammar backtracks too much on this input (pest: {limit}, at character {}): no verdict",
                    self.char
                )
            } else {
                write!(
                    f,
                    "the grammar needs more nested calls than the stack holds for this input (pest: {limit}, at character {}): no verdict",
                    self.char
                )
            };
        }
        write!(
            f,
            "no match: stopped at character {} (byte {})",
            self.char, self.byte
        )?;
        let mut items = self.expected_items();
        if let Some(last) = items.pop() {
            f.write_str(", expected ")?;
            if !items.is_empty() {
                write!(f, "{} or ", items.join(", "))?;
            }
            f.write_str(&last)?;
        }
        Ok(())
    }
}

impl PestGrammar {
    /// Parses and validates a pest grammar; `origin` names it in errors.
    ///
    /// The text is first held to the lab's limits (see [`crate::MAX_NESTING`],
    /// [`crate::MAX_REPETITION`], [`crate::MAX_EXPRESSIONS`]), then
    /// pest_meta parses, validates and optimizes it on a thread with a stack
    /// large enough for any grammar within them.
    ///
    /// ```
    /// use iribis_lab::PestGrammar;
    ///
    /// let deep = format!("a = {{ {}\"x\"{} }}", "(".repeat(5000), ")".repeat(5000));
    /// let err = PestGrammar::parse(&deep, "deep.pest").unwrap_err();
    /// assert_eq!(err.to_string(), "deep.pest:1: grammar nesting deeper than 1,000 levels");
    /// ```
    pub fn parse(text: &str, origin: &str) -> Result<PestGrammar, GrammarError> {
        limits::scan_pest(text, origin).map_err(|message| GrammarError { message })?;
        // Wrapping copies the expressions, by recursion too.
        limits::on_big_stack(|| {
            load(text, origin).and_then(|loaded| PestGrammar::wrap(loaded, text, origin))
        })
        .map_err(|message| GrammarError { message })?
    }

    /// Adds the whole-input wrappers to the rules pest_meta returned.
    fn wrap(
        (mut optimized, bounds): Loaded,
        text: &str,
        origin: &str,
    ) -> Result<PestGrammar, GrammarError> {
        let rules: Vec<String> = optimized.iter().map(|r| r.name.clone()).collect();
        let exprs = optimized
            .iter()
            .map(|r| (r.name.clone(), r.expr.clone()))
            .collect();
        if let Some(r) = rules.iter().find(|r| r.starts_with(WHOLE)) {
            return Err(GrammarError {
                message: format!(
                    "{origin}: rule {r}: names starting with {WHOLE} are the lab's own (it adds {WHOLE}r = {{ SOI ~ r ~ EOI }} for each rule r): rename it"
                ),
            });
        }
        // The whole-input wrappers, as pest_meta would optimize
        // `lab_whole__r = { SOI ~ r ~ EOI }` (pest_vm skips implicit
        // whitespace between the terms itself).
        for r in &rules {
            let ident = |n: &str| Box::new(OptimizedExpr::Ident(n.to_string()));
            optimized.push(OptimizedRule {
                name: format!("{WHOLE}{r}"),
                ty: RuleType::Normal,
                expr: OptimizedExpr::Seq(
                    ident("SOI"),
                    Box::new(OptimizedExpr::Seq(ident(r), ident("EOI"))),
                ),
            });
        }
        let index = rules.iter().cloned().zip(0..).collect();
        Ok(PestGrammar {
            vm: Vm::new(optimized),
            rules,
            index,
            source: text.to_string(),
            origin: origin.to_string(),
            bounds,
            exprs,
            traced: std::sync::OnceLock::new(),
        })
    }

    /// The grammar compiled for [`PestGrammar::trace`] (compiled once, on
    /// the calling thread, which must have the stack for it).
    pub(crate) fn traced(&self) -> &Result<super::trace::Program, String> {
        self.traced
            .get_or_init(|| super::trace::Program::compile(&self.source))
    }

    /// pest_meta's optimized expression of each rule, by name.
    pub(crate) fn exprs(&self) -> &HashMap<String, OptimizedExpr> {
        &self.exprs
    }

    /// The code points where some expression of the grammar starts or stops
    /// matching a character: every range's ends, every string's first
    /// character (both cases for `^"..."`), the built-in ASCII classes.
    /// Between two consecutive bounds, a one-character input fares the same
    /// whatever the character: every expression that looks at the
    /// character answers the same for all of them, and nothing else depends
    /// on it. `None` when the grammar uses something this cannot see through
    /// (Unicode properties, the stack, skips).
    pub(crate) fn char_bounds(&self) -> Option<&[u32]> {
        self.bounds.as_deref()
    }

    /// Reads and parses a grammar file.
    ///
    /// ```no_run
    /// let g = iribis_lab::PestGrammar::load("my.pest".as_ref())?;
    /// # Ok::<(), iribis_lab::GrammarError>(())
    /// ```
    pub fn load(path: &Path) -> Result<PestGrammar, GrammarError> {
        let text = std::fs::read_to_string(path).map_err(|e| GrammarError {
            message: format!("{}: cannot read the grammar: {e}", path.display()),
        })?;
        PestGrammar::parse(&text, &path.display().to_string())
    }

    /// The built-in grammar of a profile, as the library's parsers use it.
    ///
    /// ```
    /// use iribis::Profile;
    /// use iribis_lab::PestGrammar;
    ///
    /// let g = PestGrammar::builtin(Profile::Rfc3986);
    /// assert!(g.accepts("URI", "http://example.org/"));
    /// ```
    pub fn builtin(profile: Profile) -> PestGrammar {
        // Known to be shallow: loaded on this thread, which needs no
        // resources that could be missing.
        let text = PestGrammar::builtin_source(profile);
        load(&text, "built-in")
            .and_then(|loaded| PestGrammar::wrap(loaded, &text, "built-in"))
            .unwrap_or_else(|e| {
                unreachable!("the built-in grammars compile (pest_derive checks them): {e}")
            })
    }

    /// The text of a profile's built-in grammar: its pest files one after
    /// the other, each under a comment naming it. `iri grammar show` prints
    /// it, for editing.
    ///
    /// ```
    /// let text = iribis_lab::PestGrammar::builtin_source(iribis::Profile::Rfc3987bis);
    /// assert!(text.contains("ireg_name = {"));
    /// ```
    pub fn builtin_source(profile: Profile) -> String {
        let mut out = format!(
            "// The built-in pest grammar of iribis, profile {profile}: the files below,\n// in this order. Edit it and run it with `iri parse --grammar FILE.pest`,\n// `iri tree --grammar FILE.pest` or `iri grammar diff FILE.pest`.\n"
        );
        for (name, text) in builtin_files(profile) {
            out.push_str(&format!("\n// ======== {name} ========\n\n"));
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push('\n');
            }
        }
        out
    }

    /// The rules of the grammar closest to `name` (by edit distance, case,
    /// `-` and `_` aside), best first, at most three: for "did you mean".
    ///
    /// ```
    /// let g = iribis_lab::PestGrammar::builtin(iribis::Profile::Rfc3987bis);
    /// assert_eq!(g.suggest("ip-litral"), ["IP_literal"]);
    /// ```
    pub fn suggest(&self, name: &str) -> Vec<&str> {
        let key = |s: &str| s.to_ascii_lowercase().replace('-', "_");
        let want = key(name);
        // Rule names are short: a name much longer than any is no typo of
        // one, and is not compared (the distance takes time in the product
        // of the lengths).
        if want.len() > 256 {
            return Vec::new();
        }
        let limit = (want.chars().count() / 3).max(2);
        let mut close: Vec<(usize, &str)> = self
            .rule_names()
            .map(|r| (strsim::levenshtein(&key(r), &want), r))
            .filter(|&(d, _)| d <= limit)
            .collect();
        close.sort();
        close.into_iter().take(3).map(|(_, r)| r).collect()
    }

    /// The rules of the grammar, in order, by pest name.
    pub fn rule_names(&self) -> impl Iterator<Item = &str> {
        self.rules.iter().map(String::as_str)
    }

    /// Finds a rule by pest name (`ireg_name`) or ABNF name (`ireg-name`),
    /// exactly first, then regardless of case (ABNF rule names are
    /// case-insensitive, RFC 5234 §2.1; pest's are not, so an exact match
    /// wins when two rules differ only in case).
    ///
    /// ```
    /// let g = iribis_lab::PestGrammar::builtin(iribis::Profile::Rfc3987bis);
    /// assert_eq!(g.resolve("IP-literal"), Some("IP_literal"));
    /// assert_eq!(g.resolve("ipv6address"), Some("IPv6address"));
    /// assert_eq!(g.resolve("nope"), None);
    /// ```
    pub fn resolve(&self, name: &str) -> Option<&str> {
        let pest = name.replace('-', "_");
        match self.index.get_key_value(&pest) {
            Some((r, _)) => Some(r.as_str()),
            None => self.rule_names().find(|r| r.eq_ignore_ascii_case(&pest)),
        }
    }

    /// Whether `rule` (a pest name, see [`PestGrammar::resolve`]) matches the
    /// whole input. An unknown rule matches nothing.
    /// An input on which pest gives up (see [`RuntimeFailure::limit`]) is
    /// not accepted; [`PestGrammar::tree`] tells the two apart.
    pub fn accepts(&self, rule: &str, input: &str) -> bool {
        self.verdict(rule, input) == Ok(true)
    }

    /// Whether `rule` matches the whole input, or the failure when pest gave
    /// up without deciding (see [`RuntimeFailure::limit`]).
    pub(crate) fn verdict(&self, rule: &str, input: &str) -> Result<bool, RuntimeFailure> {
        if !self.has(rule) {
            return Ok(false);
        }
        match self.vm.parse(&format!("{WHOLE}{rule}"), input) {
            Ok(_) => Ok(true),
            Err(e) => {
                let f = failure(&e, input);
                if f.limit.is_some() { Err(f) } else { Ok(false) }
            }
        }
    }

    /// This grammar with more rules added at the end (for the lab's own
    /// probes); the added rules are not among [`PestGrammar::rule_names`].
    pub(crate) fn with_rules(&self, extra: &str) -> Result<PestGrammar, GrammarError> {
        let mut g = PestGrammar::parse(&format!("{}\n{extra}", self.source), &self.origin)?;
        for r in g.rules.drain(self.rules.len()..) {
            g.index.remove(&r);
        }
        Ok(g)
    }

    /// Parses with `rule` (a rule of the text or one added by
    /// [`PestGrammar::with_rules`]) from the start of the input, not
    /// requiring it to consume all of it, and returns the names of the rules
    /// of the top-level pairs' children to `each`; `false` when it fails,
    /// the failure when pest gave up (see [`RuntimeFailure::limit`]).
    pub(crate) fn probe(
        &self,
        rule: &str,
        input: &str,
        mut each: impl FnMut(&str),
    ) -> Result<bool, RuntimeFailure> {
        let pairs = match self.vm.parse(rule, input) {
            Ok(pairs) => pairs,
            Err(e) => {
                let f = failure(&e, input);
                return if f.limit.is_some() { Err(f) } else { Ok(false) };
            }
        };
        for p in pairs.flat_map(|p| p.into_inner()) {
            each(p.as_rule());
        }
        Ok(true)
    }

    fn has(&self, rule: &str) -> bool {
        self.index.contains_key(rule)
    }

    /// Parses the whole input with `rule` as the start rule (a pest name,
    /// see [`PestGrammar::resolve`]); an unknown rule fails at 0 expecting
    /// nothing.
    ///
    /// ```
    /// let g = iribis_lab::PestGrammar::builtin(iribis::Profile::Rfc3987bis);
    /// let tree = g.tree("h16", "0aF").unwrap();
    /// assert_eq!(tree.render("0aF").lines().next(), Some("h16 0..3 \"0aF\""));
    /// let fail = g.tree("h16", "0aFz").unwrap_err();
    /// assert_eq!(fail.byte, 3);
    /// ```
    pub fn tree(&self, rule: &str, input: &str) -> Result<RuntimeTree, RuntimeFailure> {
        if !self.has(rule) {
            return Err(RuntimeFailure {
                byte: 0,
                char: 0,
                expected: Vec::new(),
                limit: None,
            });
        }
        let wrapper = format!("{WHOLE}{rule}");
        match self.vm.parse(&wrapper, input) {
            Ok(pairs) => {
                let mut nodes = Vec::new();
                for p in pairs {
                    // The wrapper's pair: its children are the rule's and EOI.
                    for inner in p.into_inner() {
                        collect(inner, 0, &mut nodes);
                    }
                }
                Ok(RuntimeTree { nodes })
            }
            Err(e) => Err(failure(&e, input)),
        }
    }
}

/// pest_meta's rules of a grammar, and its [`PestGrammar::char_bounds`].
type Loaded = (Vec<OptimizedRule>, Option<Vec<u32>>);

/// Parses, validates and optimizes with pest_meta, on this thread (which
/// must have the stack for it).
fn load(text: &str, origin: &str) -> Result<Loaded, GrammarError> {
    // pest_meta::parse_and_optimize's steps, with the lab's count of the
    // validator's steps before it runs (see meta_cost).
    let report = |errors: Vec<pest::error::Error<pest_meta::parser::Rule>>| GrammarError {
        message: errors
            .into_iter()
            .map(|e| e.with_path(origin).to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    let pairs = pest_meta::parser::parse(pest_meta::parser::Rule::grammar_rules, text)
        .map_err(|e| report(vec![e]))?;
    pest_meta::validator::validate_pairs(pairs.clone()).map_err(report)?;
    super::meta_cost::check(pairs.clone(), origin).map_err(|message| GrammarError { message })?;
    let ast = pest_meta::parser::consume_rules(pairs).map_err(report)?;
    let user = pest_meta::optimizer::optimize(ast);
    let bounds = char_bounds(&user);
    Ok((user, bounds))
}

/// Our failure for pest's error.
fn failure(e: &pest::error::Error<&str>, input: &str) -> RuntimeFailure {
    let byte = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((p, _)) => p,
    };
    let (mut expected, limit): (Vec<String>, _) = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => (
            positives
                .iter()
                .map(|r| r.strip_prefix(WHOLE).unwrap_or(r).to_string())
                .collect(),
            None,
        ),
        // pest_vm's only custom errors: "stack limit reached" (and "call
        // limit reached", when a call limit is set).
        ErrorVariant::CustomError { message } => (Vec::new(), Some(message.clone())),
    };
    expected.sort();
    expected.dedup();
    let char = input.get(..byte).map_or(0, |s| s.chars().count());
    RuntimeFailure {
        byte,
        char,
        expected,
        limit,
    }
}

/// See [`PestGrammar::char_bounds`].
fn char_bounds(rules: &[OptimizedRule]) -> Option<Vec<u32>> {
    // A set: a list here made loading quadratic in the number of rules
    // (8 % of loading 10,000 rules, half of loading 100,000).
    let names: HashSet<&str> = rules.iter().map(|r| r.name.as_str()).collect();
    let mut b = vec![0, 0xD800, 0xE000, 0x11_0000];
    fn first(s: &str) -> Option<u32> {
        s.chars().next().map(|c| c as u32)
    }
    fn walk(e: &OptimizedExpr, names: &HashSet<&str>, b: &mut Vec<u32>) -> Option<()> {
        match e {
            OptimizedExpr::Str(s) => {
                if let Some(c) = first(s) {
                    b.extend([c, c + 1]);
                }
            }
            OptimizedExpr::Insens(s) => {
                if let Some(c) = s.chars().next() {
                    for x in [c.to_ascii_lowercase(), c.to_ascii_uppercase()] {
                        b.extend([x as u32, x as u32 + 1]);
                    }
                }
            }
            OptimizedExpr::Range(lo, hi) => {
                b.extend([first(lo)?, first(hi)? + 1]);
            }
            OptimizedExpr::Ident(name) => {
                let ranges: &[(char, char)] = match name.as_str() {
                    n if names.contains(n) => &[],
                    "ANY" | "SOI" | "EOI" => &[],
                    "NEWLINE" => &[('\n', '\n'), ('\r', '\r')],
                    other => super::automaton::ascii_class(other)?,
                };
                for &(lo, hi) in ranges {
                    b.extend([lo as u32, hi as u32 + 1]);
                }
            }
            OptimizedExpr::PosPred(x)
            | OptimizedExpr::NegPred(x)
            | OptimizedExpr::Opt(x)
            | OptimizedExpr::Rep(x)
            | OptimizedExpr::RestoreOnErr(x) => walk(x, names, b)?,
            OptimizedExpr::Seq(x, y) | OptimizedExpr::Choice(x, y) => {
                walk(x, names, b)?;
                walk(y, names, b)?;
            }
            _ => return None,
        }
        Some(())
    }
    for r in rules {
        walk(&r.expr, &names, &mut b)?;
    }
    b.retain(|&c| c <= 0x11_0000);
    b.sort_unstable();
    b.dedup();
    Some(b)
}

/// The visible nodes under `pair`, in pre-order (without a recursion: the
/// tree is as deep as the input made pest recurse).
fn collect(pair: Pair<'_, &str>, depth: usize, out: &mut Vec<RuntimeNode>) {
    let mut todo = vec![(pair, depth)];
    while let Some((pair, depth)) = todo.pop() {
        if pair.as_rule() == "EOI" {
            continue;
        }
        let span = pair.as_span();
        out.push(RuntimeNode {
            rule: pair.as_rule().to_string(),
            start: span.start(),
            end: span.end(),
            depth,
        });
        let children: Vec<_> = pair.into_inner().collect();
        todo.extend(children.into_iter().rev().map(|c| (c, depth + 1)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_grammars_agree_with_the_compiled_parsers() {
        // A few inputs per profile: the runtime grammar is the same text, so
        // it must decide as the pest_derive parser does.
        let inputs = [
            "http://a/b?c#d",
            "http://[v1.x]/",
            "http://r%C3%A9sum%C3%A9.example.org",
            "a b",
            "http://h/\u{E0041}?\u{E0041}",
            "x:\u{7F}",
        ];
        for profile in Profile::ALL {
            let g = PestGrammar::builtin(profile);
            let start = if profile == Profile::Rfc3986 {
                "URI_reference"
            } else {
                "IRI_reference"
            };
            for i in inputs {
                assert_eq!(
                    g.accepts(start, i),
                    iribis::IriRef::parse_with(i, &iribis::ParseOptions::new().profile(profile))
                        .is_ok(),
                    "{profile} {i:?}"
                );
            }
        }
    }

    #[test]
    fn trees_and_failures() {
        let g = PestGrammar::parse(
            "pair = { word ~ \"=\" ~ word }\nword = { ASCII_ALPHA+ }\n",
            "t.pest",
        )
        .unwrap();
        let t = g.tree("pair", "a=bc").unwrap();
        assert_eq!(
            t.render("a=bc"),
            "pair 0..4 \"a=bc\"\n  word 0..1 \"a\"\n  word 2..4 \"bc\"\n"
        );
        let f = g.tree("pair", "a=b1").unwrap_err();
        assert_eq!((f.byte, f.char), (3, 3));
        assert_eq!(f.expected, ["EOI"]);
        assert!(!g.accepts("nope", ""));
        assert_eq!(g.resolve("WORD"), Some("word"));
    }

    #[test]
    fn char_bounds_cut_where_expressions_change() {
        let g = PestGrammar::parse(
            "a = { 'b'..'d' | ^\"x\" ~ \"yz\" | ASCII_DIGIT | b }\nb = { \"\\u{E000}\" }",
            "t.pest",
        )
        .unwrap();
        let mut want = vec![
            0, 0x30, 0x3A, 0x58, 0x59, 0x62, 0x65, 0x78, 0x79, 0x7A, 0xD800, 0xE000, 0xE001,
            0x11_0000,
        ];
        want.sort_unstable();
        assert_eq!(g.char_bounds(), Some(&want[..]));
        // Unicode properties and the stack are not seen through.
        assert_eq!(
            PestGrammar::parse("a = { LETTER }", "t.pest")
                .unwrap()
                .char_bounds(),
            None
        );
        assert_eq!(
            PestGrammar::parse("a = { PUSH(\"x\") ~ POP }", "t.pest")
                .unwrap()
                .char_bounds(),
            None
        );
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = PestGrammar::parse("a = { b }\n", "undefined.pest")
            .unwrap_err()
            .to_string();
        assert!(e.contains("undefined.pest:1:7"), "{e}");
        assert!(e.contains("rule b is undefined"), "{e}");
    }
}
