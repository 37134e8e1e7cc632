"""Sweep curves: a scenario whose variants carry `sweep` coordinates (buffer size, capacity,
concurrency) gets one panel per metric with the metric's median over the swept number, one line
per combination of the other coordinates (workload, cache), and 95% intervals of the median as
error bars. A variant with the other coordinates but no swept number (a no-cache BEFORE) is a
dashed reference line."""

from __future__ import annotations

import math
import re
from pathlib import Path

from matplotlib.lines import Line2D

from .. import metrics as metric_names
from . import PALETTE, Plot, axis_label, figure, finite, log_axis, plain_number, save, want_log, wrap

MAX_PANELS = 3


def _numeric(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def choose_x(sc) -> str | None:
    variants = sc.sweep_variants()
    keys: dict[str, set] = {}
    for v in variants:
        for k, x in sc.sweep(v).items():
            if _numeric(x):
                keys.setdefault(k, set()).add(x)
    keys = {k: xs for k, xs in keys.items() if len(xs) >= 2}
    if not keys:
        return None
    if "concurrency" in keys:
        return "concurrency"
    return max(keys, key=lambda k: (len(keys[k]), k))


def choose_panels(sc, variants: list[str]) -> list[list[str]]:
    """Groups of metrics, one panel each: the primary metric first (with its sibling
    percentiles), then throughput, hit ratios, latency percentiles, wall and syscalls, then the
    program's own metrics. Only metrics measured for at least two swept variants."""

    def present(m: str) -> bool:
        return sum(1 for v in variants if sc.values(v, m)) >= 2

    metrics = [m for m in sc.metrics() if present(m)]
    families: dict[str, list[str]] = {}
    for m in metrics:
        p = metric_names.percentile_of(m)
        if p and sc.unit(m) in metric_names.TIME_UNITS:
            families.setdefault(p[0], []).append(m)
    for fam in families.values():
        fam.sort(key=lambda m: metric_names.percentile_of(m)[1])

    def group(m: str) -> list[str]:
        p = metric_names.percentile_of(m)
        if p and p[0] in families:
            return families[p[0]]
        return [m]

    order: list[str] = []
    if sc.primary in metrics:
        order.append(sc.primary)
    order += [m for m in metrics if metric_names.is_rate_metric(m, sc.unit(m))]
    order += [m for m in metrics if "hit" in m]
    order += [m for fam in families.values() for m in fam]
    if sc.kind != "service":  # a service's wall_ms is the length of its measured phase: not a result
        order += [m for m in ("wall_ms", "syscalls") if m in metrics]
    own = [m for m in metrics if m not in metric_names.HARNESS_ORDER]
    order += sorted(own, key=lambda m: sc.unit(m) not in metric_names.TIME_UNITS)  # the program's timings first
    panels: list[list[str]] = []
    used: set[str] = set()
    for m in order:
        if m in used:
            continue
        g = group(m)
        used.update(g)
        panels.append(g)
        if len(panels) == MAX_PANELS:
            break
    return panels


MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
REF_STYLE = (0, (1, 2))


def make(sc, out_dir: Path) -> list[Plot]:
    """The whole sweep in one plot; and when the variants run several workloads (a categorical
    `workload` coordinate), one plot per workload as well, with the write-up's points marked."""
    plots = _make(sc, out_dir, list(sc.variants), "")
    workloads = list(dict.fromkeys(sc.sweep(v)["workload"] for v in sc.sweep_variants()
                                   if isinstance(sc.sweep(v).get("workload"), str)))
    if len(workloads) >= 2 and plots:
        for wl in workloads:
            among = [v for v in sc.variants if sc.sweep(v).get("workload") == wl]
            plots += _make(sc, out_dir, among, wl)
    return plots


def _writeup_marks(sc, swept: list[str], x_key: str, metric: str) -> list[tuple[float, float, str]]:
    """The write-up's anchors whose AFTER is a point of this plot, as (x, y, text): the
    write-up's ratio applied to our BEFORE, on the anchor's metric, or inverted on a
    lower-is-better primary metric (a per-request cost: +47% throughput is 1/1.47 the cost)."""
    marks = []
    for a in sc.anchors():
        after_v = a.raw.get("after_variant", "after")
        before_v = a.raw.get("before_variant", "before")
        if not a.before or not a.after:
            continue
        at = a.raw.get("at") if isinstance(a.raw.get("at"), dict) else {}
        if after_v in swept:
            x = sc.sweep(after_v)[x_key]
        elif _numeric(at.get(x_key)) and swept:
            # The anchor's point was not run (a smaller profile): place it by its coordinates
            # ("at": {"workload": "hot", "capacity": 256}) on the plot whose variants share them.
            shared = {k: sc.sweep(swept[0]).get(k) for k in at if k != x_key
                      and all(sc.sweep(v).get(k) == sc.sweep(swept[0]).get(k) for v in swept)}
            if any(at[k] != val for k, val in shared.items()) or not shared:
                continue
            x = at[x_key]
        else:
            continue
        ratio = a.after / a.before
        ob = sc.median(before_v, metric)
        if ob is None:
            continue
        if metric == a.metric:
            y = ob * ratio
        elif metric == sc.primary and sc.better(metric) == "lower" and sc.better(a.metric) == "higher":
            y = ob / ratio
        else:
            continue
        marks.append((x, y, f"write-up {ratio - 1:+.0%}"))
    return marks


def _make(sc, out_dir: Path, among: list[str], workload: str) -> list[Plot]:
    x_key = choose_x(sc)
    if x_key is None:
        return []
    swept = [v for v in sc.sweep_variants() if v in among and _numeric(sc.sweep(v).get(x_key))]
    refs = [v for v in among if v not in swept]
    positive = sorted({sc.sweep(v)[x_key] for v in swept if sc.sweep(v)[x_key] > 0})
    logx = len(positive) >= 2 and positive[-1] / positive[0] >= 8 and all(sc.sweep(v)[x_key] >= 0 for v in swept)
    if logx:  # capacity 0 (no cache) has no place on a log axis: it becomes a reference line
        refs += [v for v in swept if sc.sweep(v)[x_key] == 0]
        swept = [v for v in swept if sc.sweep(v)[x_key] > 0]
    panels = choose_panels(sc, swept)
    if len({sc.sweep(v)[x_key] for v in swept}) < 2 or not panels:
        return []

    lines = _Lines(sc, swept, refs, x_key)
    handles = lines.legend_handles(refs, [m for p in panels for m in p])
    ncol = min(3, len(handles)) or 1
    legend_h = 0.3 + 0.22 * math.ceil(len(handles) / ncol) if handles else 0.0
    fig = figure(0.6 + 3.0 * len(panels) + legend_h)
    if handles:  # the lines' legend in a row of its own above the panels, so it hides no point
        grid = fig.add_gridspec(len(panels) + 1, 1, height_ratios=[legend_h] + [3.0] * len(panels))
        legend_ax = fig.add_subplot(grid[0])
        legend_ax.axis("off")
        legend_ax.legend(handles=handles, loc="center", ncol=ncol, frameon=False, fontsize=8.5)
        axes = [fig.add_subplot(grid[1])]
        axes += [fig.add_subplot(grid[i + 1], sharex=axes[0]) for i in range(1, len(panels))]
        for ax in axes[:-1]:
            ax.tick_params(labelbottom=False)
    else:
        axes = list(fig.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0])
    styles = ["-", "--", ":", "-."]
    for ax, metrics in zip(axes, panels):
        all_y: list[float] = []
        for mi, m in enumerate(metrics):
            for key, members in lines.groups.items():
                pts = []
                for v in members:
                    med = sc.median(v, m)
                    if med is not None:
                        pts.append((sc.sweep(v)[x_key], med, sc.median_interval(v, m), v))
                if not pts:
                    continue
                pts.sort(key=lambda p: p[0])
                ys = [p[1] for p in pts]
                all_y += ys
                lo = [p[1] - p[2][0] if p[2] else 0 for p in pts]
                hi = [p[2][1] - p[1] if p[2] else 0 for p in pts]
                ax.errorbar([p[0] for p in pts], ys, yerr=[lo, hi], color=lines.color(key), marker=lines.marker(key),
                            linestyle=styles[mi % len(styles)], markersize=5, capsize=3)
                if mi == 0:
                    for x, y, _ci, v in pts:
                        if v in ("before", "after"):
                            ax.annotate(v, (x, y), textcoords="offset points", xytext=(6, 6), fontsize=9, fontweight="bold")
            if workload and mi == 0:
                for x, y, text in _writeup_marks(sc, swept, x_key, m):
                    ax.plot([x], [y], marker="*", markersize=15, color="black", fillstyle="none", linestyle="")
                    ax.annotate(text, (x, y), textcoords="offset points", xytext=(8, -12), fontsize=9)
                    all_y.append(y)
            for v in refs:
                med = sc.median(v, m)
                if med is not None:
                    ax.axhline(med, color=lines.ref_color(v), linestyle=REF_STYLE, linewidth=1.3, alpha=0.9)
                    all_y.append(med)
        if want_log(finite(all_y), 30):
            log_axis(ax, "y")
        else:
            ax.yaxis.set_major_formatter(plain_number_formatter())
        unit = sc.unit(metrics[0])
        label = axis_label(metrics[0], unit) if len(metrics) == 1 else axis_label(" / ".join(metrics), unit)
        ax.set_ylabel("\n".join(_split(label)))
        if len(metrics) > 1:
            ax.legend(handles=[Line2D([], [], color="black", linestyle=styles[i % len(styles)], label=m)
                               for i, m in enumerate(metrics)], loc="best", frameon=False, fontsize=8.5)
    if logx:
        log_axis(axes[-1], "x")
        axes[-1].set_xticks(sorted({sc.sweep(v)[x_key] for v in swept}))
    axes[-1].set_xlabel(_x_label(x_key))
    axes[-1].xaxis.set_major_formatter(plain_number_formatter())
    title = f"{sc.name}{f' ({workload})' if workload else ''}: " + ", ".join(" / ".join(p) for p in panels) + f" over {x_key}"
    fig.suptitle(wrap(title, 80), fontsize=12)
    path = save(fig, out_dir, f"{sc.index:02d}-{sc.name}-sweep" + (f"-{workload}" if workload else ""))
    caption = (f"Median over the measured samples of each variant against {x_key}; error bars: 95% interval of the "
               f"median (order statistics); dashed lines: variants without a {x_key}"
               + (f" or with {x_key} 0" if logx and any(sc.sweep(v).get(x_key) == 0 for v in refs) else "") + ".")
    if lines.work:
        caption += (" Variants that do different work (they report different metrics, or are checked on a part of "
                    "the output) are separate lines: only points on one line are like for like.")
    if workload and any(_writeup_marks(sc, swept, x_key, m) for p in panels for m in p[:1]):
        caption += (" Stars: the write-up's effect (its AFTER / BEFORE ratio) applied to our BEFORE at its capacity; "
                    "on a per-request cost the ratio is inverted.")
    return [Plot("sweep", path, title, caption)]


