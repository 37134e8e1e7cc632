#include "export/catalog_text.hpp"

#include <algorithm>
#include <string>

#include "perfgate/enum_names.hpp"

namespace perfgate::exports {

void print_catalog(std::ostream& out, const std::vector<catalog::Manifest>& scenarios,
                   const std::filesystem::path& dir) {
  std::vector<std::vector<std::string>> rows = {{"name", "source", "kind", "profiles", "title"}};
  for (const auto& m : scenarios) {
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
    out << line << "\n";
  }
  if (scenarios.empty()) out << "(no scenarios in " << dir.string() << ")\n";
}

}  // namespace perfgate::exports
