// `perfgate compare OLD.json NEW.json`: two runs side by side, benchstat-style (gate/run_diff.hpp),
// both runs' outcomes first, then the regression gate: the gated variants' rows, each change
// divided by its scenario's BEFORE change, so a machine that drifted between the runs fails
// nothing. `--markdown FILE` writes the same for a pull-request comment.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/errors.hpp"
#include "export/compare_markdown.hpp"
#include "export/compare_text.hpp"
#include "export/exports.hpp"
#include "gate/run_diff.hpp"
#include "store/results_codec.hpp"
#include "store/results_complete.hpp"

namespace perfgate::cli {
namespace {

struct Inputs {
  std::string old_file, new_file;
  gate::DiffOptions options;
};

int exit_code_of(const gate::RunDiff& d, const gate::GateDecision& verdict, bool fail_on_regression) {
  if (fail_on_regression) return verdict.exit_code;
  return d.rows.empty() ? kExitUsage : kExitOk;  // nothing to show is bad input even without the gate
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two results files benchstat-style: per scenario, variant and metric the old and new medians, the\n"
      "change with its interval, the Mann-Whitney p (Holm-corrected over every row), ~ where not significant,\n"
      "and the geometric mean over scenarios; then the gate: AFTER's change against BEFORE's (drift-corrected)");
  auto files = std::make_shared<std::vector<std::string>>();
  auto in = std::make_shared<Inputs>();
  auto& o = in->options;
  auto metrics = std::make_shared<std::vector<std::string>>();
  auto gate_variants = std::make_shared<std::vector<std::string>>();
  auto fail = std::make_shared<bool>(false);
  auto json_out = std::make_shared<std::string>(), markdown_out = std::make_shared<std::string>();
  cmd->add_option("files", *files, "OLD.json NEW.json")->required()->expected(2);
  cmd->add_option("--metrics", *metrics,
                  "METRIC: the metrics to show (repeatable; default: each scenario's gated metric, wall_ms, cpu_ms)")
      ->allow_extra_args(false);
  cmd->add_flag("--all-metrics", o.all_metrics, "Every metric both runs measured");
  flags::noise(cmd, o.noise);
  flags::alpha(cmd, o.alpha);
  cmd->add_flag("--fail-on-regression", *fail,
                "Exit 1 when a gated row (--gate-variant) is significantly worse than its scenario's BEFORE moved,\n"
                "beyond the noise band; exit 2 when nothing is comparable or a run did not finish or errored");
  cmd->add_option("--gate-variant", *gate_variants,
                  "Variant whose rows the gate judges (repeatable; default: after, or a scenario's only variant);\n"
                  "each is corrected by the variant it was compared to in its run (BEFORE), if any");
  flags::json_file(cmd, *json_out);
  cmd->add_option("--markdown", *markdown_out,
                  "Also write the gate's verdict and the table as markdown here (a PR comment)");
  cmd->callback([=] {
    in->old_file = files->at(0);
    in->new_file = files->at(1);
    const auto old_doc = store::read_results(in->old_file), new_doc = store::read_results(in->new_file);
    in->options.metrics = std::set<std::string>(metrics->begin(), metrics->end());
    in->options.gate_variants = std::set<std::string>(gate_variants->begin(), gate_variants->end());
    const auto d = gate::diff_runs(old_doc, new_doc, in->options);
    std::string not_gateable = store::why_not_gateable(old_doc, in->old_file);
    if (not_gateable.empty()) not_gateable = store::why_not_gateable(new_doc, in->new_file);
    const gate::GateDecision verdict = gate::decide_gate(d, in->options, not_gateable);
    exports::print_outcomes(std::cout, d);
    for (const auto& w : exports::print_commands(std::cout, old_doc, new_doc))
      std::cerr << "perfgate: warning: " << w << "\n";
    exports::print_compare_text(std::cout, d, in->old_file, in->new_file, in->options);
    exports::print_gate_text(std::cout, d, in->options, verdict);
    const int code = exit_code_of(d, verdict, *fail);
    std::vector<exports::Export> docs;
    if (!json_out->empty()) docs.push_back(exports::json_export("--json", *json_out, gate::to_json(d)));
    if (!markdown_out->empty())
      docs.push_back({"--markdown " + *markdown_out, *markdown_out,
                      [&] { return exports::compare_markdown(d, in->old_file, in->new_file, in->options, verdict); }});
    exports::write_exports(docs, code);
    if (code != kExitOk) std::cerr << "perfgate: " << verdict.headline << "\n";
    set_exit_code(code);
  });
}

}  // namespace perfgate::cli
