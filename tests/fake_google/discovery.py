"""Requests checked against Google's own discovery documents for Sheets v4 and Drive v3.

The documents are kept in the repo, in discovery_documents/ beside this module, with their revision
(scripts/refresh_discovery.py fetches newer ones from Google). `check(method, url, body)` lists what Google would
refuse or what is deprecated: an unknown URL or verb, an unknown, repeated, mistyped or missing
query parameter, a body field that is unknown, of the wrong type or outside its enum, a field
mask (the `fields` parameter, or a request's own `fields`) naming a field that does not exist, and two
fields of one oneof (`oneofs`) set together.

Oneofs: the discovery documents carry no mark of a proto `oneof` (none of their descriptions says
"Union field"; that wording is only on the REST reference pages, e.g. UpdateCellsRequest's "Union field
area ... can be only one of the following: start, range" at
https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/request#UpdateCellsRequest). So
they are learnt two ways: from the descriptions that do say it ("When writing, only one of range or
named_range_id or table_id may be set", "Mutually exclusive with visible_foreground_color"), and from
UNION_FIELDS, the unions of the REST reference that no description mentions (each field checked to exist
in the documents). Google refuses such a body while parsing it, before any request runs:
"Invalid value at 'requests[0].update_cells' (oneof), oneof field 'area' is already set. Cannot set
'range'" (the wording of protobuf's JSON parser, ProtoStreamObjectWriter: "oneof field 'data' is already
set. Cannot set 'intData'", which Google's 400 answers carry after "Invalid value at '<path>' (oneof), ").
"""
from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from tests.fake_google import field_mask

DOCUMENTS = ("sheets.v4.json", "drive.v3.json")
CHECKED_HOSTS = ("sheets.googleapis.com", "www.googleapis.com")
# The resource that a request's own `fields` mask applies to, where the request holds more than it.
# (Every other Sheets request with a mask holds exactly one resource besides its ranges.)
MASK_TARGETS = {"UpdateCellsRequest": "CellData", "RepeatCellRequest": "CellData", "AppendCellsRequest": "CellData",
                "UpdateDimensionPropertiesRequest": "DimensionProperties"}
_INT32 = (-2**31, 2**31 - 1)
# Unions of the REST reference ("Union field <name> ... can be only one of the following") that no description
# in the discovery documents mentions: schema -> (union name, its fields). "*" is every field of the schema.
UNION_FIELDS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "Request": (("kind", ("*",)),),
    "Response": (("kind", ("*",)),),
    "ExtendedValue": (("value", ("*",)),),
    "ColorStyle": (("kind", ("*",)),),
    "UpdateCellsRequest": (("area", ("start", "range")),),
    "AppendCellsRequest": (("area", ("sheetId", "tableId")),),
    "ConditionalFormatRule": (("rule", ("booleanRule", "gradientRule")),),
    "DataFilter": (("filter", ("developerMetadataLookup", "a1Range", "gridRange")),),
    "PasteDataRequest": (("kind", ("delimiter", "html")),),
    "DeveloperMetadataLocation": (("location", ("spreadsheet", "sheetId", "dimensionRange")),),
    "EmbeddedObjectPosition": (("location", ("sheetId", "overlayPosition", "newSheet")),),
    "SortSpec": (("reference", ("dimensionIndex", "dataSourceColumnReference")),),
    "FilterSpec": (("reference", ("columnIndex", "dataSourceColumnReference")),),
    "PivotValue": (("value", ("sourceColumnOffset", "formula", "dataSourceColumnReference")),),
    "PivotGroup": (("source", ("sourceColumnOffset", "dataSourceColumnReference")),),
}


class DiscoveryUnavailable(RuntimeError):
    """The discovery documents are not in discovery_documents/."""


@dataclass(frozen=True)
class Method:
    """One API method of a discovery document."""

    id: str
    verb: str
    pattern: re.Pattern[str]
    literal: int                     # characters of the path outside parameters (more is more specific)
    parameters: Mapping[str, Any]
    request: str | None
    response: str | None
    api: Api


