#!/usr/bin/env python3
"""Checks the conformance suite's answers with a second implementation.

    python3 conformance/oracle/check.py [--suite DIR] [--abnf DIR] [--json]
                                        [--expected FILE] [--show N]

Every case of DIR/*.jsonl (default: the conformance/ directory this file is
in) is agreed, disagreed or skipped with a reason. The oracle shares no code
with iribis: its grammar is read from grammar/abnf/ (--abnf) by its own ABNF
reader, and everything else is written from the spec texts (README.md here).

A case agrees when the oracle's answer is the case's `result` or one of its
`also`; and, where the oracle knows every answer the spec allows (resolve,
to-uri, to-iri), when each answer the case lists is one of them. Exit status:
0 when nothing disagrees (disagreements listed in --expected aside), 1 when
something does, or an entry of --expected no longer does; 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import uri  # noqa: E402
from abnf import AbnfError  # noqa: E402
from convert import (  # noqa: E402
    UnknownCharset,
    Unencodable,
    decode_choices,
    to_iri,
    to_uri,
    to_uri_in,
)
import compare  # noqa: E402
from grammar import REFERENCE, grammar  # noqa: E402

OPS = ["valid", "components", "resolve", "normalize", "to-uri", "to-iri", "compare", "check"]

# RFC 3987 §2.2 writes pct-encoded and "/" where the draft's grammar has the
# new rule names pct-form and path-sep: a case of the rfc3987 profile must use
# the names RFC 3987 defines.
NOT_IN_RFC3987 = {"pct-form", "path-sep"}


class Verdict:
    """agree, disagree (with why and the oracle's answer) or skip (with why)."""

    def __init__(self, kind: str, why: str = "", oracle=None) -> None:
        self.kind, self.why, self.oracle = kind, why, oracle


AGREE = Verdict("agree")


def skip(why: str) -> Verdict:
    return Verdict("skip", why)


def disagree(why: str, oracle) -> Verdict:
    return Verdict("disagree", why, oracle)


def case_answers(expect: dict) -> list[str]:
    if "result" in expect:
        return [expect["result"]] + list(expect.get("also", []))
    return []


def judge_answers(
    expect: dict, primary, allowed: dict[str, str], error_allowed=False, primaries=None
) -> Verdict:
    """`primary`: the oracle's answer (a string, or None for an error);
    `allowed`: every answer the oracle knows the spec allows, with the reading
    each follows; `primaries`: where the text gives several answers with
    equal right, any of them may stand for the oracle's (the case must list
    one)."""
    if "error" in expect:
        if primary is None or error_allowed:
            return AGREE
        return disagree("the case expects an error; the oracle resolves", primary)
    answers = case_answers(expect)
    if primary is None:
        return disagree("the oracle's answer is an error; the case lists none", "error")
    if primaries and primary not in answers:
        primary = next((a for a in answers if a in primaries), primary)
    if primary not in answers:
        return disagree("the oracle's answer is not among the case's answers", primary)
    for a in answers:
        if a not in allowed:
            return disagree(
                f"the case's answer {a!r} is not one the spec gives (the oracle allows "
                f"{sorted(allowed)})",
                primary,
            )
    return AGREE


# ---------------------------------------------------------------- per op


def judge_valid(case: dict, abnf_dir) -> Verdict:
    profile, rule, text = case["profile"], case.get("rule"), case["input"]
    if not rule:
        return skip("a valid case without a rule")
    g = grammar(profile, abnf_dir)
    if not g.has(rule):
        return disagree(f"the {profile} grammar has no rule {rule}", None)
    if profile == "rfc3987" and rule.lower() in NOT_IN_RFC3987:
        return disagree(
            f"RFC 3987 §2.2 has no rule {rule} (the draft's new name): name it as RFC 3987 does",
            None,
        )
    result = g.matcher(rule).match(text)
    if profile == "leiri" and rule.lower() == "ucschar":
        # 3987bis §6.1 replaces the ucschar production by leiri-ucschar: a case
        # named ucschar reads as either rule. It is fair only when both agree.
        printed = grammar("rfc3987bis", abnf_dir).matcher("ucschar").match(text)
        if printed != result:
            return disagree(
                "under leiri, 'ucschar' is replaced by leiri-ucschar (3987bis §6.1) and the two "
                f"rules answer differently ({printed} vs {result}): name the rule leiri-ucschar",
                result,
            )
    return compare_valid(case["expect"], result, text)


def compare_valid(expect: dict, result, text: str) -> Verdict:
    if "valid" not in expect:
        return disagree("a valid case without a valid answer", result)
    if result.valid != expect["valid"]:
        return disagree("valid differs", {"valid": result.valid, "at": result.at})
    if not result.valid and "at" in expect:
        at = expect["at"]
        byte = len(text[: result.at].encode("utf-8", "surrogatepass"))
        if at.get("char") != result.at or at.get("byte") != byte:
            return disagree("error position differs", {"char": result.at, "byte": byte})
    return AGREE


def judge_components(case: dict, abnf_dir) -> Verdict:
    profile, text = case["profile"], case["input"]
    expect = case["expect"]
    ref_rule = REFERENCE[profile]
    valid = grammar(profile, abnf_dir).matcher(ref_rule).match(text).valid
    if not valid and "error" in expect:
        return AGREE
    if "components" not in expect:
        if valid:
            return disagree("the input is a valid reference; the case lists no components", None)
        return skip("an invalid input whose expected answer is not components")
    # For an input the ABNF rejects, the components compared are Appendix B's,
    # which splits any string.
    got = uri.components(text)
    if got != expect["components"]:
        return disagree("components differ", got)
    return AGREE


def judge_resolve(case: dict, abnf_dir) -> Verdict:
    ref, base = case["input"], case.get("base")
    if base is None:
        return skip("a resolve case without a base")
    try:
        strict = uri.transform(ref, base, strict=True)
    except uri.NotAbsolute:
        return judge_answers(case["expect"], None, {})
    primary = uri.recompose(strict)
    allowed = {primary: "RFC 3986 §5.2, §5.3 as printed (strict)"}
    loose = uri.resolve(ref, base, strict=False)
    allowed.setdefault(loose, "RFC 3986 §5.2.2's backward-compatible reading (not strict)")
    error_allowed = False
    for t in {strict, uri.transform(ref, base, strict=False)}:
        if t.authority is None and t.path.startswith("//"):
            # §5.3 would write a path that reads back as an authority (§3.3
            # forbids "//" at the start of a path with no authority): the
            # readings in use are "/." before the path (the WHATWG URL
            # Standard's serializer) or refusing.
            dotted = uri.recompose(uri.Ref(t.scheme, None, "/." + t.path, t.query, t.fragment))
            allowed.setdefault(dotted, "'/.' before a path starting with '//' (WHATWG URL)")
            error_allowed = True
    return judge_answers(case["expect"], primary, allowed, error_allowed)


def judge_normalize(case: dict, abnf_dir) -> Verdict:
    profile, text = case["profile"], case["input"]
    if profile == "leiri":
        # 3987bis defines no normalization of LEIRIs: §6.2 maps them to IRIs,
        # and maps an IRI to itself. The oracle normalizes those.
        if not grammar("rfc3987bis", abnf_dir).matcher("IRI-reference").match(text).valid:
            return skip("leiri: not an IRI (3987bis §6.2 maps a LEIRI to an IRI; the oracle "
                        "normalizes IRIs)")  # fmt: skip
        profile = "rfc3987bis"
    if not grammar(profile, abnf_dir).matcher(REFERENCE[profile]).match(text).valid:
        return skip(f"input is not a {REFERENCE[profile]} of the profile")
    iri = profile != "rfc3986"
    got = uri.normalize(text, iri=iri)
    # The readings the text leaves: a query's private-use characters
    # decoded or not (RFC 3987 §5.3.2.3 speaks of unreserved characters;
    # iquery allows iprivate), and "/." before a path starting with "//".
    # The answer as printed must be among the case's.
    allowed = uri.normalize_readings(text, iri=iri)
    return judge_answers(case["expect"], got, allowed)


def judge_to_uri(case: dict, abnf_dir) -> Verdict:
    profile, text = case["profile"], case["input"]
    if profile == "rfc3986":
        return skip("rfc3986: a URI has nothing to map")
    if not grammar(profile, abnf_dir).matcher(REFERENCE[profile]).match(text).valid:
        return skip(
            "input is not a reference of the profile: 3987bis §3.3 maps any string, "
            "RFC 3987 §3.1 says the conversion SHOULD fail"
        )
    charset = case.get("charset")
    if charset is not None:
        if profile == "rfc3987":
            return disagree(
                "RFC 3987 §3.1 maps every component through UTF-8: a document charset for "
                "the query is 3987bis §3.5's, not RFC 3987's",
                None,
            )
        try:
            answers, alternatives = to_uri_in(text, profile, charset)
        except UnknownCharset:
            return skip(f"a charset label the oracle's table does not know ({charset})")
        except Unencodable:
            return skip(
                "a query character the document charset cannot encode: 3987bis §3.5 does "
                "not say what then (browsers' forms write &#NNNN;)"
            )
        allowed = {a: "3987bis §3.5 (the query in the document charset), §3.3" for a in answers}
        for a in alternatives:
            allowed.setdefault(a, "IDNA for the registered name (3987bis §3.4.2)")
        return judge_answers(case["expect"], answers[0], allowed, primaries=set(answers))
    primary, alternatives = to_uri(text, profile)
    allowed = {primary: "3987bis §3.3, §3.4.1 (percent-encoding)"}
    for a in alternatives:
        allowed.setdefault(a, "IDNA for the registered name (3987bis §3.4.2 / RFC 3987 §3.1)")
    return judge_answers(case["expect"], primary, allowed)


def judge_to_iri(case: dict, abnf_dir) -> Verdict:
    profile, text = case["profile"], case["input"]
    if profile not in ("rfc3987bis", "rfc3987"):
        return skip(f"{profile}: URI → IRI is defined for IRIs (3987bis §4.2, RFC 3987 §3.2)")
    if not grammar("rfc3986", abnf_dir).matcher("URI-reference").match(text).valid:
        return skip("input is not a URI-reference (RFC 3986): §4.2 converts URIs")
    primary, alternatives = to_iri(text, profile)
    allowed = {primary: "3987bis §4.2 (RFC 3987 §3.2)"}
    for a in alternatives:
        allowed.setdefault(
            a, "with or without ToUnicode (3987bis §4.2 step 7 SHOULD, RFC 3987 MAY)"
        )
    # Step 4's choices (§5.1): an answer that keeps encoded some characters
    # §5.1 discourages, and is otherwise one of the above, is allowed too.
    for a in case_answers(case["expect"]):
        if a not in allowed and decode_choices(a, profile) in allowed:
            allowed[a] = "3987bis §4.2 step 4 with §5.1's discouraged characters kept encoded"
    return judge_answers(case["expect"], primary, allowed)


def judge_compare(case: dict, abnf_dir) -> Verdict:
    profile, a, b = case["profile"], case["input"], case.get("other")
    if b is None:
        return skip("a compare case without an other IRI")
    expect = case["expect"]
    # A LEIRI is compared as the IRI it maps to (3987bis §6.2): the oracle
    # judges those that are IRIs already, which map to themselves.
    as_profile = "rfc3987bis" if profile == "leiri" else profile
    m = grammar(as_profile, abnf_dir).matcher(REFERENCE[as_profile])
    valid = m.match(a).valid and m.match(b).valid
    if "error" in expect:
        if profile == "leiri":
            return skip("leiri: an input that is not an IRI (the oracle compares IRIs)")
        if valid:
            return disagree("both inputs are references; the case expects an error", None)
        return AGREE
    if not valid:
        if profile == "leiri":
            return skip("leiri: an input that is not an IRI (the oracle compares IRIs)")
        return disagree("an input is not a reference of the profile: no comparison", "error")
    got = expect.get("equivalent", {})
    allowed = compare.ladder(a, b, iri=(profile != "rfc3986"))
    judged = 0
    for rung in ("simple", "syntax", "scheme"):
        if rung not in got or allowed[rung] is None:
            continue
        judged += 1
        if got[rung] not in allowed[rung]:
            shown = {r: sorted(v) if v else None for r, v in allowed.items()}
            return disagree(f"the {rung} rung differs", shown)
    if not judged:
        return skip("no rung the text decides")
    return AGREE


def judge_check(case: dict, abnf_dir) -> Verdict:
    profile, text = case["profile"], case["input"]
    expect = case["expect"]
    valid = grammar(profile, abnf_dir).matcher(REFERENCE[profile]).match(text).valid
    if "error" in expect:
        if valid:
            return disagree("the input is a reference; the case expects an error", None)
        return AGREE
    if not valid:
        return disagree("the input is not a reference of the profile; the case expects no error",
                        "error")  # fmt: skip
    listed = set(expect.get("requirements", []))
    allowed = compare.requirements(text, profile)
    for rid in compare.JUDGED:
        if (rid in listed) not in allowed[rid]:
            return disagree(
                f"{rid}: the oracle says {sorted(allowed[rid])}",
                {r: sorted(v) for r, v in allowed.items()},
            )
    return AGREE


JUDGES = {
    "compare": judge_compare,
    "check": judge_check,
    "valid": judge_valid,
    "components": judge_components,
    "resolve": judge_resolve,
    "normalize": judge_normalize,
    "to-uri": judge_to_uri,
    "to-iri": judge_to_iri,
}


def judge(case: dict, abnf_dir=None) -> Verdict:
    """The oracle's verdict on one case."""
    fn = JUDGES.get(case.get("op"))
    if fn is None:
        return skip(f"op {case.get('op')!r} is not one the oracle judges")
    if case.get("profile") not in REFERENCE:
        return skip(f"profile {case.get('profile')!r} is not one the oracle knows")
    try:
        return fn(case, abnf_dir)
    except AbnfError as e:
        return disagree(f"the grammar cannot judge it: {e}", None)


# ---------------------------------------------------------------- the run


def load_cases(suite: Path):
    for path in sorted(suite.glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        yield json.loads(line)
                    except json.JSONDecodeError as e:
                        raise SystemExit(f"{path}:{n}: not JSON: {e}") from e


def load_expected(path: Path | None) -> dict[str, str]:
    if path is None or not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {entry["id"]: entry.get("why", "") for entry in data.get("disagreements", [])}


def run(suite: Path, abnf_dir: Path | None, expected: dict[str, str]):
    counts: dict[tuple[str, str], Counter] = defaultdict(Counter)
    reasons: Counter = Counter()
    disagreements = []
    for case in load_cases(suite):
        v = judge(case, abnf_dir)
        key = (case.get("op", "?"), case.get("profile", "?"))
        counts[key][v.kind] += 1
        if v.kind == "skip":
            reasons[(key[0], key[1], v.why)] += 1
        elif v.kind == "disagree":
            disagreements.append(
                {
                    "id": case.get("id"),
                    "op": key[0],
                    "profile": key[1],
                    "input": case.get("input"),
                    "base": case.get("base"),
                    "rule": case.get("rule"),
                    "why": v.why,
                    "oracle": v.oracle if not hasattr(v.oracle, "valid") else vars(v.oracle),
                    "suite": case.get("expect"),
                    "expected": case.get("id") in expected,
                }
            )
    return counts, reasons, disagreements


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", type=Path, default=HERE.parent, help="directory of *.jsonl")
    ap.add_argument("--abnf", type=Path, default=None, help="grammar/abnf directory")
    ap.add_argument("--expected", type=Path, default=None, help="known disagreements (JSON)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--show", type=int, default=200, help="disagreements to print (text)")
    args = ap.parse_args(argv)
    if not args.suite.is_dir():
        print(f"check.py: no suite directory {args.suite}", file=sys.stderr)
        return 2
    expected = load_expected(args.expected)
    t0 = time.monotonic()
    counts, reasons, disagreements = run(args.suite, args.abnf, expected)
    seconds = time.monotonic() - t0
    unexpected = [d for d in disagreements if not d["expected"]]
    found = {d["id"] for d in disagreements}
    stale = sorted(i for i in expected if i not in found)
    failed = bool(unexpected or stale)

    table = []
    for op in OPS + sorted({k[0] for k in counts} - set(OPS)):
        for profile in ["rfc3987bis", "rfc3987", "rfc3986", "leiri"]:
            c = counts.get((op, profile))
            if not c:
                continue
            judged = c["agree"] + c["disagree"]
            table.append(
                {"op": op, "profile": profile, "judged": judged, "agreed": c["agree"],
                 "disagreed": c["disagree"], "skipped": c["skip"]}
            )  # fmt: skip
    if args.json:
        print(
            json.dumps(
                {
                    "seconds": round(seconds, 2),
                    "by_op_and_profile": table,
                    "skipped": [
                        {"op": o, "profile": p, "why": w, "cases": n}
                        for (o, p, w), n in sorted(reasons.items())
                    ],
                    "disagreements": disagreements,
                    "stale_expected": stale,
                },
                ensure_ascii=False,
                indent=1,
            )
        )
    else:
        print(
            f"{'op':<11} {'profile':<11} {'judged':>7} {'agreed':>7} "
            f"{'disagreed':>9} {'skipped':>7}"
        )
        tot = Counter()
        for row in table:
            print(
                f"{row['op']:<11} {row['profile']:<11} {row['judged']:>7} {row['agreed']:>7} "
                f"{row['disagreed']:>9} {row['skipped']:>7}"
            )
            tot.update({k: row[k] for k in ("judged", "agreed", "disagreed", "skipped")})
        print(
            f"{'total':<23} {tot['judged']:>7} {tot['agreed']:>7} {tot['disagreed']:>9} "
            f"{tot['skipped']:>7}   ({seconds:.1f}s)"
        )
        for (o, p, w), n in sorted(reasons.items()):
            print(f"skipped {n} {o}/{p}: {w}")
        if disagreements:
            print(f"\n{len(disagreements)} disagreements ({len(unexpected)} not in --expected):")
            shown = [d for d in disagreements if not d["expected"]][: args.show]
            known = [d["id"] for d in disagreements if d["expected"]]
            if known:
                print(
                    f"{len(known)} listed in {args.expected}: {', '.join(known[:10])}"
                    + (" ..." if len(known) > 10 else "")
                )
            for d in shown:
                mark = ""
                extra = f" base={d['base']!r}" if d["base"] is not None else ""
                extra += f" rule={d['rule']}" if d["rule"] else ""
                print(f"- {d['id']}{mark}: input={d['input']!r}{extra}")
                print(f"    {d['why']}")
                print(f"    oracle: {json.dumps(d['oracle'], ensure_ascii=False)}")
                print(f"    suite:  {json.dumps(d['suite'], ensure_ascii=False)}")
            if len(unexpected) > len(shown):
                print(f"... and {len(unexpected) - len(shown)} more (--show N, or --json)")
        for i in stale:
            print(
                f"- {i}: listed in --expected but no longer disagrees (fixed, or no such "
                "case): remove it from the file"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
