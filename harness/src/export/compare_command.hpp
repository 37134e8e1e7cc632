// `perfgate compare OLD.json NEW.json` from its words to its exit code: both runs read, compared
// benchstat-style (gate/run_diff.hpp), both runs' outcomes, the table and the regression gate
// printed (compare_text.hpp), --json and --markdown written.
#pragma once

#include <string>
#include <vector>

#include "gate/run_diff.hpp"

namespace perfgate::exports {

struct CompareRequest {
  std::vector<std::string> files;  // OLD.json NEW.json
  gate::DiffOptions options;
  std::vector<std::string> metrics, gate_variants;
  bool fail_on_regression = false;
  std::string json_out, markdown_out;
};

// With --fail-on-regression the gate's exit code; without, 2 when nothing could be compared.
int run_compare(const CompareRequest& request);

}  // namespace perfgate::exports
