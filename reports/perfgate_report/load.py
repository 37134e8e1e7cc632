"""Reading a results file: parse, check the schema version, validate against the schema
(schema.py), then what a schema cannot say (names that must refer to each other), and say
clearly what is wrong (`results.json: scenarios[0].samples: missing`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import schema
from .errors import BadInput

SCHEMA_VERSION = 1


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def load_results(path: str | Path) -> dict:
    """Returns the validated results document, or raises BadInput naming file and field."""
    label = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise BadInput(label, None, "no such file") from None
    except IsADirectoryError:
        raise BadInput(label, None, "is a directory, not a results file") from None
    except OSError as e:
        raise BadInput(label, None, f"cannot read: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadInput(label, None, f"not UTF-8 text (byte {e.start}); is this a results file?") from None
    if not text.strip():
        raise BadInput(label, None, "empty file, not JSON")
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise BadInput(label, None, f"not JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except ValueError as e:
        raise BadInput(label, None, f"not JSON: {e}") from None
    validate(doc, label)
    return doc


def validate(doc: Any, label: str) -> None:
    if not isinstance(doc, dict):
        raise BadInput(label, None, f"expected a JSON object at the top, got {schema.json_type_name(doc)}")
    if "schema_version" not in doc:
        raise BadInput(label, "schema_version", "missing (is this a perfgate results file?)")
    version = doc["schema_version"]
    if version != SCHEMA_VERSION:
        raise BadInput(
            label,
            "schema_version",
            f"{json.dumps(version)} is not supported: this report reads schema version "
            f"{SCHEMA_VERSION}; render it with the perfgate that wrote it",
        )
    problem = schema.first_error(doc)
    if problem is not None:
        raise BadInput(label, problem[0], problem[1])
    _check_references(doc, label)


def _check_references(doc: dict, label: str) -> None:
    """What the schema cannot say: names that must refer to each other."""
    for i, sc in enumerate(doc["scenarios"]):
        at = f"scenarios[{i}]"
        names = [v["name"] for v in sc["variants"]]
        for j, name in enumerate(names):
            if name in names[:j]:
                raise BadInput(label, f"{at}.variants[{j}].name", f"duplicate variant {json.dumps(name)}")
        for required in ("before", "after"):
            if required not in names and "error" not in sc:
                raise BadInput(label, f"{at}.variants", f"no variant named {json.dumps(required)}")
        known = set(names)
        for j, s in enumerate(sc["samples"]):
            if s["variant"] not in known:
                raise BadInput(
                    label, f"{at}.samples[{j}].variant", f"{json.dumps(s['variant'])} is not one of {at}.variants"
                )
        for variant in sc["summaries"]:
            if variant not in known:
                raise BadInput(label, f"{at}.summaries.{variant}", f"{json.dumps(variant)} is not one of {at}.variants")
        for j, c in enumerate(sc["comparisons"]):
            for key in ("variant", "baseline"):
                if c[key] not in known:
                    raise BadInput(
                        label, f"{at}.comparisons[{j}].{key}", f"{json.dumps(c[key])} is not one of {at}.variants"
                    )
