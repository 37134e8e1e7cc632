// `perfgate report`: report.md and plots from a results file, or the comparison of two
// (export/report_package.hpp).
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "export/report_package.hpp"

namespace perfgate::cli {

void add_report_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("report", "Write report.md and plots from a results file (two files: a comparison)");
  auto r = std::make_shared<exports::ReportRequest>();
  cmd->add_option("results", r->files, "RESULTS.json, or A.json B.json to compare two runs")
      ->required()
      ->expected(1, 2);
  flags::out_dir(cmd, r->out_dir, true);  // report.md and its plots; default: beside the results file
  cmd->add_flag("--history", r->history, "The file is a series from 'perfgate history show --json': plot it");
  cmd->add_flag("--brief", r->brief,
                "One results file: brief.md, sized for a PR comment (the summary picture, one line per scenario, "
                "the failures)");
  cmd->callback([r] { set_exit_code(exports::render_report(*r)); });
}

}  // namespace perfgate::cli
