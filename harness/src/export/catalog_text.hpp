// What `perfgate list` prints: one line per scenario of a catalog (name, source write-up, kind,
// profiles, title), or that the folder holds none.
#pragma once

#include <filesystem>
#include <ostream>
#include <vector>

#include "catalog/manifest.hpp"

namespace perfgate::exports {

void print_catalog(std::ostream& out, const std::vector<catalog::Manifest>& scenarios,
                   const std::filesystem::path& dir);

}  // namespace perfgate::exports
