// The history site's shared helpers (perfgate history publish, docs/history.md "The site").
// Every page names its data first (data/PAGE.js sets window.PERFGATE_PAGE: a page opened from
// file:// may not fetch() a file), then this script, then its own. Every figure in the data is
// already formatted by perfgate's one number formatter; nothing here formats a number.
// Text from the data is only ever set as text (textContent), never parsed as HTML.
"use strict";

const PG = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";

  // el("td", {class: "x"}, "text", child, ...): an HTML element; attributes null or false are left out.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    setAttrs(e, attrs);
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function svg(tag, attrs, ...children) {
    const e = document.createElementNS(SVG_NS, tag);
    setAttrs(e, attrs);
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function setAttrs(e, attrs) {
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }

  function code(text) {
    return el("code", null, text);
  }

  function short(commit) {
    return (commit || "").slice(0, 12);
  }

  // The series' page; its host class is in a column of its own where the link is in a table.
  function seriesLink(row, withClass) {
    return el("a", {href: "series-" + row.slug + ".html"},
      withClass ? row.title : `${row.scenario} · ${row.metric} · ${row.profile}`);
  }

  // A small line of the series' values (already thinned to a few hundred by perfgate).
  function sparkline(values, width, height) {
    const box = svg("svg", {class: "spark", viewBox: `0 0 ${width} ${height}`, width, height, "aria-hidden": "true"});
    if (!values.length) return box;
    const lo = Math.min(...values), hi = Math.max(...values);
    const y = (v) => (hi > lo ? height - 2 - ((v - lo) / (hi - lo)) * (height - 4) : height / 2);
    const x = (i) => (values.length > 1 ? (i / (values.length - 1)) * (width - 2) + 1 : width / 2);
    const pts = values.map((v, i) => x(i).toFixed(1) + "," + y(v).toFixed(1)).join(" ");
    box.append(svg("polyline", {points: pts}));
    return box;
  }

  // Tells whoever waits on the page (the browser tests, scripts/site-load-time.py) that it is drawn:
  // at the frame after the one that painted it, in milliseconds since the navigation began.
  function ready() {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      document.body.dataset.ready = "1";
      document.body.dataset.drawnMs = String(Math.round(performance.now()));
    }));
  }

  return {el, svg, code, short, seriesLink, sparkline, ready, page: window.PERFGATE_PAGE, main: document.getElementById("main")};
})();
