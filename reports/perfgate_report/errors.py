"""The one error the report raises for bad input: it names the file and the field."""

from __future__ import annotations


class BadInput(Exception):
    """A results file that cannot be reported: not JSON, another schema version, a missing or
    mistyped field. Rendered as `FILE: FIELD: PROBLEM`; the CLI maps it to exit code 2."""

    def __init__(self, file: str, field: str | None, problem: str):
        self.file = file
        self.field = field
        self.problem = problem
        where = f"{file}: {field}" if field else file
        super().__init__(f"{where}: {problem}")
