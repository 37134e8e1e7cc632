// `perfgate baseline update|check|show|stamp` (docs/baseline.md): what each does with the
// baseline file and prints, once its flags are read. `file` empty: the bundled baseline, or where
// a subcommand says otherwise the results' own (results_baseline_path).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "history/history_db.hpp"

namespace perfgate::suite {

struct BaselineUpdateRequest {
  std::vector<std::string> results_files;
  std::string from_history = {};  // a history database instead of results files
  history::AcceptedQuery accepted = {};
  std::string file = {};
  std::vector<std::string> only = {};  // --scenario
  bool append = false, dry_run = false;
};

// Records the entries and saves them (or says it would not, in a dry run). Throws UsageError when
// nothing could be recorded.
void update_baseline_file(std::ostream& out, const BaselineUpdateRequest& r);

// One PASS/FAIL/n/a line per gated figure of `results`; exit 1 on a regression, else 0.
int check_baseline(std::ostream& out, const std::string& results, const std::string& file, double alpha,
                   double tolerance);

// The baseline's entries: of `file`, else of the baseline `results` defaults to, else the bundled one.
void show_baseline(std::ostream& out, const std::string& file, const std::string& results);

// Gives accepted runs without fingerprints this build's, where git shows their sources unchanged.
void stamp_baseline_file(std::ostream& out, const std::string& file, const std::string& catalog_dir, bool dry_run);

}  // namespace perfgate::suite
