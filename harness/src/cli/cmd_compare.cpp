// `perfgate compare OLD.json NEW.json`: two runs side by side, benchstat-style (gate/run_diff.hpp).
#include <iostream>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "gate/run_diff.hpp"
#include "store/compare_text.hpp"
#include "store/results_codec.hpp"

namespace perfgate::cli {

void add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two results files benchstat-style: per scenario, variant and metric the old and new medians, the\n"
      "change with its interval, the Mann-Whitney p (Holm-corrected over every row), ~ where not significant,\n"
      "and the geometric mean over scenarios");
  auto files = std::make_shared<std::vector<std::string>>();
  auto o = std::make_shared<gate::DiffOptions>();
  auto metrics = std::make_shared<std::vector<std::string>>();
  auto fail = std::make_shared<bool>(false);
  auto json_out = std::make_shared<std::string>();
  cmd->add_option("files", *files, "OLD.json NEW.json")->required()->expected(2);
  cmd->add_option("--metric", *metrics,
                  "Metrics to show (repeatable; default: each scenario's gated metric, wall_ms, cpu_ms)");
  cmd->add_flag("--all-metrics", o->all_metrics, "Every metric both runs measured");
  cmd->add_option_function<double>(
         "--noise", [o](double pct) { o->noise = pct / 100.0; },
         "Noise band in percent: a change inside ±PCT is never a verdict (default 2)")
      ->check(CLI::Range(0.0, 99.0));
  cmd->add_option("--alpha", o->alpha, "Family-wise error rate over the rows (default 0.05)")
      ->check(CLI::Range(0.000001, 0.5));
  cmd->add_flag("--fail-on-regression", *fail, "Exit 1 when any row is significantly worse beyond the noise band");
  cmd->add_option("--json", *json_out, "Also write the table as JSON here");
  cmd->callback([=] {
    const auto old_doc = store::read_results(files->at(0)), new_doc = store::read_results(files->at(1));
    o->metrics = std::set<std::string>(metrics->begin(), metrics->end());
    auto d = gate::diff_runs(old_doc, new_doc, *o);
    const int worse = store::print_compare_text(std::cout, d, files->at(0), files->at(1), *o);
    if (!json_out->empty()) write_file_atomic(*json_out, gate::to_json(d).dump(1) + "\n");
    if (*fail && worse) {
      std::cerr << "perfgate: " << worse << " significant regression" << (worse > 1 ? "s" : "")
                << " beyond the noise band\n";
      set_exit_code(kExitPerformance);
    }
  });
}

}  // namespace perfgate::cli
