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

namespace perfgate::store {

namespace fs = std::filesystem;
using json = nlohmann::json;

inline constexpr int kBaselineSchemaVersion = 2;  // 1 (one run per entry) is still read

// One accepted run of an entry. The host class (CPU model and core count) groups runs whose
// ratios are expected to agree; the fingerprint (kernel, memory, cgroup layout too) is finer.
struct AcceptedRun {
  double ratio = 1;
  std::array<double, 2> ci{1, 1};
  int n = 0;
  std::string cpu_model, host_fingerprint;
  int cores = 0;
  std::string commit, run_id, recorded_at;
  std::string host_class() const { return cpu_model + " x" + std::to_string(cores); }
};

struct BaselineEntry {
  std::string scenario, profile, metric;
  std::string variant = "after", compare_to = "before";
  std::string unit, better = "lower";
  double ratio = 1;
  std::array<double, 2> ci{1, 1};
  double confidence = 0.95;
  int n = 0;
  double before_median = 0, after_median = 0;
  std::array<double, 2> before_median_ci{0, 0}, after_median_ci{0, 0};
  std::string host_fingerprint;
  json host = json::object();  // cpu_model, cores, kernel: for people reading the file
  std::string commit;
  bool dirty = false;
  std::string run_id, recorded_at;
  std::optional<double> tolerance;  // overrides --baseline-tolerance for this entry (a fraction)
  // Every accepted run, oldest first; the fields above are the newest one's. A schema-1 entry
  // reads as one run.
  std::vector<AcceptedRun> runs;

  AcceptedRun as_run() const;  // this entry's own figures as one accepted run
  std::string host_class() const { return as_run().host_class(); }
  std::string key() const { return scenario + "/" + profile + "/" + metric; }
};

struct Baseline {
  fs::path file;
  bool exists = false;
  std::vector<BaselineEntry> entries;
  const BaselineEntry* find(const std::string& scenario, const std::string& profile, const std::string& metric) const;
};

// A missing file is an empty baseline (exists = false). Throws UsageError "FILE: FIELD: ..."
// on anything malformed.
Baseline load_baseline(const fs::path& file);
// Sorted by key, written atomically; when `file` is a symbolic link (the build tree's
// share/perfgate/baseline.json) the file it points at is replaced, not the link.
void save_baseline(const Baseline& baseline);

json to_json(const BaselineEntry& e);
json to_json(const Baseline& b);

// The figures of one scenario of a results document, as baseline entries: one per gated
// comparison (after vs before) with a finite ratio and interval. `skipped` gets "KEY: why"
// for gated comparisons that cannot be used.
std::vector<BaselineEntry> entries_from_scenario(const json& results, const json& scenario,
                                                 std::vector<std::string>* skipped = nullptr);

struct BaselineChange {
  std::string key, what, detail;  // what: added, updated, appended, unchanged
};
// Puts `fresh` (entries of one or more results files, several per key allowed) into `baseline`
// and says what changed. Without `append` an entry's accepted runs become exactly the fresh ones
// of its key; with `append` they are added to those already accepted (a run_id already there is
// not added twice). Either way the entry's figures become the newest run's and it keeps its own
// tolerance.
std::vector<BaselineChange> refresh_entries(Baseline& baseline, const std::vector<BaselineEntry>& fresh,
                                            bool append = false);

// "0.43x [0.41, 0.45]"
std::string format_ratio(double ratio, const std::array<double, 2>& ci);

}  // namespace perfgate::store
