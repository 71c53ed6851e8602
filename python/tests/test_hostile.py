"""Hostile and careless input to the package's entry points: huge lengths,
strings given as batches, lone surrogates, Ctrl-C, the GIL on large inputs.

What could kill the interpreter runs in a child interpreter under a memory
budget (``resource.setrlimit``), so that a crash is a failed test, not a
dead test run. Nothing here times anything: memory is held to budgets,
interruption and the GIL to what another thread could do meanwhile.
"""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc

import jsonschema
import pyarrow as pa
import pytest

import iribis
import iribis.jsonschema
import iribis.rfc3987

#: The address space a child interpreter gets: iribis and pyarrow import in
#: about a tenth of it; reserving memory from an untrusted length did not fit.
BUDGET = 1 << 30


def child_args(code: str, budget: int) -> list:
    """The command for `code` in a fresh interpreter limited to `budget`
    bytes of address space."""
    prelude = f"import resource\nresource.setrlimit(resource.RLIMIT_AS, ({budget}, {budget}))\n"
    return [sys.executable, "-c", prelude + textwrap.dedent(code)]


def run_child(code: str, *, budget: int = BUDGET, timeout: float = 120) -> subprocess.CompletedProcess:
    """`code` in a fresh interpreter limited to `budget` bytes of address space."""
    return subprocess.run(
        child_args(code, budget),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=os.path.dirname(__file__),
    )


def interrupted(code: str, after: float = 1.0) -> str:
    """The output of `code` (which prints "go" when it is about to block in
    iribis) after a SIGINT sent `after` seconds after "go"; the child must
    end within a minute, far less than its work would take."""
    # Python leaves SIGINT ignored when it starts with it ignored, as a
    # job started with "&" by a shell without job control does (a CI run in
    # the background): the child takes the default handler back, so that
    # the interrupt is the one this test sends.
    default = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"
    child = subprocess.Popen(
        child_args(default + textwrap.dedent(code), BUDGET),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(__file__),
    )
    try:
        assert child.stdout.readline() == "go\n", child.stderr.read()
        time.sleep(after)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
        child.wait()
    return out + err


# -- Memory reserved from len() before looking at the items


class Lying:
    """An iterable whose ``__len__`` says `length` and which yields `items`."""

    def __init__(self, length, items):
        self.length, self.items = length, items

    def __len__(self):
        if isinstance(self.length, BaseException):
            raise self.length
        return self.length

    def __iter__(self):
        return iter(self.items)


