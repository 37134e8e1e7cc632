// `perfgate lies [SCENARIO...]`: run every declared lie against BEFORE and print lie → how it
// was caught (suite/lies.hpp). Exit 0 only when every lie was caught as declared.
#include <iostream>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "cli/progress.hpp"
#include "common/errors.hpp"
#include "export/exports.hpp"
#include "suite/lies.hpp"
#include "suite/lies_text.hpp"
#include "suite/threat_coverage.hpp"

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
  cmd->callback([=] {
    auto dir = catalog_dir->empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(*catalog_dir);
    auto catalog = catalog::load_catalog(dir);
    Progress progress(false);
    const auto checks = suite::check_lies(catalog, *names, *lo, argv, progress.sink());
    const auto coverage = suite::threat_coverage(catalog, checks);
    suite::print_lies(std::cout, checks);
    suite::print_coverage(std::cout, coverage);
    const int code = suite::lies_exit_code(checks);
    if (!json_path->empty()) {
      nlohmann::json lies = nlohmann::json::array();
      for (const auto& c : checks) lies.push_back(suite::to_json(c));
      exports::write_exports(
          {exports::json_export("--json", *json_path, {{"lies", lies}, {"coverage", suite::to_json(coverage)}})}, code);
    }
    set_exit_code(code);
  });
}

}  // namespace perfgate::cli
