#include "history/history_site_series.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/number_format.hpp"
#include "common/shell_words.hpp"
#include "gate/baseline_gate.hpp"
#include "gate/policy.hpp"
#include "stats/summary.hpp"

namespace perfgate::history {

namespace {

namespace fs = std::filesystem;

std::string ratio_x(double v) { return format_number(v) + "x"; }

std::string ratio_text(const HistoryPoint& p) {
  return p.ci_lo && p.ci_hi ? gate::format_ratio(p.value, {*p.ci_lo, *p.ci_hi}) : ratio_x(p.value);
}

bool is_worse(double change, Better better) { return better == Better::Higher ? change < 1 : change > 1; }

std::string slug_of(const history::SeriesQuery& key, const std::string& host_class) {
  std::string raw = key.scenario + "." + key.profile + "." + key.metric +
                    (key.variant == "after" ? "" : "." + key.variant) + "." +
                    (host_class.empty() ? "no-host-class" : host_class);
  std::string out;
  for (char ch : raw) {
    const auto c = static_cast<unsigned char>(ch);
    const char keep = std::isalnum(c) || ch == '.' || ch == '_' ? static_cast<char>(std::tolower(c)) : '-';
    if (keep == '-' && (out.empty() || out.back() == '-')) continue;
    out += keep;
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// A path as an href: every byte but the unreserved ones and '/' percent-encoded.
std::string href_of(const fs::path& relative) {
  std::string out;
  for (unsigned char c : relative.generic_string()) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// report.md beside the run's results file (`perfgate report RESULTS` writes it there by default).
std::string report_href(const std::string& results_path, const fs::path& site_dir) {
  if (results_path.empty()) return "";
  const fs::path report = fs::path(results_path).parent_path() / "report.md";
  std::error_code ec;
  if (!fs::is_regular_file(report, ec)) return "";
  const fs::path rel = fs::relative(report, site_dir, ec);
  return ec || rel.empty() ? "" : href_of(rel);
}

// The band baseline.json accepts for the newest run of the series, as the baseline gate would
// judge it (gate::ratio_rule, α before Holm's correction); or why there is none.
std::optional<std::array<double, 2>> accepted_band(const SiteSeriesInput& in, std::string* text) {
  const HistoryPoint& now = in.points->back();
  if (!in.baseline) {
    *text = "no band: no baseline given (--baseline none)";
    return std::nullopt;
  }
  const auto* entry = in.baseline->find(in.key.scenario, in.key.profile, in.key.metric);
  if (!entry || entry->variant != in.key.variant) {
    *text = "no band: " + in.baseline->file.filename().string() + " has no entry for " + in.key.scenario + "/" +
            in.key.profile + "/" + in.key.metric + (entry ? " of variant " + in.key.variant : "");
    return std::nullopt;
  }
  model::BaselineEntry e;
  e.scenario = in.key.scenario;
  e.profile = in.key.profile;
  e.metric = in.key.metric;
  e.variant = entry->variant;
  e.compare_to = entry->compare_to;
  e.unit = now.unit;
  e.better = now.better;
  e.exact = now.exact;
  e.ratio = now.value;
  e.ci = {now.ci_lo.value_or(now.value), now.ci_hi.value_or(now.value)};
  e.host = {{"cpu_model", now.cpu_model.value_or("unknown")}, {"cores", now.cores}};
  e.host_fingerprint = now.host_fingerprint;
  e.fingerprint = now.fingerprint;
  gate::BaselineOptions options;
  const double tolerance = entry->tolerance.value_or(options.tolerance);
  std::string why;
  const auto rule = gate::ratio_rule(e, *entry, tolerance, options, &why);
  if (!rule) {
    *text = "no band: the baseline gate would not compare the newest run: " + why;
    return std::nullopt;
  }
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "accepted band %s to %s: the ratios the baseline gate passes for the newest run (rule %s, %d accepted "
                "run(s), tolerance %g%%, α %g before Holm's correction)",
                ratio_x(rule->accepted[0]).c_str(), ratio_x(rule->accepted[1]).c_str(), rule->rule.c_str(),
                rule->accepted_runs, tolerance * 100, options.alpha);
  *text = buf;
  return rule->accepted;
}

std::string method_text(const stats::StepFit& fit, const StepSettings& s, std::size_t n) {
  char buf[400];
  if (fit.too_short)
    std::snprintf(buf, sizeof buf,
                  "change points: none can be placed: %zu runs, and with --min-segment %zu a change needs at least %zu",
                  n, s.fit.min_segment, 2 * s.fit.min_segment);
  else
    std::snprintf(buf, sizeof buf,
                  "change points by a penalised step fit on %s values: beta = %g · σ² · ln n, σ = %.3g (MAD of "
                  "successive differences), min segment %zu, min step %g%%",
                  fit.log_scale ? "log" : "raw", s.fit.penalty, fit.sigma, s.fit.min_segment, s.min_step_pct);
  return buf;
}

void set_axes(history::SiteSeries& s, const SiteSeriesInput& in) {
  double lo = INFINITY, hi = -INFINITY;
  auto take = [&](double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  };
  for (const auto& p : *in.points) {
    take(p.value);
    if (p.ci_lo) take(*p.ci_lo);
    if (p.ci_hi) take(*p.ci_hi);
  }
  if (s.band) take((*s.band)[0]), take((*s.band)[1]);
  const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::fabs(hi) * 0.05, 0.01);
  s.y_min = lo - pad;
  s.y_max = hi + pad;
  for (double t : nice_ticks(s.y_min, s.y_max, 6)) s.y_ticks.push_back({t, ratio_x(t)});
  const std::size_t n = in.points->size();
  const std::size_t count = std::min<std::size_t>(n, 6);
  std::vector<std::size_t> at;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = count == 1 ? 0 : (k * (n - 1) + (count - 1) / 2) / (count - 1);
    if (at.empty() || at.back() != i) at.push_back(i);
  }
  // Dates, unless two ticks fall on one day: then the time of day too.
  bool same_day = false;
  for (std::size_t k = 1; k < at.size(); ++k)
    same_day |= (*in.points)[at[k]].started_at.substr(0, 10) == (*in.points)[at[k - 1]].started_at.substr(0, 10);
  for (std::size_t i : at) {
    const std::string& t = (*in.points)[i].started_at;  // 2026-03-01T12:00:00Z
    s.x_ticks.push_back({static_cast<double>(i), same_day ? t.substr(5, 5) + " " + t.substr(11, 5) : t.substr(0, 10)});
  }
}

}  // namespace

std::string bisect_command(const history::SeriesQuery& key, const std::string& good, const std::string& bad,
                           const std::string& reproduce, const std::string& build) {
  if (good.empty() || bad.empty() || good == "unknown" || bad == "unknown" || good == bad) return "";
  const std::string head = "perfgate bisect --good " + good + " --bad " + bad + " --build " + shell_quote(build);
  // "perfgate run ..." or "build/bin/perfgate run ...": the first word is perfgate, however reached.
  const auto space = reproduce.find(' ');
  const std::string program = reproduce.substr(0, space);
  const bool run = space != std::string::npos && fs::path(program).filename() == "perfgate" &&
                   reproduce.compare(space, 5, " run ") == 0;
  if (run)
    return head + " --scenario " + shell_quote(key.scenario) + " --catalog build/share/perfgate/scenarios --metric " +
           shell_quote(key.metric);
  return head + " --metric " + shell_quote(key.metric) + " -- COMMAND";
}

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!(hi > lo) || count < 2) return {lo};
  const double raw = (hi - lo) / (count - 1);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  double step = power * 10;
  for (double m : {1.0, 2.0, 2.5, 5.0})
    if (m * power >= raw) {
      step = m * power;
      break;
    }
  std::vector<double> out;
  for (long k = static_cast<long>(std::ceil(lo / step)); k * step <= hi + step * 1e-9; ++k) {
    // k · step as its decimal reads (0.55, not 0.55000000000000004), the tick's label's value
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.12g", static_cast<double>(k) * step);
    out.push_back(std::strtod(buf, nullptr));
  }
  return out;
}

