#include <iostream>

#include "catalog/catalog.hpp"
#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"

namespace perfgate::cli {

void add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the bundled scenarios: name, source write-up, kind, profiles");
  auto catalog_dir = std::make_shared<std::string>();
  flags::catalog(cmd, *catalog_dir);
  cmd->callback([catalog_dir] {
    auto dir = catalog_dir->empty() ? catalog::bundled_catalog_dir() : std::filesystem::path(*catalog_dir);
    auto all = catalog::load_catalog(dir);
    std::vector<std::vector<std::string>> rows = {{"name", "source", "kind", "profiles", "title"}};
    for (const auto& m : all) {
      std::string profiles;
      for (const auto& p : m.profile_names()) profiles += (profiles.empty() ? "" : ",") + p;
      rows.push_back({m.name, m.source, std::string(name_of(m.kind)), profiles, m.title});
    }
    std::vector<std::size_t> w(rows[0].size(), 0);
    for (const auto& r : rows)
      for (std::size_t i = 0; i + 1 < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
    for (const auto& r : rows) {
      std::string line;
      for (std::size_t i = 0; i < r.size(); ++i) {
        std::string c = r[i];
        if (i + 1 < r.size()) c.resize(w[i], ' ');
        line += (i ? "  " : "") + c;
      }
      std::cout << line << "\n";
    }
    if (all.empty()) std::cout << "(no scenarios in " << dir.string() << ")\n";
  });
}

}  // namespace perfgate::cli