class Api:
    """One discovery document: its methods, schemas, global parameters and oneofs."""

    def __init__(self, doc: Mapping[str, Any]):
        self.name = str(doc["name"])
        self.base = urlsplit(doc["rootUrl"] + doc["servicePath"])
        self.schemas: Mapping[str, Any] = doc["schemas"]
        self.parameters: Mapping[str, Any] = doc.get("parameters", {})
        self.methods: list[Method] = []
        self.oneofs: dict[str, list[tuple[str, tuple[str, ...]]]] = learn_oneofs(self.schemas)
        self._collect(doc)

    def _collect(self, node: Mapping[str, Any]) -> None:
        for method in node.get("methods", {}).values():
            path = method.get("flatPath") or method["path"]
            pattern, literal = _path_pattern(self.base.path + path)
            self.methods.append(Method(
                method["id"], method["httpMethod"], pattern, literal, method.get("parameters", {}),
                (method.get("request") or {}).get("$ref"), (method.get("response") or {}).get("$ref"), self))
            simple = method.get("mediaUpload", {}).get("protocols", {}).get("simple", {}).get("path")
            if simple:         # the media upload of the same method: an absolute path (/upload/drive/v3/…)
                pattern, literal = _path_pattern(simple)
                self.methods.append(Method(
                    method["id"], method["httpMethod"], pattern, literal, method.get("parameters", {}),
                    (method.get("request") or {}).get("$ref"), (method.get("response") or {}).get("$ref"), self))
        for resource in node.get("resources", {}).values():
            self._collect(resource)


def _path_pattern(path: str) -> tuple[re.Pattern[str], int]:
    """A regex for a discovery path ("/v4/spreadsheets/{spreadsheetId}/values/{range}:append")."""
    out, literal, pos = "", 0, 0
    for match in re.finditer(r"\{\+?([A-Za-z0-9_]+)\}", path):
        text = path[pos:match.start()]
        out += re.escape(text)
        literal += len(text)
        name = match[1]
        out += f"(?P<{name}>.+?)" if name == "range" else f"(?P<{name}>[^/:]+)"
        pos = match.end()
    out += re.escape(path[pos:])
    literal += len(path) - pos
    return re.compile(out + "$"), literal


def camel(name: str) -> str:
    """A proto field name as its JSON name: named_range_id -> namedRangeId."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def snake(name: str) -> str:
    """A JSON field name as its proto name: updateCells -> update_cells."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m[1].lower(), name)


_ONLY_ONE = re.compile(r"only one of ((?:[a-z_]+(?:,? (?:or )?)?)+) may be set", re.I)
_EXCLUSIVE = re.compile(r"mutually exclusive with ([a-z_]+)", re.I)


def learn_oneofs(schemas: Mapping[str, Any]) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    """Schema -> its unions as (name, JSON fields): those the descriptions state, then UNION_FIELDS (only the
    fields the schema has; "*" is all of them). A union learnt from descriptions is named after its fields."""
    out: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for name, spec in schemas.items():
        properties = spec.get("properties", {})
        groups: set[tuple[str, ...]] = set()
        for key, prop in properties.items():
            text = prop.get("description", "")
            for match in _ONLY_ONE.finditer(text):
                fields = tuple(sorted(camel(f) for f in re.split(r",? or |, ", match[1]) if f))
                if len(fields) > 1 and all(f in properties for f in fields):
                    groups.add(fields)
            for match in _EXCLUSIVE.finditer(text):
                other = camel(match[1])
                if other in properties:
                    groups.add(tuple(sorted((key, other))))
        unions = [("|".join(g), g) for g in sorted(groups)]
        for union, fields in UNION_FIELDS.get(name, ()):
            present = tuple(properties) if fields == ("*",) else tuple(f for f in fields if f in properties)
            if len(present) > 1:
                unions.append((union, present))
        if unions:
            out[name] = unions
    return out