class _Lines:
    """Which variants form one line, and how lines and reference lines are told apart: colour
    for the coordinate the reference lines differ in (workload), marker shape for the rest
    (cache kind)."""

    def __init__(self, sc, swept: list[str], refs: list[str], x_key: str):
        self.sc = sc
        self.x_key = x_key
        self.work = work_classes(sc, swept)
        keys = sorted({k for v in swept + refs for k in sc.sweep(v) if k != x_key})
        coords = {v: self._coords(v, keys) for v in swept + refs}
        # Two variants at the same point of one line (before-c4 and after-c4, both
        # {concurrency: 4}) mean the coordinates do not say which implementation a variant runs:
        # split the lines by the variant's name without its swept number (after-c4 -> after).
        points = [(coords[v], sc.sweep(v)[x_key]) for v in swept]
        if len(set(points)) < len(points):
            for v in swept + refs:
                coords[v] = coords[v] + (("variant", family(v)),)
        self.coords = coords
        line_keys = [k for k in dict.fromkeys(k for v in swept for k, _ in coords[v])
                     if len({dict(coords[v]).get(k) for v in swept}) > 1]
        self.groups: dict[tuple, list[str]] = {}
        for v in swept:
            self.groups.setdefault(self._key(v, line_keys), []).append(v)
        self.line_keys = line_keys

        def spread(k: str, among: list[str]) -> int:
            return len({dict(coords[v]).get(k) for v in among if k in dict(coords[v])})

        ranked = sorted(line_keys, key=lambda k: (k != "variant", -spread(k, refs), -spread(k, swept), k))
        self.color_key = ranked[0] if ranked else None
        self.marker_keys = [k for k in line_keys if k != self.color_key]
        self._colors: dict[object, str] = {}
        if self.color_key == "variant":
            self._colors.update({"before": PALETTE[0], "after": PALETTE[1]})
        self._next = iter((PALETTE[1:] if self.color_key != "variant" else PALETTE[2:]) * 4)
        self._markers: dict[tuple, str] = {}

    def _coords(self, v: str, keys: list[str]) -> tuple:
        s = self.sc.sweep(v)
        out = tuple((k, s[k]) for k in keys if k in s)
        if self.work and v in self.work:
            out += (("work", self.work[v]),)
        return out

    def _key(self, v: str, keys: list[str]) -> tuple:
        c = dict(self.coords[v])
        return tuple((k, c.get(k)) for k in keys)

    def _color_of(self, value) -> str:
        if value not in self._colors:
            self._colors[value] = next(self._next)
        return self._colors[value]

    def color(self, key: tuple) -> str:
        if self.color_key is None:
            return PALETTE[1]
        return self._color_of(dict(key).get(self.color_key))

    def marker(self, key: tuple) -> str:
        rest = tuple((k, dict(key).get(k)) for k in self.marker_keys)
        if rest not in self._markers:
            self._markers[rest] = MARKERS[len(self._markers) % len(MARKERS)]
        return self._markers[rest]

    def ref_color(self, v: str) -> str:
        c = dict(self.coords.get(v, ()))
        if self.color_key is not None and self.color_key in c:
            return self._color_of(c[self.color_key])
        return "grey"

    @staticmethod
    def _text(k: str, val) -> str:
        return f"{val}" if k in ("work", "variant") else f"{k}={val}"

    def legend_handles(self, refs: list[str], metrics: list[str]) -> list[Line2D]:
        handles = []
        if self.color_key is not None:
            for g in self.groups:
                val = dict(g).get(self.color_key)
                label = self._text(self.color_key, val)
                if label not in [h.get_label() for h in handles]:
                    handles.append(Line2D([], [], color=self._color_of(val), linewidth=2.5, label=label))
        if self.marker_keys:
            seen = set()
            for g in self.groups:
                rest = tuple((k, dict(g).get(k)) for k in self.marker_keys)
                if rest in seen:
                    continue
                seen.add(rest)
                label = ", ".join(self._text(k, val) for k, val in rest)
                handles.append(Line2D([], [], color="black", marker=self.marker(g), linestyle="", label=label))
        for v in refs:
            if not any(self.sc.median(v, m) is not None for m in metrics):
                continue
            label = self.sc.variant_info[v].get("label") or ""
            text = v if not label or label == v else f"{v}: {label}"
            handles.append(Line2D([], [], color=self.ref_color(v), linestyle=REF_STYLE, label=text))
        return handles


