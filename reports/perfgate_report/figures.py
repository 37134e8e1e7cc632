"""The figures the report derives from a scenario: its key figure, a write-up's anchor, a
measurement that fell back to a weaker source, a sample left out. Plain values (model.py fills them)."""

from __future__ import annotations

from dataclasses import dataclass

@dataclass
class KeyFigure:
    metric: str
    unit: str
    better: str
    before: float | None
    after: float | None
    ratio: float | None  # AFTER / BEFORE
    ci: tuple[float | None, float | None] | None
    ratio_source: str  # "paired" (comparisons[]) or "none" (no comparison recorded)
    verdict: str | None  # comparison verdict, or None when there is none


@dataclass
class Anchor:
    """A write-up's figure. `factor`, when the manifest gives it, is the write-up's own headline
    factor (19.5x from its totals), printed instead of one worked out from before/after."""

    label: str
    metric: str
    unit: str
    better: str
    before: float
    after: float
    ours_before: float | None
    ours_after: float | None
    ours_ratio: float | None  # AFTER / BEFORE
    raw: dict
    factor: float | None = None

    @property
    def ratio(self) -> float | None:
        """AFTER / BEFORE of the write-up."""
        if self.factor:
            return 1.0 / self.factor if self.better == "lower" else self.factor
        return self.after / self.before if self.before else None


@dataclass
class Fallback:
    scope: str  # "host" or a scenario name
    metric: str
    source: str
    variants: list[str]
    why: str = ""


@dataclass
class Exclusion:
    what: str
    why: str
    derived: bool = False  # worked out from samples here rather than listed by the harness
