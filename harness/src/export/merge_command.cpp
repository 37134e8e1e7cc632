#include "export/merge_command.hpp"

#include <iostream>

#include "export/exports.hpp"
#include "perfgate/enum_names.hpp"
#include "store/results_codec.hpp"
#include "store/results_complete.hpp"

namespace perfgate::exports {

int run_merge(const std::vector<std::string>& files, const std::string& out, const store::MergeOptions& options,
              const std::vector<std::string>& argv) {
  std::vector<store::MergeInput> inputs;
  for (const auto& f : files) {
    inputs.push_back({f, store::read_results(f)});
    store::require_complete(inputs.back().doc, f);
    store::require_measured(inputs.back().doc, f);
  }
  const auto merged = store::merge_results(inputs, argv, options);
  auto file = json_export("--json", out, store::to_json(merged), 1);
  file.required = true;  // the merged results are merge's product: unwritten, exit 4 as before
  write_exports({file}, merged.outcome.exit_code);
  std::cout << "merged " << files.size() << " files, " << merged.scenarios.size() << " scenarios → " << out << " ("
            << name_of(merged.outcome.status) << ", exit " << merged.outcome.exit_code << ")\n";
  for (const auto& f : merged.outcome.failures) std::cerr << "perfgate: " << f << "\n";
  return merged.outcome.exit_code;
}

}  // namespace perfgate::exports
