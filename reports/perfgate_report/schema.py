"""A small JSON Schema validator: the subset docs/results.schema.json uses.

The report may only use Debian's matplotlib and numpy at run time, so it cannot depend on
jsonschema. This walks the schema (type, const, enum, required, properties,
additionalProperties, items, minItems, maxItems, anyOf, $ref to #/$defs) and reports the first
problem as (path, message), the path written like `scenarios[0].samples[3].metrics.wall_ms`.

The schema itself is a copy of docs/results.schema.json packaged beside this module
(results.schema.json); a test keeps the two identical.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterator

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool)
    or (isinstance(v, float) and v.is_integer()),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "null": lambda v: v is None,
}


@lru_cache(maxsize=1)
def results_schema() -> dict:
    text = resources.files("perfgate_report").joinpath("results.schema.json").read_text("utf-8")
    return json.loads(text)


def json_type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def errors(value: Any, schema: dict | None = None, path: str = "") -> Iterator[tuple[str, str]]:
    """Yields (path, problem) for every violation, depth first, in document order."""
    root = results_schema() if schema is None else schema
    yield from _check(value, root, root, path)


def first_error(value: Any, schema: dict | None = None) -> tuple[str, str] | None:
    return next(errors(value, schema), None)


def _resolve(schema: dict, root: dict) -> dict:
    while "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"unsupported $ref {ref}")
        node: Any = root
        for part in ref[2:].split("/"):
            node = node[part]
        schema = node
    return schema


def _check(value: Any, schema: dict, root: dict, path: str) -> Iterator[tuple[str, str]]:
    schema = _resolve(schema, root)
    here = path or "(document)"
    if "anyOf" in schema:
        options = schema["anyOf"]
        if not any(next(_check(value, s, root, path), None) is None for s in options):
            wanted = " or ".join(_describe(_resolve(s, root)) for s in options)
            yield here, f"expected {wanted}, got {_show(value)}"
        return
    if "const" in schema and value != schema["const"]:
        yield here, f"expected {json.dumps(schema['const'])}, got {_show(value)}"
        return
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(json.dumps(e) for e in schema["enum"])
        yield here, f"expected one of {allowed}, got {_show(value)}"
        return
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](value) for t in types):
            yield here, f"expected {' or '.join(types)}, got {_show(value)}"
            return
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                yield join(path, key), "missing"
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if key in props:
                yield from _check(item, props[key], root, join(path, key))
            elif isinstance(extra, dict):
                yield from _check(item, extra, root, join(path, key))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            yield here, f"expected at least {schema['minItems']} items, got {len(value)}"
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            yield here, f"expected at most {schema['maxItems']} items, got {len(value)}"
        if isinstance(schema.get("items"), dict):
            for i, item in enumerate(value):
                yield from _check(item, schema["items"], root, join(path, i))


def _describe(schema: dict) -> str:
    if "type" in schema:
        t = schema["type"]
        return " or ".join(t) if isinstance(t, list) else t
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(json.dumps(e) for e in schema["enum"])
    return "a value of another shape"


def _show(value: Any) -> str:
    text = json.dumps(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{json_type_name(value)} {text}"
