// Every document a command writes beside its verdict, in one registry: what it is (the flag that
// asked for it), where it goes and how it is rendered from the finished results. Each is written
// atomically (GitHub's step summary is appended; annotations go to stdout), and one that cannot
// be written is one stderr line, the same for every output, that never changes the exit code.
// The results file itself is the suite's, rewritten after every scenario (store/results_file.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "model/results_model.hpp"
#include "plan/plan.hpp"

namespace perfgate::exports {

struct Export {
  enum class Mode { Replace, Append, Stdout };
  std::string what;            // "--junit out.xml", "the step summary"
  std::filesystem::path file;  // ignored for Stdout
  std::function<std::string()> render;
  Mode mode = Mode::Replace;
  // The command's own product (parity's documents, merge's file): one that cannot be written is the
  // command's error, as before (the write's RunError, exit 4), rather than a line beside the exit code.
  bool required = false;
};

// The exports a run's plan asked for, and those of a CI runner (GITHUB_ACTIONS=true: workflow
// annotations on stdout, the markdown summary appended to $GITHUB_STEP_SUMMARY).
std::vector<Export> run_exports(const model::ResultsDoc& results, const plan::Outputs& outputs);

// One JSON document (calibrate's, bisect's, lies', compare's, parity's, merge's, history show's …)
// as an export, indented by `indent` (merge's results file and history show's --json by 1).
Export json_export(const std::string& what, const std::filesystem::path& file, const nlohmann::json& doc,
                   int indent = 2);

// Writes each export; a failure is "perfgate: error: WHAT: why (not written; the exit code is
// still the gates', N)" on stderr. Returns how many could not be written.
int write_exports(const std::vector<Export>& exports, int exit_code);

}  // namespace perfgate::exports
