"""Series recorded against an x axis (`{"unit", "values", "x", "x_name", "x_unit"}`), such as
throughput over concurrency: one line per variant."""

from __future__ import annotations

from pathlib import Path

from . import Plot, axis_label, colors, figure, finite, log_axis, save, want_log, wrap

MAX_SERIES = 3


def xy_series(sc) -> list[str]:
    names = []
    for name in sc.series_names():
        for v in sc.variants:
            ser = sc.series(v).get(name)
            if isinstance(ser, dict) and isinstance(ser.get("x"), list) and len(ser["x"]) == len(ser.get("values") or []):
                names.append(name)
                break
    return names[:MAX_SERIES]


def make(sc, out_dir: Path) -> list[Plot]:
    plots = []
    col = colors(sc.variants)
    for name in xy_series(sc):
        fig = figure(4.2)
        ax = fig.add_subplot()
        unit, x_name, x_unit = "", "x", ""
        all_x, all_y = [], []
        for v in sc.variants:
            ser = sc.series(v).get(name)
            if not (isinstance(ser, dict) and isinstance(ser.get("x"), list)):
                continue
            pts = sorted((x, y) for x, y in zip(ser["x"], ser["values"]) if isinstance(x, (int, float)) and isinstance(y, (int, float)))
            if not pts:
                continue
            unit = ser.get("unit", unit)
            x_name = ser.get("x_name", x_name)
            x_unit = ser.get("x_unit", x_unit)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=col[v], label=v)
            all_x += [p[0] for p in pts]
            all_y += [p[1] for p in pts]
        if not all_x:
            continue
        if all(x > 0 for x in all_x) and max(all_x) / min(all_x) >= 8:
            log_axis(ax, "x")
            ax.set_xticks(sorted(set(all_x)))
        if want_log(finite(all_y), 50):
            log_axis(ax, "y")
        ax.set_xlabel(axis_label(x_name, x_unit))
        ax.set_ylabel(axis_label(name, unit))
        ax.legend(frameon=False)
        title = f"{sc.name}: {name} over {x_name}"
        ax.set_title(wrap(title))
        path = save(fig, out_dir, f"{sc.index:02d}-{sc.name}-series-{name}")
        plots.append(Plot("series", path, title, f"{name} as the program recorded it in its last measured sample."))
    return plots
