// `perfgate lies [SCENARIO...]`: run every declared lie against BEFORE and print lie → how it
// was caught (suite/lies.hpp). Exit 0 only when every lie was caught as declared.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "suite/lies_text.hpp"

namespace perfgate::cli {

void add_lies_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "lies",
      "Run every declared lie (an AFTER that does less on purpose) against BEFORE; exit 0 only if each "
      "was caught as declared (exit 3, or its exact-count gate)");
  auto names = std::make_shared<std::vector<std::string>>();
  auto lo = std::make_shared<suite::LiesOptions>();
  auto catalog_dir = std::make_shared<std::string>();
  auto json_path = std::make_shared<std::string>();
  cmd->add_option("scenarios", *names, "Scenarios whose lies to check (default: every scenario of the catalog)");
  flags::profile(cmd, lo->profile);
  flags::exact_rounds(cmd, lo->rounds);
  cmd->add_option("--repeat", lo->repeat, "Runs of each lie; caught only when caught in every one")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  flags::catalog(cmd, *catalog_dir);
  flags::seed(cmd, lo->seed);
  flags::cpus(cmd, lo->cpus);
  flags::json_file(cmd, *json_path);
  cmd->callback(
      [=] { set_exit_code(suite::run_lies_command(std::cout, *catalog_dir, *names, *lo, argv, *json_path)); });
}

}  // namespace perfgate::cli
