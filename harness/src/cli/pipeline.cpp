#include "cli/pipeline.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "cli/ci_outputs.hpp"
#include "cli/progress.hpp"
#include "common/errors.hpp"
#include "store/verdict_text.hpp"
#include "suite/execute.hpp"

namespace perfgate::cli {

namespace {

// Colour only for a person at a terminal: not when stdout is a file or a pipe, not under
// NO_COLOR (no-color.org: set and not empty), not on a dumb terminal.
bool colour_wanted() {
  const char* no_colour = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !(no_colour && *no_colour) && !(term && std::strcmp(term, "dumb") == 0);
}

}  // namespace

int execute_plan(const plan::RunPlan& rp, const plan::RunOptions& options, const std::vector<std::string>& argv,
                 const nlohmann::json& run_extra, const std::function<void(const model::ResultsDoc&)>& after_table) {
  Progress progress(options.quiet);
  suite::StatusLine status{[&progress](const std::string& s) { progress.update(s); },
                           [&progress] { progress.clear(); }};
  const auto out = suite::execute_plan(rp, options, argv, run_extra, status);

  const auto unwritten = write_ci_outputs(out.document, options);
  if (!options.quiet || out.exit_code != kExitOk) store::print_verdict_table(std::cout, out.document, colour_wanted());
  if (after_table) after_table(out.document);
  for (const auto& f : out.failures) std::cerr << "perfgate: " << f << "\n";
  for (const auto& u : unwritten)
    std::cerr << "perfgate: error: " << u << " (not written; the exit code is still the gates', " << out.exit_code
              << ")\n";
  if (out.interrupted) std::cerr << "perfgate: interrupted; the completed rounds are in the results\n";
  if (!out.results_path.empty()) std::cerr << "perfgate: results in " << out.results_path.string() << "\n";
  return out.exit_code;
}

}  // namespace perfgate::cli
