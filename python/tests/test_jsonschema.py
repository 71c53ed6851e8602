"""iribis.jsonschema.format_checker on the JSON-Schema-Test-Suite's optional format tests."""

import json

import jsonschema
import pytest

from conftest import DATA
from iribis.jsonschema import format_checker, register

SUITE = DATA / "json-schema-test-suite"
FORMATS = ["iri", "iri-reference", "uri", "uri-reference"]


def cases():
    for name in FORMATS:
        for group in json.loads((SUITE / f"{name}.json").read_text(encoding="utf-8")):
            for test in group["tests"]:
                yield pytest.param(
                    group["schema"], test["data"], test["valid"], id=f"{name}: {test['description']}"
                )


@pytest.mark.parametrize(("schema", "data", "valid"), list(cases()))
def test_suite(schema, data, valid):
    validator = jsonschema.Draft202012Validator(schema, format_checker=format_checker)
    assert validator.is_valid(data) == valid


def test_every_format_is_ours():
    for name in FORMATS:
        assert format_checker.checkers[name][0].__module__ == "iribis.jsonschema"
    # The other formats jsonschema knows are kept.
    assert "date" in format_checker.checkers


def test_register_on_own_checker():
    checker = register(jsonschema.FormatChecker(formats=["email"]))
    assert set(checker.checkers) == {"email", *FORMATS}
    assert not checker.conforms("a b", "uri-reference")


def test_cause_is_the_parse_error():
    import iribis

    validator = jsonschema.Draft202012Validator({"format": "iri"}, format_checker=iribis.jsonschema.format_checker)
    [error] = validator.iter_errors("http://例え.jp/a b")
    assert error.message == "'http://例え.jp/a b' is not a 'iri'"
    assert isinstance(error.cause, iribis.ParseError)
    assert (error.cause.char, error.cause.component) == (14, "path")
    assert error.cause.message == "a space is not allowed in a path: percent-encode it as %20"
    # Valid instances and other types still conform.
    assert validator.is_valid("http://例え.jp/") and validator.is_valid(12)
