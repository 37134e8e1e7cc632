// `perfgate merge A.json B.json ... -o merged.json`: shard results joined into one (store/merge_results.hpp).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/errors.hpp"
#include "export/exports.hpp"
#include "store/merge_results.hpp"
#include "store/results_codec.hpp"
#include "store/results_complete.hpp"

namespace perfgate::cli {

void add_merge_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "merge", "Join shard results (perfgate run --shard i/n) into one results file; exits with the merged outcome");
  auto files = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  auto o = std::make_shared<store::MergeOptions>();
  cmd->add_option("files", *files, "Results files of the shards")->required()->expected(1, -1);
  flags::json_file(cmd, *out, true);
  cmd->get_option("--json")->required();
  cmd->add_flag("--allow-partial", o->allow_partial, "Merge even when some shards of i/n are missing");
  cmd->add_flag("--allow-mixed-commits", o->allow_mixed_commits, "Merge runs of different commits");
  cmd->callback([=] {
    std::vector<store::MergeInput> inputs;
    for (const auto& f : *files) {
      inputs.push_back({f, store::read_results(f)});
      store::require_complete(inputs.back().doc, f);
      store::require_measured(inputs.back().doc, f);
    }
    const auto merged = store::merge_results(inputs, argv, *o);
    auto file = exports::json_export("--json", *out, store::to_json(merged), 1);
    file.required = true;  // the merged results are merge's product: unwritten, exit 4 as before
    exports::write_exports({file}, merged.outcome.exit_code);
    std::cout << "merged " << files->size() << " files, " << merged.scenarios.size() << " scenarios → " << *out << " ("
              << name_of(merged.outcome.status) << ", exit " << merged.outcome.exit_code << ")\n";
    for (const auto& f : merged.outcome.failures) std::cerr << "perfgate: " << f << "\n";
    set_exit_code(merged.outcome.exit_code);
  });
}

}  // namespace perfgate::cli
