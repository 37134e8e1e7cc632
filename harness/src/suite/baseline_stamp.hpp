// `perfgate baseline stamp`: accepted runs recorded before runs kept a scenario fingerprint
// (suite/fingerprint.hpp) have none, and no build can vouch for them, so every comparison
// leaves them out as stale. A run whose scenario folder git shows unchanged between the run's
// commit and this work tree measured what this build measures: it gets this build's
// fingerprint. The others stay unstamped (stale), and the lines say which and why.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "catalog/manifest.hpp"
#include "store/baseline_file.hpp"

namespace perfgate::suite {

// A bundled scenario's sources are perfgate's source tree (scenarios/NAME); a user catalog's
// scenario folder is its own. Entries of scenarios the catalog does not have are left alone.
// Also sets `exact` on entries of metrics perfgate declares (run/metric_specs.hpp) that do not
// say it yet.
// Each entry's line: what stamped, stale or current.
std::vector<store::BaselineChange> stamp_baseline(store::Baseline& baseline,
                                                  const std::vector<catalog::Manifest>& catalog);

}  // namespace perfgate::suite