std::vector<double> sparkline(const std::vector<double>& values, std::size_t most) {
  if (values.size() <= most) return values;
  std::vector<double> out;
  for (std::size_t b = 0; b < most; ++b) {
    const std::vector<double> bucket(values.begin() + static_cast<long>(b * values.size() / most),
                                     values.begin() + static_cast<long>((b + 1) * values.size() / most));
    out.push_back(stats::median(bucket));
  }
  return out;
}

history::SiteSeries site_series(const SiteSeriesInput& in) {
  const auto& points = *in.points;
  const HistoryPoint& newest = points.back();
  history::SiteSeries s;
  s.slug = slug_of(in.key, in.host_class);
  s.scenario = in.key.scenario;
  s.profile = in.key.profile;
  s.variant = in.key.variant;
  s.metric = in.key.metric;
  s.unit = newest.unit;
  s.better = name_of(newest.better);
  s.better_text = s.better + " is better";
  s.host_class = host_class_label(in.host_class);
  s.title = s.scenario + " · " + s.metric + " · " + s.profile + " · " + s.host_class;
  std::vector<double> values;
  for (const auto& p : points) {
    s.points.push_back({p.value, p.ci_lo, p.ci_hi, p.run_id, p.commit, p.branch.value_or(""), p.started_at, p.dirty,
                        p.exit_code, ratio_text(p), p.verdict, p.reproduce.value_or(""),
                        report_href(p.results_path, in.site_dir)});
    values.push_back(p.value);
  }
  s.baseline = newest.baseline;
  s.y_label = s.variant + "/" + s.baseline + " ratio of " + s.metric + " (x)";
  s.subtitle = s.variant + "/" + s.baseline + " ratio of " + s.metric +
               (s.unit.empty() ? "" : " (" + s.unit + " ÷ " + s.unit + ")") + ", " + s.better_text;
  s.x_label = "run, oldest to newest (ticks: start time, UTC)";
  s.band = accepted_band(in, &s.band_text);
  set_axes(s, in);
  for (const auto& c : in.fit->points) {
    const auto& good = points[c.index - 1];
    const auto& bad = points[c.index];
    s.changes.push_back({c.index, good.commit, bad.commit, good.started_at, bad.started_at, c.mean_before, c.mean_after,
                         format_change(c.change), ratio_x(c.mean_before) + " → " + ratio_x(c.mean_after),
                         is_worse(c.change, newest.better),
                         bisect_command(in.key, good.commit, bad.commit, bad.reproduce.value_or(""), in.bisect_build),
                         ""});
    auto& made = s.changes.back();
    if (good.commit == bad.commit)  // a re-run of one commit moved: the code did not
      made.bisect_note = "nothing to bisect: both runs measured commit " + good.commit.substr(0, 12) +
                         ", so the step is not in the code (the machine, its load, or chance)";
    else if (made.bisect.empty())
      made.bisect_note = "nothing to bisect: a commit on either side is not recorded";
  }
  s.latest_text = ratio_text(newest) + " on " + newest.started_at.substr(0, 10) +
                  (newest.verdict.empty() ? "" : ", " + newest.verdict) +
                  (newest.exit_code == 0 ? "" : ", FAILED (exit " + std::to_string(newest.exit_code) + ")");
  if (s.changes.empty()) {
    s.last_change_text = "none in " + std::to_string(points.size()) + " runs";
  } else {
    const auto& c = s.changes.back();
    s.last_change_text = c.change_text + " at " + c.bad_commit.substr(0, 12) + " (" + c.bad_at.substr(0, 10) + ")";
    s.last_change_worse = c.worse;
  }
  s.spark = sparkline(values, 200);
  s.method_text = method_text(*in.fit, in.steps, points.size());
  s.show_command = "perfgate history show " + shell_quote(s.scenario) + " " + shell_quote(s.metric) + " --profile " +
                   shell_quote(s.profile) + (s.variant == "after" ? "" : " --variant " + shell_quote(s.variant)) +
                   " --host-class " + shell_quote(in.host_class);
  return s;
}

}  // namespace perfgate::history
