// `perfgate merge A.json B.json ... -o merged.json`: shard results joined into one (export/merge_command.hpp).
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "export/merge_command.hpp"

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
  cmd->callback([=] { set_exit_code(exports::run_merge(*files, *out, *o, argv)); });
}

}  // namespace perfgate::cli
