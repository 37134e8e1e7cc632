// The index (every series: its latest state and a sparkline) and the regressions page (every
// change point for the worse, newest first, with the bisect command that would narrow it).
"use strict";

(() => {
  const {el, code, short, seriesLink, sparkline, page, main} = PG;

  function table(caption, head, rows) {
    return el("table", null, el("caption", null, caption),
      el("thead", null, el("tr", null, ...head.map((h) => el("th", {scope: "col"}, h)))), el("tbody", null, ...rows));
  }

  function indexPage() {
    const filter = el("input", {type: "search", id: "filter", placeholder: "scenario, metric or host class"});
    const rows = page.series.map((s) => {
      const tr = el("tr", {"data-slug": s.slug},
        el("th", {scope: "row"}, seriesLink(s)),
        el("td", null, s.host_class),
        el("td", {class: "num"}, String(s.runs)),
        el("td", null, s.latest_text),
        el("td", {class: s.last_change_worse ? "worse" : s.changes ? "better" : null}, s.last_change_text),
        el("td", null, sparkline(s.spark, 160, 28), el("span", {class: "better-note"}, s.better_text)));
      tr.dataset.search = [s.scenario, s.metric, s.profile, s.host_class].join(" ").toLowerCase();
      return tr;
    });
    filter.addEventListener("input", () => {
      const q = filter.value.trim().toLowerCase();
      for (const tr of rows) tr.hidden = q !== "" && !tr.dataset.search.includes(q);
    });
    main.append(el("p", null, el("label", {for: "filter"}, "Filter: "), filter),
      table("Every series: scenario · gated metric · profile · host class (ratios of different host classes are never one line)",
        ["Series", "Host class", "Runs", "Latest run", "Last change point", "Trend"], rows));
  }

  function regressionsPage() {
    if (!page.rows.length) {
      main.append(el("p", {id: "none"}, "No change point for the worse in any series."));
      return;
    }
    const rows = page.rows.map((r) => el("tr", {class: "regression", "data-slug": r.slug, "data-good": r.good_commit, "data-bad": r.bad_commit},
      el("td", null, r.bad_at),
      el("th", {scope: "row"}, seriesLink(r), el("br"), el("span", {class: "sub"}, r.host_class)),
      el("td", {class: "worse"}, r.change_text, el("br"), r.levels_text),
      el("td", null, code(short(r.good_commit)), " → ", code(short(r.bad_commit))),
      el("td", null, r.bisect ? code(r.bisect) : r.bisect_note)));
    main.append(table("Change points for the worse, newest first: the first run after the change, the commits on either side, and the command that narrows it to one commit",
      ["First run after", "Series", "Step", "Good → bad", "Narrow it with"], rows));
  }

  if (page.kind === "index") indexPage();
  else regressionsPage();
  PG.ready();
})();
