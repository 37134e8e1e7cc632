// The catalog: a folder of scenario folders, each with a scenario.json. The bundled one is
// found relative to the executable (bin/perfgate → share/perfgate/scenarios), in the build
// tree and after `cmake --install` alike.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "catalog/manifest.hpp"

namespace perfgate::catalog {

fs::path executable_dir();
fs::path share_dir();  // <prefix>/share/perfgate
fs::path bundled_catalog_dir();
// share/perfgate/baseline.json beside the catalog: in the build tree a link to the committed
// baseline.json at the root of the source tree, after `cmake --install` a copy of it.
fs::path bundled_baseline();

std::vector<Manifest> load_catalog(const fs::path& dir);

// Throws UsageError listing the known names when `name` is not in the catalog.
const Manifest& find_scenario(const std::vector<Manifest>& catalog, const std::string& name);

}  // namespace perfgate::catalog
