// `perfgate new NAME [--kind batch|service|gbench] [--out DIR]` (catalog/new_scenario.hpp).
#include "catalog/new_scenario.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"

namespace perfgate::cli {

void add_new_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("new", catalog::kNewScenarioAbout);
  auto name = std::make_shared<std::string>();
  auto kind = std::make_shared<std::string>("batch");
  auto out = std::make_shared<std::string>();
  cmd->add_option("name", *name, "The scenario's name: letters, digits and _, starting with a letter")->required();
  cmd->add_option("--kind", *kind, "batch (one run per sample), service (serve + the load generator) or gbench")
      ->check(CLI::IsMember(catalog::kind_names()))
      ->capture_default_str();
  flags::out_dir(cmd, *out);
  cmd->callback([name, kind, out] { catalog::new_scenario(*name, *kind, *out); });
}

}  // namespace perfgate::cli
