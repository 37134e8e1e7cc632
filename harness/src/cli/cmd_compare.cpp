// `perfgate compare OLD.json NEW.json`: two runs side by side, benchstat-style (gate/run_diff.hpp),
// both runs' outcomes first, then the regression gate: the gated variants' rows, each change
// divided by its scenario's BEFORE change, so a machine that drifted between the runs fails
// nothing. `--markdown FILE` writes the same for a pull-request comment (export/compare_command.hpp).
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "export/compare_command.hpp"

namespace perfgate::cli {

void add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two results files benchstat-style: per scenario, variant and metric the old and new medians, the\n"
      "change with its interval, the Mann-Whitney p (Holm-corrected over every row), ~ where not significant,\n"
      "and the geometric mean over scenarios; then the gate: AFTER's change against BEFORE's (drift-corrected)");
  auto r = std::make_shared<exports::CompareRequest>();
  auto& o = r->options;
  cmd->add_option("files", r->files, "OLD.json NEW.json")->required()->expected(2);
  cmd->add_option("--metrics", r->metrics,
                  "METRIC: the metrics to show (repeatable; default: each scenario's gated metric, wall_ms, cpu_ms)")
      ->allow_extra_args(false);
  cmd->add_flag("--all-metrics", o.all_metrics, "Every metric both runs measured");
  flags::noise(cmd, o.noise);
  flags::alpha(cmd, o.alpha);
  cmd->add_flag("--fail-on-regression", r->fail_on_regression,
                "Exit 1 when a gated row (--gate-variant) is significantly worse than its scenario's BEFORE moved,\n"
                "beyond the noise band; exit 2 when nothing is comparable or a run did not finish or errored");
  cmd->add_option("--gate-variant", r->gate_variants,
                  "Variant whose rows the gate judges (repeatable; default: after, or a scenario's only variant);\n"
                  "each is corrected by the variant it was compared to in its run (BEFORE), if any");
  flags::json_file(cmd, r->json_out);
  cmd->add_option("--markdown", r->markdown_out,
                  "Also write the gate's verdict and the table as markdown here (a PR comment)");
  cmd->callback([r] { set_exit_code(exports::run_compare(*r)); });
}

}  // namespace perfgate::cli
