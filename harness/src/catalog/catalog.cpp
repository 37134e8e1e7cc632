#include "catalog/catalog.hpp"

#include <algorithm>

#include "common/errors.hpp"

namespace perfgate::catalog {

fs::path executable_dir() { return fs::read_symlink("/proc/self/exe").parent_path(); }

fs::path share_dir() { return executable_dir().parent_path() / "share" / "perfgate"; }

fs::path bundled_catalog_dir() { return share_dir() / "scenarios"; }

fs::path bundled_baseline() { return share_dir() / "baseline.json"; }

std::vector<Manifest> load_catalog(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw UsageError("catalog " + dir.string() + " is not a directory");
  std::vector<Manifest> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    fs::path file = entry.path() / "scenario.json";
    if (entry.is_directory() && fs::exists(file)) out.push_back(load_manifest(file));
  }
  std::sort(out.begin(), out.end(), [](const Manifest& a, const Manifest& b) { return a.name < b.name; });
  return out;
}

const Manifest& find_scenario(const std::vector<Manifest>& catalog, const std::string& name) {
  for (const auto& m : catalog)
    if (m.name == name) return m;
  std::string known;
  for (const auto& m : catalog) known += (known.empty() ? "" : ", ") + m.name;
  throw UsageError("unknown scenario '" + name + "' (known: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace perfgate::catalog
