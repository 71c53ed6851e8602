"""Type stubs of the native module ``iribis._iribis`` (re-exported by ``iribis``)."""

from typing import Iterable, Literal, Mapping, Optional, TypedDict, Union, overload

import pyarrow

Profile = Literal["rfc3987bis", "rfc3987", "rfc3986", "leiri"]
Level = Literal["simple", "syntax", "scheme"]
SeverityName = Literal["allow", "info", "warning", "error"]
#: A preset name, or a mapping of code names (and ``"preset"``) to severities.
Severities = Union[Literal["default", "strict", "leiri"], Mapping[str, str]]
HostType = Literal["reg-name", "IPv4address", "IPv6address", "IPvFuture"]
Component = Literal[
    "scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment", "input"
]
StringArray = Union[pyarrow.StringArray, pyarrow.LargeStringArray, pyarrow.StringViewArray]

class ParseError(ValueError):
    """The input does not match the rule; ``str(e)`` is one line."""

    byte: int
    char: int
    message: str
    component: Component
    expected: list[str]
    """What could have stood at the position: literals in double quotes, ABNF rule names, ``"the end"``."""
    spec: str
    input: str

class IriRef:
    """A parsed IRI reference: ``None`` for an absent component, ``""`` for an empty one."""

    @property
    def scheme(self) -> Optional[str]: ...
    @property
    def authority(self) -> Optional[str]: ...
    @property
    def userinfo(self) -> Optional[str]: ...
    @property
    def host(self) -> Optional[str]: ...
    @property
    def host_type(self) -> Optional[HostType]: ...
    @property
    def port(self) -> Optional[str]: ...
    @property
    def port_number(self) -> Optional[int]: ...
    @property
    def path(self) -> Optional[str]:
        """Never ``None`` for the reference rules (``IRI-reference``, ``IRI``, ...)."""
    @property
    def query(self) -> Optional[str]: ...
    @property
    def fragment(self) -> Optional[str]: ...
    def __str__(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Violation:
    """One finding of :func:`check`."""

    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> Literal["info", "warning", "error"]: ...
    @property
    def spec(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def byte(self) -> int: ...
    @property
    def char(self) -> int: ...
    @property
    def len(self) -> int: ...
    @property
    def component(self) -> Component: ...
    @property
    def readers(self) -> list[str]:
        """On a ``READING_`` finding and ``HOST_NOT_ALLOWED``: the readers that read the input otherwise."""
    @property
    def reached(self) -> str | None:
        """The host those readers reach, in canonical form."""
    @property
    def address_class(self) -> str | None:
        """Its class when it is an IP address (``loopback``, ``private``, ``link-local`` ...)."""
    @property
    def whatwg(self) -> dict[str, str | None] | None:
        """``{"host", "path"}`` as the WHATWG URL Standard reads the input, on a ``READING_`` finding."""

def parse(s: str, *, rule: str = "IRI-reference", profile: Profile = "rfc3987bis") -> IriRef: ...
def is_valid(s: str, *, rule: str = "IRI-reference", profile: Profile = "rfc3987bis") -> bool: ...
def resolve(base: str, ref: str, *, strict: bool = True) -> str: ...
def relativize(base: str, target: str) -> str: ...
def normalize(s: str, level: Level = "syntax") -> str: ...
def compare(
    a: str, b: str, level: Level = "scheme", *, ignore_fragment: bool = False
) -> Optional[Level]: ...
def to_uri(
    s: str,
    *,
    idna: bool = False,
    query_charset: Optional[str] = None,
    profile: Profile = "rfc3987bis",
) -> str: ...
def to_iri(s: str, *, idna: bool = True) -> str: ...
def check(
    s: str, *, profile: Profile = "rfc3987bis", severities: Optional[Severities] = None
) -> list[Violation]: ...
@overload
def is_valid_many(
    items: pyarrow.ChunkedArray, *, rule: str = "IRI-reference", profile: Profile = "rfc3987bis"
) -> pyarrow.ChunkedArray: ...
@overload
def is_valid_many(
    items: StringArray, *, rule: str = "IRI-reference", profile: Profile = "rfc3987bis"
) -> pyarrow.BooleanArray: ...
@overload
def is_valid_many(
    items: Iterable[Optional[str]],
    *,
    rule: str = "IRI-reference",
    profile: Profile = "rfc3987bis",
) -> list[Optional[bool]]: ...
@overload
def check_many(
    items: pyarrow.ChunkedArray,
    *,
    profile: Profile = "rfc3987bis",
    severities: Optional[Severities] = None,
) -> pyarrow.ChunkedArray: ...
@overload
def check_many(
    items: StringArray, *, profile: Profile = "rfc3987bis", severities: Optional[Severities] = None
) -> pyarrow.ListArray: ...
@overload
def check_many(
    items: Iterable[Optional[str]],
    *,
    profile: Profile = "rfc3987bis",
    severities: Optional[Severities] = None,
) -> list[Optional[list[Violation]]]: ...
def _valid_and_codes(
    items: StringArray, *, profile: Profile = "rfc3987bis", severities: Optional[Severities] = None
) -> tuple[pyarrow.BooleanArray, pyarrow.ListArray]: ...

ReaderName = Literal["rfc3987bis", "whatwg", "inet_aton", "decoded"]

class Reading(TypedDict):
    """One reader's components (``None`` where it reads none)."""

    scheme: Optional[str]
    userinfo: Optional[str]
    host: Optional[str]
    host_type: Optional[Literal["name", "opaque", "ipv4", "ipv6", "ipvfuture", "empty"]]
    address_class: Optional[str]
    port: Optional[str]
    path: Optional[str]
    query: Optional[str]
    fragment: Optional[str]

class Rejected(TypedDict):
    """A reader's refusal of the input."""

    error: str

class Difference(TypedDict):
    """Where the readings part: a ``READING_`` finding of ``check``."""

    code: str
    component: Component
    byte: int
    char: int
    len: int
    readers: list[ReaderName]
    reached: Optional[str]
    address_class: Optional[str]
    message: str

class Readings(TypedDict):
    readings: dict[ReaderName, Union[Reading, Rejected, None]]
    differences: list[Difference]

def readings(s: str, *, profile: Profile = "rfc3987bis") -> Readings: ...
# check_document (iri check --from): its own imports, so that the lines
# above stay as they are.
import os
from typing import Any

def check_document(
    path_or_bytes: Union[str, os.PathLike[str], bytes],
    *,
    format: Literal["ntriples", "nquads", "turtle", "trig", "rdfxml", "html", "xml"],
    base: Optional[str] = None,
    encoding: Optional[str] = None,
    profile: Profile = "rfc3987bis",
    severities: Optional[Severities] = None,
) -> list[dict[str, Any]]: ...
