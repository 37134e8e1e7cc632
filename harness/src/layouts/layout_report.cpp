#include "layouts/layout_report.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "common/command_opening.hpp"
#include "common/defaults.hpp"
#include "common/interrupt.hpp"
#include "common/number_format.hpp"
#include "export/exports.hpp"
#include "gate/policy.hpp"
#include "perfgate/enum_names.hpp"
#include "suite/progress.hpp"

namespace perfgate::layouts {

namespace {

std::string level(double confidence) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g%%", 100 * confidence);
  return buf;
}

}  // namespace

void print_layouts(std::ostream& out, const LayoutRequest& r, const LayoutOutcome& o) {
  out << r.name << " over " << r.layouts << " layouts (" << r.rounds << " paired rounds each): " << o.metric << "\n";
  out << "layout  before        after         after/before\n";
  for (const auto& run : o.runs) {
    char line[160];
    std::snprintf(line, sizeof line, "%-7d %-13s %-13s %s\n", run.layout,
                  format_quantity(run.before_median, o.unit).c_str(), format_quantity(run.after_median, o.unit).c_str(),
                  (format_number(run.after_median / run.before_median) + "x").c_str());
    out << line;
  }
  if (!o.effect) {
    out << "no verdict: " << o.failure << "\n";
    return;
  }
  const auto& e = *o.effect;
  out << "over layouts: " << gate::format_ratio(e.ratio, {e.ci.lo, e.ci.hi}) << " at " << level(e.confidence) << ": "
      << name_of(e.decided.verdict) << " (noise band ±" << format_percent(o.band)
      << "; detectable over these layouts: +" << format_percent(e.detectable) << ")\n";
  out << "layout alone moves BEFORE ±" << format_percent(e.spread_before) << ", AFTER ±"
      << format_percent(e.spread_after) << "; the layouts explain " << format_percent(e.layout_share)
      << " of the ratio's variance between layouts\n";
  if (e.pooled)
    out << "the layouts moved nothing their rounds could see (F test p = " << format_p_value(*e.layout_p)
        << " >= 0.25): every round counted, " << static_cast<int>(e.df) << " degrees of freedom\n";
  if (e.decided.verdict == stats::Verdict::CannotTell) {
    out << "cannot tell: ";
    if (e.more_layouts)
      out << "more layouts, not more rounds, would decide it";
    else
      out << "more rounds per layout (--layout-rounds) would narrow it";
    if (e.layouts_to_decide) out << " (about " << *e.layouts_to_decide << " layouts at this spread)";
    out << "\n";
  }
}

nlohmann::json layouts_json(const LayoutRequest& r, const LayoutOutcome& o) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : o.runs)
    runs.push_back({{"layout", run.layout},
                    {"results", run.results.string()},
                    {"before_median", run.before_median},
                    {"after_median", run.after_median},
                    {"ratio", run.after_median / run.before_median}});
  nlohmann::json j = {{"name", r.name},
                      {"metric", o.metric},
                      {"unit", o.unit},
                      {"layouts", r.layouts},
                      {"rounds_per_layout", r.rounds},
                      {"noise_band", o.band},
                      {"alpha", o.alpha},
                      {"runs", runs},
                      {"exit_code", o.exit_code}};
  if (!o.failure.empty()) j["failure"] = o.failure;
  if (o.effect) {
    const auto& e = *o.effect;
    j["effect"] = {{"ratio", e.ratio},
                   {"ci", {e.ci.lo, e.ci.hi}},
                   {"confidence", e.confidence},
                   {"verdict", name_of(e.decided.verdict)},
                   {"p_worse", e.decided.p_worse},
                   {"p_better", e.decided.p_better},
                   {"p_same", e.decided.p_same},
                   {"spread_before", e.spread_before},
                   {"spread_after", e.spread_after},
                   {"layout_share", e.layout_share},
                   {"more_layouts", e.more_layouts},
                   {"pooled", e.pooled},
                   {"detectable", e.detectable},
                   {"degrees_of_freedom", e.df}};
    if (e.layout_p) j["effect"]["layout_p"] = *e.layout_p;
    if (e.layouts_to_decide) j["effect"]["layouts_to_decide"] = *e.layouts_to_decide;
  }
  return j;
}

int run_over_layouts(const plan::AbPair& pair, int layouts, int rounds, const std::string& metric,
                     const plan::RunOptions& o, const std::vector<std::string>& argv) {
  LayoutRequest r;
  r.name = pair.name;
  r.before_argv = pair.before_argv;
  r.after_argv = pair.after_argv;
  r.before_workdir = pair.before_workdir;
  r.after_workdir = pair.after_workdir;
  r.layouts = layouts;
  r.rounds = rounds;
  r.metric = metric;
  r.options = o;
  const std::filesystem::path out_dir = o.outputs.out_dir.empty() ? defaults::kOutDir : o.outputs.out_dir;
  r.dir = out_dir / "layouts";
  check_request(r);
  const CommandOpening opening({.out_dir = out_dir,
                                .json_path = o.outputs.json_path,
                                .json_name = "layouts.json",
                                .argv = argv,
                                .writes_folder_with_json = true});
  install_interrupt_handlers();
  suite::Progress progress(o.outputs.quiet);
  const auto outcome = run_layouts(r, progress.sink());
  progress.clear();
  print_layouts(std::cout, r, outcome);
  const std::filesystem::path file = opening.json_file();
  const nlohmann::json doc = {
      {"schema_version", 1}, {"kind", "layouts"}, {"command_line", argv}, {"layouts", layouts_json(r, outcome)}};
  if (exports::write_exports({exports::json_export("the results over layouts", file, doc)}, outcome.exit_code) == 0)
    std::cout << "perfgate: results over layouts in " << file.string() << " (each layout's in " << r.dir.string()
              << "/)\n";
  return outcome.exit_code;
}

}  // namespace perfgate::layouts
