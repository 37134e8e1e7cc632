#include "suite/pipeline.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "common/command_opening.hpp"
#include "common/errors.hpp"
#include "export/ab_text.hpp"
#include "export/exports.hpp"
#include "export/verdict_text.hpp"
#include "suite/execute.hpp"
#include "suite/progress.hpp"

namespace perfgate::suite {

namespace {

// Colour only for a person at a terminal: not when stdout is a file or a pipe, not under
// NO_COLOR (no-color.org: set and not empty), not on a dumb terminal.
bool colour_wanted() {
  const char* no_colour = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !(no_colour && *no_colour) && !(term && std::strcmp(term, "dumb") == 0);
}

}  // namespace

Shown run_and_show(const plan::RunPlan& rp) {
  const bool quiet = rp.outputs.quiet;
  for (const auto& note : rp.notes) std::cerr << "perfgate: " << note << "\n";
  // Held until every export is written.
  const CommandOpening opening(
      {.out_dir = rp.outputs.out_dir, .json_path = rp.outputs.json_path, .argv = rp.record.argv});
  Progress progress(quiet);
  const auto out = execute_plan(rp, progress.sink());

  exports::write_exports(exports::run_exports(out.document, rp.outputs), out.exit_code);
  if (!quiet || out.exit_code != kExitOk)
    exports::print_verdict_table(std::cout, out.document, colour_wanted(), ::isatty(STDOUT_FILENO));
  const bool users_commands = std::any_of(rp.scenarios.begin(), rp.scenarios.end(),
                                          [](const plan::ScenarioPlan& s) { return s.commands() != nullptr; });
  if (users_commands && !quiet) exports::print_ab_summary(std::cout, out.document, rp.outputs.time_unit);
  for (const auto& f : out.failures) std::cerr << "perfgate: " << f << "\n";
  if (out.interrupted) std::cerr << "perfgate: interrupted; the completed rounds are in the results\n";
  if (!out.results_path.empty()) std::cerr << "perfgate: results in " << out.results_path.string() << "\n";
  const auto& host = out.document.host;
  if (rp.record.batch && !host.load_before.empty() && !host.load_after.empty())
    std::cerr << "perfgate: batch: 1-minute load average " << host.load_before[0] << " before, " << host.load_after[0]
              << " after (host.load_before / host.load_after in the results)\n";
  return {out.exit_code, out.document};
}

}  // namespace perfgate::suite