def oneof_conflicts(api: Api, schema: str, value: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """(union, the field set first, the one set besides) for each union of `schema` that `value` sets twice."""
    out = []
    for union, fields in api.oneofs.get(schema, ()):
        present = [k for k in value if k in fields]
        if len(present) > 1:
            out.append((union, present[0], present[1]))
    return out


def request_oneof_error(kind: str, body: Mapping[str, Any], where: str) -> str | None:
    """Google's refusal of a batchUpdate request `kind` whose body sets two fields of one oneof, or None
    (also None without the discovery documents)."""
    if not available():
        return None
    sheets = next(api for api in apis() if api.name == "sheets")
    schema = kind[:1].upper() + kind[1:] + "Request"
    conflicts = oneof_conflicts(sheets, schema, body)
    return oneof_message(where, conflicts[0][0], conflicts[0][2]) if conflicts else None


def oneof_message(where: str, union: str, second: str) -> str:
    """Google's refusal of a body setting two fields of one oneof (`where` in JSON names, e.g.
    "requests[0].updateCells")."""
    path = ".".join(snake(part) for part in where.split("."))
    return (f"Invalid value at '{path}' (oneof), oneof field '{snake(union)}' is already set. "
            f"Cannot set '{second}'")


DOCUMENTS_DIR = Path(__file__).with_name("discovery_documents")


@functools.lru_cache(maxsize=1)
def apis() -> tuple[Api, ...]:
    """The Sheets v4 and Drive v3 documents kept in discovery_documents/ (loaded once; their revisions are
    in its README, `python scripts/refresh_discovery.py` fetches newer ones)."""
    paths = [DOCUMENTS_DIR / name for name in DOCUMENTS]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        raise DiscoveryUnavailable(f"Google's discovery documents are missing from {DOCUMENTS_DIR}: {missing}; "
                                   "run python scripts/refresh_discovery.py")
    return tuple(Api(json.loads(p.read_text(encoding="utf-8"))) for p in paths)


def available() -> bool:
    try:
        apis()
    except DiscoveryUnavailable:
        return False
    return True


def find_method(verb: str, url: str) -> tuple[Method, dict[str, str]] | None:
    """The method a request calls, and its path parameters; None if the URL is no API method."""
    parts = urlsplit(url)
    found: list[tuple[int, Method, dict[str, str]]] = []
    for api in apis():
        if parts.netloc != api.base.netloc:
            continue
        for method in api.methods:
            match = method.pattern.match(parts.path)
            if match and method.verb == verb.upper():
                found.append((method.literal, method, {k: unquote(v) for k, v in match.groupdict().items()}))
    if not found:
        return None
    _, method, params = max(found, key=lambda item: item[0])
    return method, params


def applies(url: str) -> bool:
    """Whether `url` belongs to an API checked here (not, e.g., the OAuth token endpoint)."""
    return urlsplit(url).netloc in CHECKED_HOSTS


def check(verb: str, url: str, body: Any = None) -> list[str]:
    """Every way the request departs from the discovery documents (empty: Google would take it)."""
    if not applies(url):
        return []
    found = find_method(verb, url)
    if found is None:
        return [f"{verb.upper()} {urlsplit(url).path}: no such method in Sheets v4 or Drive v3"]
    method, _ = found
    problems = _check_query(method, parse_qs(urlsplit(url).query, keep_blank_values=True))
    if body is not None:
        if method.request is None:
            problems.append(f"{method.id}: takes no request body")
        else:
            problems.extend(_Checker(method.api).value(body, {"$ref": method.request}, "body"))
    return [f"{method.id}: {p}" if not p.startswith(method.id) else p for p in problems]


def _check_query(method: Method, query: Mapping[str, list[str]]) -> list[str]:
    problems = []
    for name, values in query.items():
        spec = method.parameters.get(name) or method.api.parameters.get(name)
        if spec is None or spec.get("location", "query") != "query":
            problems.append(f"unknown query parameter {name!r}")
            continue
        if spec.get("deprecated"):
            problems.append(f"query parameter {name!r} is deprecated")
        if len(values) > 1 and not spec.get("repeated"):
            problems.append(f"query parameter {name!r} given {len(values)} times")
        for value in values:
            problems.extend(f"query parameter {name!r}: {p}" for p in _scalar(value, spec, text=True))
        if name == "fields" and method.response:
            problems.extend(f"fields={values[0]!r}: {p}"
                            for p in _Checker(method.api).mask(values[0], method.response))
    for name, spec in method.parameters.items():
        if spec.get("required") and spec.get("location") == "query" and name not in query:
            problems.append(f"required query parameter {name!r} is missing")
    return problems


def _scalar(value: Any, spec: Mapping[str, Any], text: bool = False) -> list[str]:
    """Type and enum of one scalar (a query parameter is text: "true", "12")."""
    kind, fmt = spec.get("type"), spec.get("format", "")
    if kind == "boolean":
        ok = str(value).lower() in ("true", "false") if text else isinstance(value, bool)
        return [] if ok else [f"{value!r} is not a boolean"]
    if kind == "integer":
        if text or fmt in ("int64", "uint64"):
            ok = re.fullmatch(r"-?\d+", str(value)) is not None and not isinstance(value, bool)
        else:
            ok = isinstance(value, int) and not isinstance(value, bool)
        if not ok:
            return [f"{value!r} is not an integer"]
        if fmt in ("int32", "uint32") and not _INT32[0] <= int(value) <= _INT32[1]:
            return [f"{value!r} is out of the int32 range"]
        return []
    if kind == "number":
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)) or (
            text and re.fullmatch(r"-?\d+(\.\d*)?([eE][+-]?\d+)?", str(value)) is not None)
        return [] if ok else [f"{value!r} is not a number"]
    if kind == "string":
        if fmt in ("int64", "uint64") and not text:
            ok = (isinstance(value, int) and not isinstance(value, bool)) or (
                isinstance(value, str) and re.fullmatch(r"-?\d+", value) is not None)
            return [] if ok else [f"{value!r} is not an int64"]
        if not isinstance(value, str):
            return [f"{value!r} is not a string"]
        if "enum" in spec and value not in spec["enum"]:
            return [f"{value!r} is not one of {', '.join(spec['enum'])}"]
        return []
    return []