def work_classes(sc, swept: list[str]) -> dict[str, str]:
    """Which swept variants do the same work, so that a line never joins a full BEFORE to a
    read-only sweep point. A variant's `equivalence` (the extra field it is checked on instead
    of the digest, when the results carry it) names its work; otherwise variants reporting the
    same set of the program's own metrics are taken to do the same work. Empty when all agree."""
    cls: dict[str, object] = {}
    for v in swept:
        info = sc.variant_info[v]
        explicit = info.get("equivalence") or info.get("work")
        if explicit:
            cls[v] = f"{explicit}"
        else:
            cls[v] = frozenset(m for m in sc.metrics() if m not in metric_names.HARNESS_ORDER and sc.values(v, m))
    if len(set(cls.values())) <= 1:
        return {}
    names: dict[object, str] = {}
    for v in swept:
        if cls[v] not in names:
            members = [w for w in swept if cls[w] == cls[v]]
            names[cls[v]] = cls[v] if isinstance(cls[v], str) else " + ".join(members)
    return {v: names[cls[v]] for v in swept}


def family(variant: str) -> str:
    """The variant's name without a trailing swept number: after-c4 -> after, read-256k -> read."""
    stem = re.sub(r"([-_.][A-Za-z]{0,2})?\d+(\.\d+)?[A-Za-z]{0,3}$", "", variant)
    return stem or variant


def plain_number_formatter():
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(plain_number)


def _x_label(key: str) -> str:
    for suffix, unit in (("_kib", "KiB"), ("_mib", "MiB"), ("_ms", "ms"), ("_s", "s"), ("_bytes", "bytes")):
        if key.endswith(suffix):
            return f"{key} ({unit})"
    if key == "concurrency":
        return "concurrency (requests in flight)"
    if key == "capacity":
        return "capacity (entries)"
    return key


def _split(label: str, width: int = 28) -> list[str]:
    if len(label) <= width:
        return [label]
    parts = label.split(" ")
    lines, cur = [], ""
    for p in parts:
        if cur and len(cur) + 1 + len(p) > width:
            lines.append(cur)
            cur = p
        else:
            cur = f"{cur} {p}".strip()
    lines.append(cur)
    return lines
