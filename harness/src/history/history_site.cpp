#include "history/history_site.hpp"

#include <nlohmann/json.hpp>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "perfgate/xml_escape.hpp"

namespace perfgate::history {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

const char* kMarker = ".perfgate-site";

std::string html(const std::string& text) {
  std::string out;
  append_xml_escaped(out, text, XmlEscape::Text);
  return out;
}

std::string attr(const std::string& text) {
  std::string out;
  append_xml_escaped(out, text, XmlEscape::Attribute);
  return out;
}

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(); }

json ticks(const std::vector<SiteTick>& ts) {
  json out = json::array();
  for (const auto& t : ts) out.push_back({t.at, t.text});
  return out;
}

// The runs column by column: 5,000 runs of one series are one page, and the keys of 5,000
// objects would be a third of it.
json runs_json(const std::vector<SitePoint>& points) {
  json value = json::array(), lo = json::array(), hi = json::array(), run = json::array(), commit = json::array(),
       dirty = json::array(), branch = json::array(), at = json::array(), code = json::array(), text = json::array(),
       verdict = json::array(), reproduce = json::array(), report = json::array();
  for (const auto& p : points) {
    value.push_back(p.value);
    lo.push_back(optional_number(p.lo));
    hi.push_back(optional_number(p.hi));
    run.push_back(p.run_id);
    commit.push_back(p.commit);
    dirty.push_back(p.dirty ? 1 : 0);
    branch.push_back(p.branch);
    at.push_back(p.started_at);
    code.push_back(p.exit_code);
    text.push_back(p.ratio_text);
    verdict.push_back(p.verdict);
    reproduce.push_back(p.reproduce);
    report.push_back(p.report_href);
  }
  return {{"value", value},    {"lo", lo},       {"hi", hi},           {"run_id", run},
          {"commit", commit},  {"dirty", dirty}, {"branch", branch},   {"started_at", at},
          {"exit_code", code}, {"text", text},   {"verdict", verdict}, {"reproduce", reproduce},
          {"report", report}};
}

json change_json(const SiteChange& c) {
  return {{"index", c.index},           {"good_commit", c.good_commit}, {"bad_commit", c.bad_commit},
          {"good_at", c.good_at},       {"bad_at", c.bad_at},           {"mean_before", c.mean_before},
          {"mean_after", c.mean_after}, {"change_text", c.change_text}, {"levels_text", c.levels_text},
          {"worse", c.worse},           {"bisect", c.bisect},           {"bisect_note", c.bisect_note}};
}

json series_summary(const SiteSeries& s) {
  return {{"slug", s.slug},
          {"title", s.title},
          {"scenario", s.scenario},
          {"profile", s.profile},
          {"variant", s.variant},
          {"baseline", s.baseline},
          {"metric", s.metric},
          {"unit", s.unit},
          {"better", s.better},
          {"better_text", s.better_text},
          {"host_class", s.host_class},
          {"runs", s.points.size()},
          {"latest_text", s.latest_text},
          {"last_change_text", s.last_change_text},
          {"last_change_worse", s.last_change_worse},
          {"changes", s.changes.size()}};
}

json series_page(const SiteSeries& s) {
  json j = series_summary(s);
  json changes = json::array();
  for (const auto& c : s.changes) changes.push_back(change_json(c));
  j.update({{"y_label", s.y_label},
            {"subtitle", s.subtitle},
            {"x_label", s.x_label},
            {"y_min", s.y_min},
            {"y_max", s.y_max},
            {"y_ticks", ticks(s.y_ticks)},
            {"x_ticks", ticks(s.x_ticks)},
            {"band", s.band ? json(*s.band) : json()},
            {"band_text", s.band_text},
            {"method_text", s.method_text},
            {"show_command", s.show_command},
            {"change_points", changes},
            {"runs", runs_json(s.points)}});
  return j;
}

// Pure ASCII (every other character escaped), so the script reads the same in any charset.
std::string data_script(const json& page) { return "window.PERFGATE_PAGE = " + page.dump(-1, ' ', true) + ";\n"; }