def test_item3_range_of_1e11_is_refused_not_reserved():
    done = run_child(
        """
        import iribis
        for f in (iribis.is_valid_many, iribis.check_many):
            try:
                f(range(10**11))
            except TypeError as e:
                print("TypeError", e)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("TypeError item 0 of the batch is a int") == 2


# (10**11 would abort the interpreter where it is trusted: see the next test, in a child.)
@pytest.mark.parametrize("length", [2**62, 2**63 - 1, -1, OverflowError("big"), ValueError("no")])
def test_item3_huge_or_broken_len_is_only_a_hint(length):
    items = Lying(length, ["http://h/", "a b", None])
    assert iribis.is_valid_many(items) == [True, False, None]
    assert [None if r is None else len(r) for r in iribis.check_many(items)] == [0, 1, None]


def test_item3_huge_len_under_a_memory_budget():
    done = run_child(
        """
        import iribis

        class Lying:
            def __len__(self):
                return 2**62
            def __iter__(self):
                return iter(["http://h/", "a b"])

        class Huge:
            def __len__(self):
                return 10**11
            def __iter__(self):
                return iter(["http://h/"])

        print(iribis.is_valid_many(Lying()), iribis.is_valid_many(Huge()))
        print([len(r) for r in iribis.check_many(Lying())], len(iribis.check_many(Huge())))
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["[True, False] [True]", "[0, 1] 1"]


def test_item3_iterator_that_raises_midway():
    def items():
        yield "http://h/"
        raise LookupError("midway")

    for f in (iribis.is_valid_many, iribis.check_many):
        with pytest.raises(LookupError, match="midway"):
            f(items())


# -- A str given as a batch


@pytest.mark.parametrize("batch", ["http://a/ b", "", b"http://a/", bytearray(b"a")])
def test_item19_str_or_bytes_as_a_batch_is_a_type_error(batch):
    for f in (iribis.is_valid_many, iribis.check_many):
        with pytest.raises(TypeError, match="not a (str|bytes|bytearray): for one string"):
            f(batch)


def test_item19_wrong_item_types_name_the_item():
    with pytest.raises(TypeError, match="item 1 of the batch is a bytes: expected str or None"):
        iribis.is_valid_many(["a", b"b"])
    with pytest.raises(TypeError, match="item 2 of the batch is a int"):
        iribis.check_many(("a", None, 3))
    # A str subclass is a str.
    assert iribis.is_valid_many([type("S", (str,), {})("http://h/")]) == [True]


# -- Lone surrogates


SURROGATE = "http://例え.jp/a\ud800b"  # the surrogate at character 14, byte 18


def test_item20_predicates_answer_false():
    assert iribis.is_valid("\ud800") is False
    assert iribis.is_valid(SURROGATE) is False
    for profile in ("rfc3987bis", "rfc3987", "rfc3986", "leiri"):
        assert iribis.is_valid("a\udfff", profile=profile) is False
    for rule in ("ucschar", "iprivate", "ipchar", "ihost", "IRI"):
        assert iribis.is_valid("\udc00", rule=rule) is False
    assert iribis.rfc3987.match(SURROGATE) is None
    assert iribis.rfc3987.match("\ud800", "ucschar") is None


def test_item20_batches_answer_per_item():
    items = ["http://h/", "\ud800", None, SURROGATE, "a\udfff\ud800"]
    assert iribis.is_valid_many(items) == [True, False, None, False, False]
    checked = iribis.check_many(items)
    assert checked[0] == [] and checked[2] is None
    for found, item in zip(checked[3:], items[3:]):
        assert [v.code for v in found] == ["SYNTAX_ERROR"]
        assert found == iribis.check(item)
    # A pyarrow array cannot hold one: pyarrow refuses to build it.
    with pytest.raises((UnicodeEncodeError, pa.ArrowException)):
        pa.array(items)


def test_item20_parse_raises_parse_error_at_the_surrogate():
    with pytest.raises(iribis.ParseError) as caught:
        iribis.parse(SURROGATE)
    e = caught.value
    assert (e.byte, e.char, e.component, e.input) == (18, 14, "path", SURROGATE)
    assert e.message.startswith("U+D800 is a lone surrogate")
    assert str(e) == (
        "invalid IRI reference at character 14: U+D800 is a lone surrogate (half of a UTF-16 pair"
        " without the other half): the string is not valid Unicode, and no IRI can hold it"
    )
    # The same position and expected rules as any other character not allowed there.
    with pytest.raises(iribis.ParseError) as other:
        iribis.parse("http://例え.jp/a\x7fb")
    assert (other.value.byte, other.value.char, other.value.expected) == (18, 14, e.expected)


def test_item20_an_earlier_error_comes_first():
    with pytest.raises(iribis.ParseError) as caught:
        iribis.parse("http://h/a b\ud800")
    assert caught.value.message == "a space is not allowed in a path: percent-encode it as %20"
    assert (caught.value.char, caught.value.input) == (10, "http://h/a b\ud800")


def test_item20_every_parsing_function_raises_parse_error():
    calls = [
        lambda: iribis.parse("\ud800", rule="ihost"),
        lambda: iribis.resolve("http://a/\ud800", "b"),
        lambda: iribis.resolve("http://a/", "b\udc00"),
        lambda: iribis.relativize("http://a/", "http://a/\udc00"),
        lambda: iribis.normalize("http://a/\udc00"),
        lambda: iribis.compare("http://a/", "http://a/\udc00"),
        lambda: iribis.to_uri("http://a/\udc00"),
        lambda: iribis.to_uri("http://a/\udc00", profile="leiri"),
        lambda: iribis.to_iri("http://a/\udc00"),
        lambda: iribis.readings("http://a/\udc00"),
    ]
    for call in calls:
        with pytest.raises(iribis.ParseError, match="lone surrogate"):
            call()
    with pytest.raises(ValueError):
        iribis.rfc3987.parse("a\ud800")
    with pytest.raises(ValueError):
        iribis.rfc3987.resolve("http://a/", "\ud800")


def test_item20_check_reports_a_syntax_error():
    [v] = iribis.check(SURROGATE)
    assert (v.code, v.severity, v.byte, v.char, v.len, v.component) == (
        "SYNTAX_ERROR",
        "error",
        18,
        14,
        1,
        "path",
    )
    assert v.message.startswith("U+D800 is a lone surrogate")


def test_item20_jsonschema_reports_a_validation_error():
    instance = json.loads('"http://h/\\udfff"')
    with pytest.raises(jsonschema.ValidationError) as caught:
        jsonschema.validate(instance, {"format": "iri"}, format_checker=iribis.jsonschema.format_checker)
    assert isinstance(caught.value.cause, iribis.ParseError)
    assert caught.value.cause.char == 9
    assert not iribis.jsonschema.format_checker.conforms(instance, "uri-reference")


def test_item20_iriref_equality_with_a_surrogate():
    assert iribis.parse("http://h/") != "http://h/\ud800"


# -- Ctrl-C between slices


def test_item21_ctrl_c_stops_a_batch():
    # 400,000 references to one 1 MB string: 400 GB to parse, minutes of
    # work on any machine; the interrupt must end it within the minute.
    for call in ("iribis.is_valid_many(items)", "iribis.check_many(items)"):
        out = interrupted(
            f"""
            import iribis
            items = ["http://h/" + "a" * 1_000_000 + " "] * 400_000
            print("go", flush=True)
            try:
                {call}
                print("finished")
            except KeyboardInterrupt:
                print("interrupted")
            """
        )
        assert out == "interrupted\n", (call, out)


def test_item21_ctrl_c_while_a_batch_is_read():
    # An endless iterator written in C runs no signal handler of its own.
    out = interrupted(
        """
        import itertools, iribis
        print("go", flush=True)
        try:
            iribis.is_valid_many(itertools.repeat("http://h/"))
        except KeyboardInterrupt:
            print("interrupted")
        """,
        # The items fill the budget in about a second.
        after=0.1,
    )
    assert out == "interrupted\n", out


def test_an_endless_batch_is_a_memory_error_not_an_abort():
    r = run_child(
        """
        import itertools, iribis
        try:
            iribis.is_valid_many(itertools.repeat("http://h/"))
        except MemoryError as e:
            print("MemoryError:", e)
        """
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("MemoryError: the batch's first "), r.stdout


# -- Strings read in place


def test_item22_list_batch_reads_ascii_strings_in_place():
    # abi3 for Python 3.9 made a bytes copy of every item; from 3.10 the
    # UTF-8 of an ASCII str is read where it is. What Python allocates is
    # the result list (8 bytes an item) and little else.
    items = [f"http://example.org/{i}/{'a' * 200}" for i in range(20_000)]
    iribis.is_valid_many(items[:10])
    tracemalloc.start()
    try:
        valid = iribis.is_valid_many(items)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert valid == [True] * len(items)
    assert peak < 20_000 * 8 + 64 * 1024, peak


# -- A list batch is pipelined (slice k walked while
# slice k+1 is read), so its results must come back whole and in order
# whatever the slices.

#: A slice ends after this many items (python/src/batch.rs, SLICE_ITEMS;
#: a batch of more has slices of a 16th of it, from 256 items up to this)...
SLICE_ITEMS = 4096
#: ... or once its strings hold this many bytes (SLICE_BYTES).
SLICE_BYTES = 256 * 1024


def item22_items(n: int) -> list:
    """`n` items, each different at its position: valid and invalid
    references, non-ASCII ones, None and lone surrogates, so that a result
    out of place or missing shows."""
    kinds = [
        lambda i: f"http://example.org/{i}",
        lambda i: f"http://例え.jp/{i}",
        lambda i: None,
        lambda i: f"http://h/{i} x",
        lambda i: f"http://h/{i}\ud800",
        lambda i: f"%zz{i}",
        lambda i: f"../é/{i}?q#f",
    ]
    # Runs of each kind, of lengths that do not divide a slice.
    return [kinds[(i // 7 + i) % len(kinds)](i) for i in range(n)]


def singles(items: list) -> list:
    return [None if s is None else iribis.is_valid(s) for s in items]


class ListSubclass(list):
    """Not an exact list: read through the iterator protocol."""


@pytest.mark.parametrize(
    "n", [1, 2, SLICE_ITEMS - 1, SLICE_ITEMS, SLICE_ITEMS + 1, 3 * SLICE_ITEMS + 17, 50_000]
)
def test_item22_pipelined_batch_keeps_order(n):
    items = item22_items(n)
    expected = singles(items)
    assert iribis.is_valid_many(items) == expected
    assert iribis.is_valid_many(tuple(items)) == expected
    assert iribis.is_valid_many(s for s in items) == expected
    assert iribis.is_valid_many(ListSubclass(items)) == expected
    assert iribis.is_valid_many(items, profile="leiri") == [
        None if s is None else iribis.is_valid(s, profile="leiri") for s in items
    ]


def test_item22_pipelined_check_many_matches_single_calls():
    items = item22_items(2 * SLICE_ITEMS + 3)
    expected = [None if s is None else iribis.check(s) for s in items]
    assert iribis.check_many(items) == expected
    assert iribis.check_many(iter(items)) == expected


def test_item22_slices_cut_by_bytes_keep_order():
    # Items around a slice's byte budget among short ones: slices of one,
    # two or many items.
    items = []
    for i in range(40):
        items += [f"http://h/{i}", "http://h/" + "a" * (SLICE_BYTES // 3 + i), None, f"a b{i}"]
        items += ["http://h/" + "é" * (SLICE_BYTES // 2) + ("" if i % 2 else " ")]
    expected = singles(items)
    assert iribis.is_valid_many(items) == expected
    assert iribis.is_valid_many(s for s in items) == expected
    # One item larger than a slice's budget, alone: worked on with the GIL
    # released, on the calling thread.
    assert iribis.is_valid_many(["http://h/" + "a" * (2 * SLICE_BYTES)]) == [True]
    assert iribis.check_many(("http://h/" + "a" * (2 * SLICE_BYTES) + " ",))[0][0].code == "SYNTAX_ERROR"


def test_item22_errors_while_reading_stop_the_pipeline():
    # An error after slices have been handed to the other threads is raised
    # (the threads stopped, nothing kept), and the next batch is whole.
    items = item22_items(3 * SLICE_ITEMS)

    def failing():
        yield from items
        raise LookupError("the source failed")

    with pytest.raises(LookupError, match="the source failed"):
        iribis.is_valid_many(failing())
    with pytest.raises(TypeError, match=f"item {2 * SLICE_ITEMS + 5} of the batch is a int"):
        iribis.check_many(items[: 2 * SLICE_ITEMS + 5] + [7] + items)
    assert iribis.is_valid_many(items) == singles(items)


def test_item22_a_generator_is_read_once_in_order():
    seen = []

    def source():
        for i, s in enumerate(item22_items(2 * SLICE_ITEMS + 1)):
            seen.append(i)
            yield s

    assert iribis.is_valid_many(source()) == singles(item22_items(2 * SLICE_ITEMS + 1))
    assert seen == list(range(2 * SLICE_ITEMS + 1))


def test_item22_a_list_changed_by_another_thread_meanwhile():
    # The batch reads the list as it was when called (a tuple of its
    # references), however another thread changes it while the GIL is
    # released: no string it walks is freed, no result is out of place.
    import threading

    original = item22_items(4 * SLICE_ITEMS + 3)
    expected = singles(original)
    # The list as the other thread leaves it between its two changes: a
    # space in each, so every one is invalid.
    short = [f"http://h/{i} x" for i in range(100)]
    stop = threading.Event()
    items = list(original)

    def meddle():
        while not stop.is_set():
            items[:] = list(short)
            items[:] = list(original)

    t = threading.Thread(target=meddle)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    t.start()
    try:
        for _ in range(20):
            snapshot = list(items)
            assert iribis.is_valid_many(snapshot) == singles(snapshot)
            valid = iribis.is_valid_many(items)
            assert valid == expected or valid == [False] * len(short), len(valid)
    finally:
        stop.set()
        t.join()
        sys.setswitchinterval(interval)


def test_item22_ctrl_c_stops_a_pipelined_batch_and_the_next_one_works():
    # Slices of one 300 KB item each, read far faster than they are worked
    # on: the interrupt comes while the threads walk, and the threads end.
    out = interrupted(
        """
        import iribis
        items = ["http://h/" + "a" * 300_000 + " "] * 2_000_000
        print("go", flush=True)
        try:
            iribis.check_many(items)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        print(iribis.is_valid_many(["http://h/", None, "a b"] * 5000) == [True, None, False] * 5000)
        """
    )
    assert out == "interrupted\nTrue\n", out


# -- Single calls hold the GIL on 100 MB inputs


def test_gil_released_on_large_single_inputs():
    # With a switch interval of minutes, another thread runs only when the
    # main thread lets go of the GIL; it counts while iribis works.
    done = run_child(
        """
        import sys, threading, time
        import iribis

        sys.setswitchinterval(300)
        big = "http://h/" + "a" * 100_000_000
        count, stop = [0], threading.Event()

        def counter():
            while not stop.is_set():
                count[0] += 1
                time.sleep(0.001)  # lets the main thread have the GIL

        t = threading.Thread(target=counter)
        t.start()
        for name, call in [
            ("is_valid", lambda: iribis.is_valid(big)),
            ("parse", lambda: iribis.parse(big)),
            ("check", lambda: iribis.check(big)),
            ("to_uri", lambda: iribis.to_uri(big)),
            ("normalize", lambda: iribis.normalize(big)),
        ]:
            before = count[0]
            call()
            print(name, count[0] > before)
        stop.set()
        t.join()
        """,
        budget=4 << 30,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        w for name in ("is_valid", "parse", "check", "to_uri", "normalize") for w in (name, "True")
    ]


# -- A document with one huge token


@pytest.mark.parametrize(
    "fmt, head, before, budget",
    [
        ("xml", b'<r xmlns="http://e/">', ["http://e/"], 256 << 20),
        ("ntriples", b'<http://e/s> <http://e/p> "', ["http://e/s", "http://e/p"], 256 << 20),
        # A second parser on a thread of its own, with its own arena.
        (
            "rdfxml",
            b'<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:e="http://e/">'
            b'<rdf:Description rdf:about="http://e/s"><e:p>',
            ["http://www.w3.org/1999/02/22-rdf-syntax-ns#", "http://e/", "http://e/s", "e:p"],
            384 << 20,
        ),
    ],
)
def test_a_token_past_the_limit_is_a_document_error_not_an_abort(fmt, head, before, budget):
    # A 64 MiB text (four times the limit) in bytes read in place: the
    # budget holds the bytes once and the reader's bounded buffers, not a
    # copy of the bytes nor buffers that grow with the token.
    r = run_child(
        f"""
        import json, iribis
        doc = {head!r}.ljust(64 << 20, b"a")
        records = iribis.check_document(doc, format={fmt!r})
        print(json.dumps([r["input"] for r in records[:-1]]))
        print(records[-1]["syntax_error"]["message"])
        """,
        budget=budget,
    )
    assert r.returncode == 0, r.stderr
    inputs, message = r.stdout.splitlines()
    assert json.loads(inputs) == before
    kind = "string" if fmt == "ntriples" else "text"
    assert message == (
        f"this {kind} is longer than 16 MiB, the longest token the reader holds: "
        "the document is not read further"
    )


# -- Every entry point, hostile objects at random


FUZZ = r'''
import random, sys
import pyarrow as pa
import iribis, iribis.rfc3987, iribis.jsonschema

rng = random.Random(int(sys.argv[1]))
ALPHABET = list("azAZ09:/?#[]@!$&'()*+,;=%-._~ ") + [
    "\x00", "\x1f", "\x7f", "\x85", "\u00a0", "\u200e", "\u202e", "\ufeff", "\ufffd",
    "\uffff", "\ud800", "\udbff", "\udc00", "\udfff", "\U0001f600", "\U000e0001",
    "\U0010ffff", "例", "é", "%41", "%zz", "xn--", "::", "[::1]", "v1.x",
]
SEEDS = ["http://h/", "http://例え.jp/a?b#c", "//u@[::1]:80/p", "a:b", "../x", "", "?q", "#f",
         "mailto:a@b", "http://[v7.x]/", "file:///c:/x"]


def text():
    r = rng.random()
    if r < 0.3:
        s = rng.choice(SEEDS)
        for _ in range(rng.randrange(4)):
            i = rng.randrange(len(s) + 1)
            s = s[:i] + rng.choice(ALPHABET) + s[i + rng.randrange(2):]
        return s
    if r < 0.97:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(40)))
    return rng.choice(SEEDS) + rng.choice(ALPHABET) * rng.randrange(100_000)


class Lying:
    def __init__(self, length, items): self.length, self.items = length, items
    def __len__(self):
        if isinstance(self.length, BaseException): raise self.length
        return self.length
    def __iter__(self): return iter(self.items)

class BadIter:
    def __iter__(self): return 42

class BadArrow:
    def __init__(self, result): self.result = result
    def __arrow_c_array__(self, requested_schema=None):
        if isinstance(self.result, BaseException): raise self.result
        return self.result

class Weird(str):
    def __str__(self): raise RuntimeError("no")
    def __hash__(self): raise RuntimeError("no")


def thing():
    return rng.choice([
        None, 0, -1, 2**70, 1.5, b"http://a/", bytearray(b"a"), memoryview(b"a"), [], {}, object(),
        Weird("http://h/"), text, ValueError("x"), float("nan"),
    ])


def arg():
    return text() if rng.random() < 0.8 else thing()


def midway():
    for _ in range(rng.randrange(5)):
        yield text()
    raise LookupError("midway")


def batch():
    items = [rng.choice([text(), text(), None, thing()]) if rng.random() < 0.2 else text()
             for _ in range(rng.randrange(30))]
    r = rng.random()
    if r < 0.25:
        return items
    if r < 0.35:
        return tuple(items)
    if r < 0.45:
        return iter(items)
    if r < 0.5:
        return midway()
    if r < 0.6:
        return Lying(rng.choice([2**62, 10**11, 2**63 - 1, -1, OverflowError("x"), 0]), items)
    if r < 0.65:
        return BadIter()
    if r < 0.7:
        return BadArrow(rng.choice([None, (1, 2), ValueError("x"), "capsule", ()]))
    if r < 0.8:
        try:
            return pa.array([s if isinstance(s, str) else None for s in items],
                            rng.choice([pa.string(), pa.large_string(), pa.string_view()]))
        except Exception:
            return pa.array([], pa.string())
    if r < 0.85:
        return pa.chunked_array([pa.array(["http://h/", None]), pa.array([], pa.string())])
    if r < 0.9:
        return pa.array([1, 2, None])
    return thing()


def keyword():
    return rng.choice([
        {}, {"rule": rng.choice(["IRI", "ihost", "IPv6address", "URI", "ucschar", text()])},
        {"profile": rng.choice(["rfc3987bis", "rfc3987", "rfc3986", "leiri", text()])},
        {"rule": thing()}, {"profile": thing()},
    ])


def severities():
    return rng.choice([None, "default", "strict", "leiri", text(), thing(),
                       {"DOT_SEGMENT": "allow"}, {"preset": "strict", "SYNTAX_ERROR": "allow"},
                       {text(): text()}, {1: "allow"}, {"DOT_SEGMENT": thing()}, {"preset": thing()}])


CALLS = [
    lambda: iribis.parse(arg(), **keyword()),
    lambda: iribis.is_valid(arg(), **keyword()),
    lambda: iribis.resolve(arg(), arg(), strict=rng.choice([True, False, thing()])),
    lambda: iribis.relativize(arg(), arg()),
    lambda: iribis.normalize(arg(), rng.choice(["simple", "syntax", "scheme", text(), thing()])),
    lambda: iribis.compare(arg(), arg(), rng.choice(["simple", "syntax", "scheme", text()]), ignore_fragment=rng.random() < 0.5),
    lambda: iribis.to_uri(arg(), idna=rng.random() < 0.5, query_charset=rng.choice([None, "utf-8", "windows-1252", "shift_jis", text(), thing()]),
                          profile=rng.choice(["rfc3987bis", "leiri", text()])),
    lambda: iribis.to_iri(arg(), idna=rng.random() < 0.5),
    lambda: iribis.readings(arg(), profile=rng.choice(["rfc3987bis", "rfc3986", text(), thing()])),
    lambda: iribis.check(arg(), severities=severities()),
    lambda: iribis.is_valid_many(batch(), **keyword()),
    lambda: iribis.check_many(batch(), severities=severities()),
    lambda: iribis._iribis._valid_and_codes(batch(), severities=severities()),
    lambda: iribis.rfc3987.match(arg(), rng.choice(["IRI_reference", "IRI", "ihost", "pct_encoded", text(), thing()])),
    lambda: iribis.rfc3987.parse(arg(), rng.choice(["IRI_reference", None, "URI", text()])),
    lambda: iribis.rfc3987.resolve(arg(), arg(), strict=rng.random() < 0.5),
    lambda: iribis.rfc3987.compose(scheme=arg(), path=arg()),
    lambda: iribis.jsonschema.format_checker.conforms(arg(), rng.choice(["iri", "iri-reference", "uri", "uri-reference"])),
    lambda: iribis.parse("http://h/") == arg(),
]

for i in range(int(sys.argv[2])):
    call = rng.choice(CALLS)
    try:
        call()
    except Exception:
        pass
    except BaseException as e:  # PanicException, or anything else but an Exception
        print(f"call {i}: {type(e).__module__}.{type(e).__name__} escaped: {e!r}")
        sys.exit(1)
print("ok")
'''


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_hostile_calls_never_crash(seed):
    # In a child: an abort or a segfault is a failed test, not a dead run.
    done = subprocess.run(
        child_args(FUZZ, 4 << 30) + [str(seed), "3000"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=os.path.dirname(__file__),
    )
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stdout + done.stderr[-3000:]
