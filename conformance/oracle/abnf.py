"""An ABNF reader (RFC 5234) and a matcher over its rules.

Written from RFC 5234 alone: a rule list is read into a tree, a rule's tree is
compiled into a Thompson NFA over Unicode code points (rule references are
inlined: the URI and IRI grammars are not recursive), and the NFA is run by
building its subset automaton lazily, one state per set of NFA states, cached.

Besides "does the whole input match", the matcher finds the first character
that cannot belong to any valid input: the NFA is trimmed to the states from
which an accepting state is reachable, so the set of live states after a prefix
is empty exactly when that prefix starts no valid input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# ---------------------------------------------------------------- the reader

# A node of a rule's tree:
#   ("alt", [node...])          alternation          (RFC 5234 §3.2)
#   ("cat", [node...])          concatenation        (§3.1)
#   ("rep", lo, hi, node)       repetition, hi None for no bound (§3.6, §3.7)
#   ("ref", name)               a rule, by its lowercased name (§2.1)
#   ("set", ((lo, hi), ...))    one code point out of ranges (§2.3, §3.4)


class AbnfError(ValueError):
    """The ABNF text does not follow RFC 5234, or a rule is missing or recursive."""


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")


def _strip_comment(line: str) -> str:
    """Drops a comment (";" to the end of the line, RFC 5234 §3.9), but not a
    ";" inside a quoted string or a prose value."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch == '"':
            quote = '"'
        elif ch == "<":
            quote = ">"
        elif ch == ";":
            return line[:i]
    return line


def read_rules(text: str, known: dict | None = None) -> dict[str, tuple[str, object]]:
    """Reads a rule list: {lowercased name: (name as written, tree)}.

    A rule starts at the beginning of a line; indented lines continue it
    (RFC 5234 §4, c-wsp). "=/" adds alternatives to a rule (§3.3) defined
    earlier in `text` or in `known` (the rules of files read before).
    """
    rules: dict[str, tuple[str, object]] = {}
    known = known or {}
    pending: list[str] = []

    def flush() -> None:
        if not pending:
            return
        body = " ".join(pending)
        pending.clear()
        m = re.match(r"\s*([A-Za-z][A-Za-z0-9-]*)\s*(=/|=)(.*)$", body, re.S)
        if not m:
            raise AbnfError(f"not a rule (RFC 5234 §2.2): {body.strip()!r}")
        name, defined_as, elements = m.group(1), m.group(2), m.group(3)
        tree = _Parser(elements).parse()
        key = name.lower()
        if defined_as == "=/":
            earlier = rules.get(key) or known.get(key)
            if earlier is None:
                raise AbnfError(f"=/ on undefined rule {name} (RFC 5234 §3.3)")
            old = earlier[1]
            olds = old[1] if old[0] == "alt" else [old]
            news = tree[1] if tree[0] == "alt" else [tree]
            rules[key] = (earlier[0], ("alt", olds + news))
        else:
            rules[key] = (name, tree)

    for raw in text.splitlines():
        line = _strip_comment(raw).rstrip()
        if not line.strip():
            continue
        if line[0] in " \t":
            if not pending:
                raise AbnfError(f"continuation line with no rule: {raw!r}")
            pending.append(line)
        else:
            flush()
            pending.append(line)
    flush()
    return rules