std::string page_html(const std::string& kind, const std::string& title, const std::string& subtitle,
                      const std::string& data, const std::string& script, const SiteDoc& doc) {
  return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<link rel=\"icon\" href=\"data:,\">\n<title>" +
         html(title) +
         " · perfgate history</title>\n<link rel=\"stylesheet\" href=\"assets/site.css\">\n</head>\n"
         "<body data-page=\"" +
         attr(kind) +
         "\">\n<header>\n<nav aria-label=\"site\"><a href=\"index.html\">All series</a> "
         "<a href=\"regressions.html\">Regressions</a></nav>\n<h1>" +
         html(title) + "</h1>\n<p class=\"sub\">" + html(subtitle) +
         "</p>\n</header>\n<main id=\"main\">\n<noscript><p>This page draws its tables and plots with its own "
         "script (assets/): allow JavaScript, or read the same series with <code>perfgate history "
         "show</code>.</p></noscript>\n</main>\n<footer>Published by perfgate " +
         html(doc.perfgate_version) + " at " + html(doc.generated_at) + " from " + html(doc.database) +
         ".</footer>\n<script src=\"data/" + attr(data) +
         ".js\"></script>\n<script src=\"assets/common.js\"></script>\n"
         "<script src=\"assets/" +
         attr(script) + "\"></script>\n</body>\n</html>\n";
}

void refuse_foreign(const fs::path& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return;
  if (!fs::is_directory(dir, ec)) throw UsageError(dir.string() + ": not a folder; history publish writes a folder");
  if (fs::is_empty(dir, ec) || fs::exists(dir / kMarker, ec)) return;
  throw UsageError(dir.string() + ": a folder with other files in it (no " + kMarker +
                   "): history publish replaces its output folder whole, so it writes only a new one or its own");
}

void copy_assets(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  if (!fs::is_directory(from, ec))
    throw RunError("the site's script and style sheet are missing: no folder " + from.string() +
                   " (a broken install of perfgate)");
  fs::create_directories(to);
  for (const auto& f : fs::directory_iterator(from))
    if (f.is_regular_file()) fs::copy_file(f.path(), to / f.path().filename(), fs::copy_options::overwrite_existing);
}

}  // namespace

void write_history_site(const fs::path& dir, const SiteDoc& doc, const fs::path& assets) {
  refuse_foreign(dir);
  StagedDir staged(dir);
  const fs::path root = staged.path();
  fs::create_directories(root / "data");
  copy_assets(assets, root / "assets");
  write_file_atomic(root / kMarker,
                    "A site written by perfgate history publish; the next publish replaces this folder.\n");

  json index = json::array(), regressions = json::array();
  for (const auto& s : doc.series) {
    json row = series_summary(s);
    row["spark"] = s.spark;
    index.push_back(row);
    const std::string sub = s.subtitle + " · " + std::to_string(s.points.size()) + " runs · " +
                            std::to_string(s.changes.size()) + " change point(s)";
    write_file_atomic(root / "data" / ("series-" + s.slug + ".js"),
                      data_script({{"kind", "series"}, {"series", series_page(s)}}));
    write_file_atomic(root / ("series-" + s.slug + ".html"),
                      page_html("series", s.title, sub, "series-" + s.slug, "series.js", doc));
  }
  for (const auto& r : doc.regressions) {
    const auto& s = doc.series.at(r.series);
    json row = change_json(s.changes.at(r.change));
    row.update({{"slug", s.slug},
                {"title", s.title},
                {"scenario", s.scenario},
                {"profile", s.profile},
                {"metric", s.metric},
                {"host_class", s.host_class}});
    regressions.push_back(row);
  }
  write_file_atomic(root / "data" / "index.js", data_script({{"kind", "index"}, {"series", index}}));
  write_file_atomic(root / "index.html", page_html("index", "History of every series",
                                                   std::to_string(doc.series.size()) +
                                                       " series (scenario × profile × gated metric × host class)",
                                                   "index", "tables.js", doc));
  write_file_atomic(root / "data" / "regressions.js", data_script({{"kind", "regressions"}, {"rows", regressions}}));
  write_file_atomic(root / "regressions.html",
                    page_html("regressions", "Regressions",
                              std::to_string(doc.regressions.size()) + " change point(s) for the worse, newest first",
                              "regressions", "tables.js", doc));
  staged.commit();
}

}  // namespace perfgate::history
