// baseline.json (docs/baseline.md, docs/baseline.schema.json): the accepted AFTER/BEFORE
// ratio of every scenario × profile × gated metric, with its interval, the absolute medians,
// and the host and commit they came from, plus every accepted run's ratio with its host class
// (the gate estimates the between-run spread from them). Read strictly (a malformed file is exit 2 and is
// never overwritten), written atomically, sorted so that diffs of the committed file are small.
#pragma once

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/results_model.hpp"

namespace perfgate::store {

namespace fs = std::filesystem;
using json = nlohmann::json;

inline constexpr int kBaselineSchemaVersion = 2;  // 1 (one run per entry) is still read

// The entries are model values (model/results_model.hpp); this file reads and writes them.
using model::AcceptedRun;
using model::Baseline;
using model::BaselineEntry;

// A missing file is an empty baseline (exists = false). Throws UsageError "FILE: FIELD: ..."
// on anything malformed.
Baseline load_baseline(const fs::path& file);
// Sorted by key, written atomically; when `file` is a symbolic link (the build tree's
// share/perfgate/baseline.json) the file it points at is replaced, not the link.
void save_baseline(const Baseline& baseline);

json to_json(const BaselineEntry& e);
json to_json(const Baseline& b);

struct BaselineChange {
  std::string key, what, detail;  // what: added, updated, appended, unchanged
};
// Puts `fresh` (entries of one or more results files, several per key allowed) into `baseline`
// and says what changed. Without `append` an entry's accepted runs on a host class become exactly
// the fresh ones of its key and class (other classes keep theirs: a class nobody can re-record
// here is not wiped by a refresh on this one); with `append` they are added to those already
// accepted (a run_id already there is not added twice). Either way the entry's figures become the newest run's and it
// keeps its own tolerance.
std::vector<BaselineChange> refresh_entries(Baseline& baseline, const std::vector<BaselineEntry>& fresh,
                                            bool append = false);

}  // namespace perfgate::store