class _Parser:
    """Recursive descent over the elements of one rule (RFC 5234 §4)."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0

    def ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i] in " \t\r\n":
            self.i += 1

    def peek(self) -> str:
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def parse(self):
        node = self.alternation()
        self.ws()
        if self.i != len(self.s):
            raise AbnfError(f"unexpected {self.s[self.i :]!r} in {self.s!r}")
        return node

    def alternation(self):
        items = [self.concatenation()]
        while self.peek() == "/":
            self.i += 1
            items.append(self.concatenation())
        return items[0] if len(items) == 1 else ("alt", items)

    def concatenation(self):
        items = []
        while True:
            ch = self.peek()
            if ch == "" or ch in "/)]":
                break
            items.append(self.repetition())
        if not items:
            raise AbnfError(f"empty concatenation in {self.s!r}")
        return items[0] if len(items) == 1 else ("cat", items)

    def repetition(self):
        self.ws()
        m = re.compile(r"(\d*)\*(\d*)|(\d+)").match(self.s, self.i)
        if m:
            self.i = m.end()
            if m.group(3) is not None:
                lo = hi = int(m.group(3))
            else:
                lo = int(m.group(1)) if m.group(1) else 0
                hi = int(m.group(2)) if m.group(2) else None
            if hi is not None and hi < lo:
                raise AbnfError(f"repetition {lo}*{hi} (RFC 5234 §3.6)")
            return ("rep", lo, hi, self.element())
        return self.element()

    def element(self):
        ch = self.peek()
        if ch == "(":
            self.i += 1
            node = self.alternation()
            self.expect(")")
            return node
        if ch == "[":
            self.i += 1
            node = self.alternation()
            self.expect("]")
            return ("rep", 0, 1, node)
        if ch == '"':
            end = self.s.index('"', self.i + 1)
            text = self.s[self.i + 1 : end]
            self.i = end + 1
            return _literal(text)
        if ch == "%":
            return self.num_val()
        if ch == "<":
            # A prose value (§4) names a rule in the URI RFCs ("0<pchar>").
            end = self.s.index(">", self.i)
            name = self.s[self.i + 1 : end].strip()
            self.i = end + 1
            return ("ref", name.lower())
        m = _NAME.match(self.s, self.i)
        if m:
            self.i = m.end()
            return ("ref", m.group(0).lower())
        raise AbnfError(f"unexpected {self.s[self.i :]!r}")

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            raise AbnfError(f"expected {ch!r} at {self.s[self.i :]!r}")
        self.i += 1

    def num_val(self):
        m = re.compile(r"%([xXdDbB])").match(self.s, self.i)
        if not m:
            raise AbnfError(f"bad numeric value at {self.s[self.i :]!r}")
        base = {"x": 16, "d": 10, "b": 2}[m.group(1).lower()]
        digits = {16: "[0-9A-Fa-f]+", 10: "[0-9]+", 2: "[01]+"}[base]
        self.i = m.end()
        first = re.compile(digits).match(self.s, self.i)
        if not first:
            raise AbnfError(f"bad numeric value at {self.s[self.i :]!r}")
        self.i = first.end()
        lo = int(first.group(0), base)
        if self.i < len(self.s) and self.s[self.i] == "-":
            m2 = re.compile(digits).match(self.s, self.i + 1)
            if not m2:
                raise AbnfError("bad range")
            self.i = m2.end()
            return ("set", ((lo, int(m2.group(0), base)),))
        seq = [lo]
        while self.i < len(self.s) and self.s[self.i] == ".":
            m2 = re.compile(digits).match(self.s, self.i + 1)
            if not m2:
                raise AbnfError("bad concatenated value")
            self.i = m2.end()
            seq.append(int(m2.group(0), base))
        if len(seq) == 1:
            return ("set", ((lo, lo),))
        return ("cat", [("set", ((c, c),)) for c in seq])


def _literal(text: str):
    """A quoted string: case-insensitive for letters (RFC 5234 §2.3)."""
    parts = []
    for ch in text:
        lo, up = ord(ch.lower()), ord(ch.upper())
        ranges = ((lo, lo),) if lo == up else tuple(sorted({(lo, lo), (up, up)}))
        parts.append(("set", ranges))
    if len(parts) == 1:
        return parts[0]
    if not parts:
        return ("rep", 0, 0, ("set", ((0, 0),)))  # "" matches the empty string
    return ("cat", parts)


# ---------------------------------------------------------------- the NFA


@dataclass
class Nfa:
    """A Thompson NFA: per state, character edges and epsilon edges."""

    edges: list[list[tuple[tuple[tuple[int, int], ...], int]]] = field(default_factory=list)
    eps: list[list[int]] = field(default_factory=list)

    def state(self) -> int:
        self.edges.append([])
        self.eps.append([])
        return len(self.edges) - 1


class Grammar:
    """The rules of one profile: several ABNF texts, a later rule replacing an
    earlier one of the same name."""

    def __init__(self, texts: list[str]) -> None:
        self.rules: dict[str, tuple[str, object]] = {}
        for text in texts:
            self.rules.update(read_rules(text, self.rules))
        self._matchers: dict[str, Matcher] = {}

    def has(self, name: str) -> bool:
        return name.lower() in self.rules

    def matcher(self, name: str) -> "Matcher":
        key = name.lower()
        if key not in self._matchers:
            if key not in self.rules:
                raise AbnfError(f"no rule {name}")
            nfa = Nfa()
            start, end = self._build(nfa, ("ref", key), [])
            self._matchers[key] = Matcher(nfa, start, end)
        return self._matchers[key]

    def _build(self, nfa: Nfa, node, stack: list[str]) -> tuple[int, int]:
        kind = node[0]
        if kind == "set":
            s, e = nfa.state(), nfa.state()
            nfa.edges[s].append((node[1], e))
            return s, e
        if kind == "ref":
            name = node[1]
            if name not in self.rules:
                raise AbnfError(f"rule {name} is used but not defined")
            if name in stack:
                raise AbnfError(f"rule {name} is recursive: not a regular grammar")
            return self._build(nfa, self.rules[name][1], stack + [name])
        if kind == "cat":
            first = self._build(nfa, node[1][0], stack)
            s, e = first
            for item in node[1][1:]:
                s2, e2 = self._build(nfa, item, stack)
                nfa.eps[e].append(s2)
                e = e2
            return s, e
        if kind == "alt":
            s, e = nfa.state(), nfa.state()
            for item in node[1]:
                s2, e2 = self._build(nfa, item, stack)
                nfa.eps[s].append(s2)
                nfa.eps[e2].append(e)
            return s, e
        if kind == "rep":
            _, lo, hi, sub = node
            s = e = nfa.state()
            for _ in range(lo):
                s2, e2 = self._build(nfa, sub, stack)
                nfa.eps[e].append(s2)
                e = e2
            if hi is None:
                s2, e2 = self._build(nfa, sub, stack)
                end = nfa.state()
                nfa.eps[e].append(s2)
                nfa.eps[e].append(end)
                nfa.eps[e2].append(s2)
                nfa.eps[e2].append(end)
                e = end
            else:
                # Each optional copy may be skipped to the end.
                end = nfa.state()
                for _ in range(hi - lo):
                    s2, e2 = self._build(nfa, sub, stack)
                    nfa.eps[e].append(s2)
                    nfa.eps[e].append(end)
                    e = e2
                nfa.eps[e].append(end)
                e = end
            return s, e
        raise AbnfError(f"unknown node {kind}")


@dataclass(frozen=True)
class Result:
    """A match: `valid`, and for an invalid input `at`, the offset in code
    points of the first character no valid input has there (the input's length
    when it stops too early)."""

    valid: bool
    at: int | None = None


class Matcher:
    """Runs one rule's NFA over inputs, building its subset automaton lazily."""

    def __init__(self, nfa: Nfa, start: int, accept: int) -> None:
        self.nfa = nfa
        self.accept = accept
        self.live = self._coreachable()
        self._closure: dict[int, frozenset[int]] = {}
        self._next: dict[frozenset[int], dict[str, frozenset[int]]] = {}
        self.start = self._close([start])

    def _coreachable(self) -> set[int]:
        back: list[list[int]] = [[] for _ in self.nfa.edges]
        for s, edges in enumerate(self.nfa.edges):
            for _, t in edges:
                back[t].append(s)
        for s, targets in enumerate(self.nfa.eps):
            for t in targets:
                back[t].append(s)
        seen = {self.accept}
        todo = [self.accept]
        while todo:
            t = todo.pop()
            for s in back[t]:
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return seen

    def _close(self, states) -> frozenset[int]:
        out: set[int] = set()
        for s in states:
            c = self._closure.get(s)
            if c is None:
                seen = {s}
                todo = [s]
                while todo:
                    x = todo.pop()
                    for t in self.nfa.eps[x]:
                        if t not in seen:
                            seen.add(t)
                            todo.append(t)
                # Keep the states that consume a character or accept, and
                # only those from which the accepting state can be reached.
                c = frozenset(
                    x for x in seen if x in self.live and (self.nfa.edges[x] or x == self.accept)
                )
                self._closure[s] = c
            out |= c
        return frozenset(out)

    def step(self, states: frozenset[int], ch: str) -> frozenset[int]:
        table = self._next.get(states)
        if table is None:
            table = self._next[states] = {}
        nxt = table.get(ch)
        if nxt is None:
            cp = ord(ch)
            targets = []
            for s in states:
                for ranges, t in self.nfa.edges[s]:
                    for lo, hi in ranges:
                        if lo <= cp <= hi:
                            targets.append(t)
                            break
            nxt = table[ch] = self._close(targets)
        return nxt

    def match(self, text: str) -> Result:
        states = self.start
        for i, ch in enumerate(text):
            states = self.step(states, ch)
            if not states:
                return Result(False, i)
        if self.accept in states:
            return Result(True)
        return Result(False, len(text))
