// `perfgate report`: the Python report package (reports/perfgate_report) renders a results file;
// with two files it renders the comparison `perfgate compare A B` computes (gate/run_diff), so
// the two commands print the same rows, p-values and verdicts.
#pragma once

#include <string>
#include <vector>

namespace perfgate::exports {

struct ReportRequest {
  std::vector<std::string> files;  // RESULTS.json, or A.json B.json
  std::string out_dir = {};        // report.md and its plots; empty: beside the results file
  bool history = false;            // the file is a series of `history show --json`
  bool brief = false;              // brief.md, sized for a PR comment
};

// Runs the report package in the foreground and returns its exit code. A malformed results file
// is exit 2 naming file and field, as in every other reader; no Python with the package's modules
// is exit 2 saying what to install.
int render_report(const ReportRequest& request);

}  // namespace perfgate::exports
