#include <iostream>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "export/catalog_text.hpp"

namespace perfgate::cli {

void add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the bundled scenarios: name, source write-up, kind, profiles");
  auto catalog_dir = std::make_shared<std::string>();
  flags::catalog(cmd, *catalog_dir);
  cmd->callback([catalog_dir] {
    auto dir = catalog_dir->empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(*catalog_dir);
    exports::print_catalog(std::cout, catalog::load_catalog(dir), dir);
  });
}

}  // namespace perfgate::cli
