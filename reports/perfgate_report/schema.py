"""The results shape: docs/results.schema.json, the one description of it, checked with Debian's
python3-jsonschema. The C++ readers check the same file (harness/src/store/results_schema.cpp,
which embeds it at build time) and name the same first field: of every problem, the one whose
path comes first in the schema's own order of properties (array elements by index, keys the
schema does not list after those it does, by name), a missing key where it would stand.

The schema is read two folders above the package: docs/ of the source tree, share/perfgate/docs/
of the build tree (a link to it) and of an installed perfgate.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "docs" / "results.schema.json"


@lru_cache(maxsize=1)
def results_schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator():
    # An integer is an integer, not 3.0: the C++ readers (nlohmann's JSON) tell them apart too.
    base = jsonschema.Draft202012Validator
    types = base.TYPE_CHECKER.redefine("integer", lambda _, v: isinstance(v, int) and not isinstance(v, bool))
    return jsonschema.validators.extend(base, type_checker=types)(results_schema())


def json_type_name(value: Any) -> str:
    names = {type(None): "null", bool: "boolean", int: "integer", float: "number", str: "string", list: "array",
             dict: "object"}
    return names.get(type(value), type(value).__name__)


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def first_error(doc: Any) -> tuple[str, str] | None:
    """(path, problem) of the first problem, the path written like `scenarios[0].samples[3].metrics.wall_ms`."""
    found = []
    for e in _validator().iter_errors(doc):
        at = list(e.absolute_path)
        if e.validator == "required":
            found += [(at + [k], "missing") for k in e.validator_value if k not in e.instance]
        else:
            found.append((at, e.message))
    if not found:
        return None
    at, problem = min(found, key=lambda f: _order(f[0]))
    text = ""
    for part in at:
        text = join(text, part)
    return text or "(document)", problem


def _order(path: list[str | int]) -> list[tuple[int, str]]:
    node, key = results_schema(), []
    for part in path:
        while "$ref" in node:  # only "#/$defs/NAME" is used
            node = results_schema()["$defs"][node["$ref"].rsplit("/", 1)[1]]
        if isinstance(part, int):
            key.append((part, ""))
            node = node.get("items", {})
            continue
        listed = list(node.get("properties", {}))
        key.append((listed.index(part), "") if part in listed else (len(listed), part))
        extra = node.get("additionalProperties")
        node = node["properties"][part] if part in listed else extra if isinstance(extra, dict) else {}
    return key
