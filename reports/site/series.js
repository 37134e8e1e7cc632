// A series page: every recorded run as a point with its interval, the band baseline.json accepts,
// the fitted levels and the change points (the ones `perfgate history show --host-class` prints),
// and, for the run under the pointer or chosen with the arrow keys, what it was and how to re-run it.
"use strict";

(() => {
  const {el, svg, code, short, page, main} = PG;
  const s = page.series;
  const runs = s.runs;
  const n = runs.value.length;
  const W = 1000, H = 452, L = 92, R = 16, T = 46, B = 64;
  const plotW = W - L - R, plotH = H - T - B;
  const x = (i) => L + ((i + 0.5) / n) * plotW;  // run i's centre
  const edge = (i) => L + (i / n) * plotW;       // the boundary before run i
  const y = (v) => T + ((s.y_max - v) / (s.y_max - s.y_min)) * plotH;
  const clampY = (v) => Math.min(T + plotH, Math.max(T, y(v)));

  function axes(g) {
    for (const [v, text] of s.y_ticks) {
      g.append(svg("line", {class: "grid", x1: L, x2: L + plotW, y1: y(v), y2: y(v)}));
      g.append(svg("text", {class: "tick y", x: L - 6, y: y(v) + 4, "text-anchor": "end"}, text));
    }
    for (const [i, text] of s.x_ticks) {
      g.append(svg("line", {class: "tick-mark", x1: x(i), x2: x(i), y1: T + plotH, y2: T + plotH + 5}));
      // Inside the figure at both ends.
      const anchor = x(i) < L + 40 ? "start" : x(i) > L + plotW - 40 ? "end" : "middle";
      g.append(svg("text", {class: "tick x", x: x(i), y: T + plotH + 18, "text-anchor": anchor}, text));
    }
    g.append(svg("rect", {class: "frame", x: L, y: T, width: plotW, height: plotH}));
    g.append(svg("text", {class: "axis-label y", transform: `translate(18 ${T + plotH / 2}) rotate(-90)`, "text-anchor": "middle"}, s.y_label));
    g.append(svg("text", {class: "axis-label x", x: L + plotW / 2, y: H - 10, "text-anchor": "middle"}, s.x_label));
    // Which way is better, at the end of the y axis it points to, outside the data.
    const down = s.better === "lower";
    g.append(svg("text", {class: "better", x: 4, y: down ? T + plotH + 40 : T - 40, id: "better-arrow"},
      (down ? "▼ " : "▲ ") + s.better_text));
  }

  function band(g) {
    if (!s.band) return;
    const top = clampY(s.band[1]), bottom = clampY(s.band[0]);
    g.append(svg("rect", {class: "band", id: "band", x: L, y: top, width: plotW, height: Math.max(1, bottom - top)},
      svg("title", null, s.band_text)));
  }

  function levels(g) {
    const cps = s.change_points;
    if (!cps.length) return;
    const bounds = [0, ...cps.map((c) => c.index), n];
    for (let k = 0; k + 1 < bounds.length; k++) {
      const level = k === 0 ? cps[0].mean_before : cps[k - 1].mean_after;
      g.append(svg("line", {class: "level", x1: edge(bounds[k]), x2: edge(bounds[k + 1]), y1: y(level), y2: y(level)}));
    }
  }

  // Each change point's label goes in the first of three rows above the plot where it overlaps
  // no other; with no room left it is dropped (the line keeps its title, the table every one).
  function changes(g) {
    const rows = [[], [], []];
    s.change_points.forEach((c) => {
      const at = edge(c.index);
      const cls = "change " + (c.worse ? "worse" : "better");
      g.append(svg("line", {class: cls, x1: at, x2: at, y1: T, y2: T + plotH, "data-index": c.index,
        "data-good-commit": c.good_commit, "data-bad-commit": c.bad_commit},
        svg("title", null, `${c.change_text} (${c.levels_text}) between ${c.good_commit} and ${c.bad_commit}`)));
      const text = `${c.change_text} ${short(c.good_commit).slice(0, 7)}→${short(c.bad_commit).slice(0, 7)}`;
      const width = text.length * 6.8;
      const right = at + width + 4 < L + plotW;
      const span = right ? [at, at + width + 4] : [at - width - 4, at];
      const row = rows.findIndex((taken) => taken.every(([a, b]) => span[1] < a || span[0] > b));
      if (row < 0) return;
      rows[row].push(span);
      g.append(svg("text", {class: "change-label " + (c.worse ? "worse" : "better"), x: at + (right ? 4 : -4),
        y: T - 6 - row * 13, "text-anchor": right ? "start" : "end"}, text));
    });
  }

  function points(g) {
    const r = n > 2000 ? 1.6 : n > 400 ? 2.4 : 3.5;
    const frag = document.createDocumentFragment();
    for (let i = 0; i < n; i++) {
      const cx = x(i);
      if (runs.lo[i] !== null && runs.hi[i] !== null)
        frag.append(svg("line", {class: "ci", x1: cx, x2: cx, y1: clampY(runs.hi[i]), y2: clampY(runs.lo[i])}));
      frag.append(svg("circle", {class: runs.exit_code[i] ? "run failed" : "run", cx, cy: y(runs.value[i]), r, "data-i": i}));
    }
    g.append(frag);
  }

  function detailRow(dl, term, value) {
    dl.append(el("dt", null, term), el("dd", null, value));
  }

  function showRun(i) {
    const d = document.getElementById("details");
    const dl = el("dl");
    detailRow(dl, "Run", `#${i + 1} of ${n} · ${runs.run_id[i]}`);
    detailRow(dl, "Commit", code(runs.commit[i] + (runs.dirty[i] ? " (dirty)" : "")));
    detailRow(dl, "Branch", runs.branch[i] || "not recorded");
    detailRow(dl, "Started", runs.started_at[i]);
    detailRow(dl, "Ratio [interval]", runs.text[i]);
    detailRow(dl, "Verdict", (runs.verdict[i] || "—") + (runs.exit_code[i] ? ` · the run FAILED (exit ${runs.exit_code[i]})` : ""));
    detailRow(dl, "Reproduce", runs.reproduce[i] ? code(runs.reproduce[i]) : "not recorded (added before history schema 3)");
    detailRow(dl, "Report", runs.report[i] ? el("a", {href: runs.report[i], id: "report-link"}, "report.md of this run")
      : "no report.md beside its results file");
    d.replaceChildren(el("h2", null, "Run " + (i + 1)), dl);
    d.dataset.index = String(i);
    const mark = document.getElementById("cursor");
    mark.setAttribute("cx", x(i));
    mark.setAttribute("cy", y(runs.value[i]));
    mark.removeAttribute("visibility");
  }

  function interactive(box) {
    let chosen = n - 1;
    const at = (ev) => {
      const p = box.createSVGPoint();
      p.x = ev.clientX;
      p.y = ev.clientY;
      const local = p.matrixTransform(box.getScreenCTM().inverse());
      return Math.max(0, Math.min(n - 1, Math.floor(((local.x - L) / plotW) * n)));
    };
    box.addEventListener("mousemove", (ev) => showRun(at(ev)));
    box.addEventListener("click", (ev) => { chosen = at(ev); showRun(chosen); });
    box.addEventListener("mouseleave", () => showRun(chosen));
    box.addEventListener("keydown", (ev) => {
      const step = {ArrowLeft: -1, ArrowRight: 1, Home: -n, End: n}[ev.key];
      if (step === undefined) return;
      chosen = Math.max(0, Math.min(n - 1, chosen + step));
      showRun(chosen);
      ev.preventDefault();
    });
    showRun(chosen);
  }

  function plot() {
    const box = svg("svg", {id: "plot", viewBox: `0 0 ${W} ${H}`, role: "img", tabindex: "0",
      "aria-label": `${s.title}: ${n} runs, ${s.change_points.length} change point(s); ${s.subtitle}. Arrow keys choose a run.`});
    const g = svg("g");
    axes(g);
    band(g);
    points(g);
    levels(g);  // over the points: 5,000 of them would hide it
    changes(g);
    g.append(svg("circle", {id: "cursor", r: 7, cx: 0, cy: 0, visibility: "hidden"}));
    box.append(g);
    return box;
  }

  function changeTable() {
    if (!s.change_points.length) return el("p", {id: "no-changes"}, "No change point: " + s.method_text);
    const rows = s.change_points.map((c) => el("tr", {class: "change-row " + (c.worse ? "worse" : "better")},
      el("td", {class: "num"}, String(c.index + 1)),
      el("td", null, code(short(c.good_commit)), " (", c.good_at, ") → ", code(short(c.bad_commit)), " (", c.bad_at, ")"),
      el("td", {class: c.worse ? "worse" : "better"}, `${c.change_text}: ${c.levels_text}` + (c.worse ? " (worse)" : " (better)")),
      el("td", null, c.bisect ? code(c.bisect) : c.bisect_note)));
    return el("table", {id: "changes"}, el("caption", null, "Change points: where a new level begins, between the commits of the runs on either side"),
      el("thead", null, el("tr", null, ...["First run after", "Commits", "Step", "Narrow it with"].map((h) => el("th", {scope: "col"}, h)))),
      el("tbody", null, ...rows));
  }

  // Every run as a table, built when opened: 5,000 rows are not drawn for nothing.
  function runTable() {
    const box = el("details", {id: "all-runs"}, el("summary", null, `All ${n} runs as a table`));
    box.addEventListener("toggle", () => {
      if (!box.open || box.querySelector("table")) return;
      const rows = [];
      for (let i = n - 1; i >= 0; i--)
        rows.push(el("tr", null, el("td", {class: "num"}, String(i + 1)), el("td", null, runs.started_at[i]),
          el("td", null, code(short(runs.commit[i]) + (runs.dirty[i] ? "+" : ""))), el("td", null, runs.text[i]),
          el("td", null, runs.verdict[i] + (runs.exit_code[i] ? ` · FAILED (exit ${runs.exit_code[i]})` : ""))));
      box.append(el("table", null, el("thead", null, el("tr", null, ...["#", "Started", "Commit", "Ratio [interval]", "Verdict"].map((h) => el("th", {scope: "col"}, h)))),
        el("tbody", null, ...rows)));
    });
    return box;
  }

  main.append(
    el("div", {class: "figure"}, plot(),
      el("p", {class: "legend"}, el("span", {class: "key run"}, "●"), " a run (line: its interval) ",
        el("span", {class: "key level"}, "—"), " fitted level ", el("span", {class: "key change"}, "┆"), " change point ",
        el("span", {class: "key band"}, "■"), " accepted band")),
    el("section", {id: "details", "aria-live": "polite"}),
    el("p", {id: "band-text"}, s.band_text),
    changeTable(),
    el("p", {class: "method"}, s.method_text, ". The same series in a terminal: ", code(s.show_command)),
    runTable());
  interactive(document.getElementById("plot"));
  PG.ready();
})();