class _Checker:
    """Walks a JSON value (or a field mask) along the schemas of one API."""

    def __init__(self, api: Api):
        self.api = api

    def resolve(self, schema: Mapping[str, Any]) -> tuple[str | None, Mapping[str, Any]]:
        ref = schema.get("$ref")
        return (ref, self.api.schemas[ref]) if ref else (None, schema)

    def value(self, value: Any, schema: Mapping[str, Any], where: str) -> list[str]:
        name, spec = self.resolve(schema)
        kind = spec.get("type")
        if kind == "any" or (kind is None and "properties" not in spec):
            return []
        if kind == "array":
            if not isinstance(value, list):
                return [f"{where}: {value!r:.60} is not an array"]
            return [p for i, item in enumerate(value) for p in self.value(item, spec["items"], f"{where}[{i}]")]
        if kind == "object" or "properties" in spec:
            return self.object(value, name, spec, where)
        return [f"{where}: {p}" for p in _scalar(value, spec)]

    def object(self, value: Any, name: str | None, spec: Mapping[str, Any], where: str) -> list[str]:
        if not isinstance(value, dict):
            return [f"{where}: {value!r:.60} is not an object"]
        if "additionalProperties" in spec and "properties" not in spec:
            return [p for key, item in value.items()
                    for p in self.value(item, spec["additionalProperties"], f"{where}.{key}")]
        properties = spec.get("properties", {})
        problems: list[str] = []
        if name is not None:
            problems.extend(f"{where}: " + oneof_message(where.removeprefix("body."), union, second)
                            for union, _, second in oneof_conflicts(self.api, name, value))
        for key, item in value.items():
            prop = properties.get(key)
            if prop is None:
                problems.append(f"{where}: unknown field {key!r} in {name or 'object'}")
                continue
            if prop.get("deprecated"):
                problems.append(f"{where}.{key} is deprecated ({prop.get('description', '')[:80]})")
            if prop.get("format") == "google-fieldmask" and isinstance(item, str):
                target = self.mask_target(name, properties)
                if target is None:
                    problems.append(f"{where}.{key}: no known resource for this field mask")
                else:
                    problems.extend(f"{where}.{key}={item!r}: {p}" for p in self.mask(item, target))
                continue
            problems.extend(self.value(item, prop, f"{where}.{key}"))
        return problems

    def mask_target(self, name: str | None, properties: Mapping[str, Any]) -> str | None:
        """The schema a request's `fields` mask names fields of: the request's one resource."""
        if name in MASK_TARGETS:
            return MASK_TARGETS[name]
        refs = [p["$ref"] for key, p in properties.items()
                if "$ref" in p and p["$ref"] not in ("GridRange", "DimensionRange", "DataFilter")]
        return refs[0] if len(refs) == 1 else None

    def mask(self, mask: str, schema: str) -> list[str]:
        try:
            tree = field_mask.parse(mask)
        except field_mask.MaskError:
            return ["not a valid field mask"]
        return self._mask_tree(tree, {"$ref": schema}, "")

    def _mask_tree(self, tree: field_mask.Tree | None, schema: Mapping[str, Any], where: str) -> list[str]:
        if tree is None:
            return []
        name, spec = self.resolve(schema)
        while spec.get("type") == "array":
            name, spec = self.resolve(spec["items"])
        if "additionalProperties" in spec and "properties" not in spec:
            return []                      # map keys (e.g. appProperties) are free
        properties = spec.get("properties")
        if properties is None:
            return [f"{where or 'mask'} has no fields to select"]
        problems = []
        for key, sub in tree.items():
            if key == "*":
                continue
            prop = properties.get(key)
            path = f"{where}.{key}" if where else key
            if prop is None:
                problems.append(f"no field {path!r} in {name or 'object'}")
                continue
            if prop.get("deprecated"):
                problems.append(f"field {path!r} is deprecated")
            problems.extend(self._mask_tree(sub, prop, path))
        return problems


class DiscoveryViolation(AssertionError):
    """A request the fake received departs from Google's discovery documents."""
