#include "store/baseline_file.hpp"

#include <algorithm>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/json_fields.hpp"
#include "gate/policy.hpp"
#include "store/results_file.hpp"

namespace perfgate::store {
namespace {

// The figures an entry and each of its accepted runs both carry: a ratio inside its own interval,
// over n rounds.
template <typename Figures>
void read_figures(const FieldReader& r, Figures& out) {
  out.ratio = r.number("ratio", Sign::kNonNegative);
  out.ci = r.interval("ci", Sign::kNonNegative);
  if (out.ratio < out.ci[0] || out.ratio > out.ci[1]) r.fail("ratio", "lies outside its own interval ci");
  out.n = r.integer("n", 2);
}

AcceptedRun parse_run(const FieldReader& r) {
  AcceptedRun a;
  read_figures(r, a);
  const FieldReader host = r.child("host");
  a.cpu_model = host.non_empty_string("cpu_model");
  a.cores = host.integer("cores", 0);  // 0: unknown
  a.host_fingerprint = host.string("fingerprint", "");
  a.commit = r.non_empty_string("commit");
  a.fingerprint = r.string("fingerprint", "");
  a.run_id = r.string("run_id", "");
  a.recorded_at = r.string("recorded_at", "");
  return a;
}

void read_medians(const FieldReader& r, BaselineEntry& e) {
  const FieldReader medians = r.child("medians");
  e.before_median = medians.number("before", Sign::kNonNegative);
  e.after_median = medians.number("after", Sign::kNonNegative);
  e.before_median_ci = medians.interval("before_ci", Sign::kNonNegative);
  e.after_median_ci = medians.interval("after_ci", Sign::kNonNegative);
}

void read_fractions(const FieldReader& r, BaselineEntry& e) {
  if (auto c = r.optional_number("confidence")) {
    if (*c <= 0 || *c >= 1) r.fail("confidence", "must be between 0 and 1");
    e.confidence = *c;
  }
  if (auto t = r.optional_number("tolerance", Sign::kNonNegative)) {
    if (*t >= 1) r.fail("tolerance", "is a fraction (0.05 for 5%) and must be below 1");
    e.tolerance = t;
  }
}

BaselineEntry parse_entry(const FieldReader& r) {
  BaselineEntry e;
  e.scenario = r.non_empty_string("scenario");
  e.profile = r.non_empty_string("profile");
  e.metric = r.non_empty_string("metric");
  e.variant = r.non_empty_string("variant", e.variant);
  e.compare_to = r.non_empty_string("compare_to", e.compare_to);
  e.unit = r.string("unit", "");
  e.better = r.enum_of<Better>("better");
  read_figures(r, e);
  read_fractions(r, e);
  read_medians(r, e);
  const FieldReader host = r.child("host");
  e.host_fingerprint = host.non_empty_string("fingerprint");
  e.host = host.object();
  e.host.erase("fingerprint");
  e.commit = r.non_empty_string("commit");
  e.dirty = r.optional_boolean("dirty").value_or(e.dirty);
  e.run_id = r.string("run_id", "");
  e.recorded_at = r.string("recorded_at", "");
  e.exact = r.optional_boolean("exact");
  e.fingerprint = r.string("fingerprint", "");
  if (!r.has("runs")) {
    e.runs = {e.as_run()};  // schema 1: the entry is its only accepted run
    return e;
  }
  if (r.array("runs").empty()) r.fail("runs", "must be a non-empty array of accepted runs");
  for (const FieldReader& run : r.elements("runs")) e.runs.push_back(parse_run(run));
  return e;
}

}  // namespace

Baseline load_baseline(const fs::path& file) {
  Baseline b;
  b.file = file;
  auto text = try_read_file(file);
  if (!text) {
    if (fs::exists(file)) throw UsageError(file.string() + ": cannot read the baseline");
    return b;
  }
  b.exists = true;
  const json doc = parse_document(*text, file.string(), "a baseline.json is described in docs/baseline.md");
  const FieldReader r(doc, file.string());
  const json& v = r.required("schema_version", "1 or " + std::to_string(kBaselineSchemaVersion));
  if (v != 1 && v != kBaselineSchemaVersion)
    r.fail("schema_version",
           "is " + v.dump() + "; this perfgate reads 1 and " + std::to_string(kBaselineSchemaVersion));
  r.array("entries");
  for (const FieldReader& entry : r.elements("entries")) {
    BaselineEntry e = parse_entry(entry);
    if (b.find(e.scenario, e.profile, e.metric)) entry.fail("a second entry for " + e.key());
    b.entries.push_back(std::move(e));
  }
  return b;
}

namespace {

// Keys in reading order (nlohmann::json would sort them): what, the figures, where from.
nlohmann::ordered_json ordered(const BaselineEntry& e) {
  nlohmann::ordered_json host = {{"fingerprint", e.host_fingerprint}};
  for (const auto& [k, v] : e.host.items()) host[k] = v;
  nlohmann::ordered_json j;
  j["scenario"] = e.scenario;
  j["profile"] = e.profile;
  j["metric"] = e.metric;
  j["variant"] = e.variant;
  j["compare_to"] = e.compare_to;
  j["unit"] = e.unit;
  j["better"] = name_of(e.better);
  if (e.exact) j["exact"] = *e.exact;
  j["ratio"] = e.ratio;
  j["ci"] = e.ci;
  j["confidence"] = e.confidence;
  j["n"] = e.n;
  if (e.tolerance) j["tolerance"] = *e.tolerance;
  j["medians"] = {{"before", e.before_median},
                  {"after", e.after_median},
                  {"before_ci", e.before_median_ci},
                  {"after_ci", e.after_median_ci}};
  j["host"] = host;
  j["commit"] = e.commit;
  j["dirty"] = e.dirty;
  j["run_id"] = e.run_id;
  j["recorded_at"] = e.recorded_at;
  if (!e.fingerprint.empty()) j["fingerprint"] = e.fingerprint;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const auto& a : e.runs.empty() ? std::vector<AcceptedRun>{e.as_run()} : e.runs) {
    nlohmann::ordered_json rj;
    rj["ratio"] = a.ratio;
    rj["ci"] = a.ci;
    rj["n"] = a.n;
    rj["host"] = {{"cpu_model", a.cpu_model}, {"cores", a.cores}, {"fingerprint", a.host_fingerprint}};
    rj["commit"] = a.commit;
    rj["run_id"] = a.run_id;
    rj["recorded_at"] = a.recorded_at;
    if (!a.fingerprint.empty()) rj["fingerprint"] = a.fingerprint;
    runs.push_back(rj);
  }
  j["runs"] = runs;
  return j;
}

}  // namespace

json to_json(const BaselineEntry& e) { return json::parse(ordered(e).dump()); }

namespace {

nlohmann::ordered_json ordered(const Baseline& b) {
  std::vector<const BaselineEntry*> sorted;
  for (const auto& e : b.entries) sorted.push_back(&e);
  std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* c) { return a->key() < c->key(); });
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto* e : sorted) entries.push_back(ordered(*e));
  nlohmann::ordered_json j;
  j["schema_version"] = kBaselineSchemaVersion;
  j["description"] =
      "Accepted AFTER/BEFORE ratios of perfgate scenarios; written by `perfgate baseline update`, see "
      "docs/baseline.md";
  j["entries"] = entries;
  return j;
}

}  // namespace

json to_json(const Baseline& b) { return json::parse(ordered(b).dump()); }

void save_baseline(const Baseline& b) {
  fs::path target = b.file;
  // Follow links so the committed file is replaced, not the build tree's link to it.
  for (int hops = 0; hops < 8 && fs::is_symlink(target); ++hops) {
    fs::path to = fs::read_symlink(target);
    target = to.is_absolute() ? to : target.parent_path() / to;
  }
  write_file_atomic(target, ordered(b).dump(2) + "\n");
}

std::vector<BaselineChange> refresh_entries(Baseline& b, const std::vector<BaselineEntry>& fresh, bool append) {
  std::vector<BaselineChange> changes;
  // key × machine whose runs this call started afresh (no --append): a machine's runs are
  // replaced by its fresh ones; other machines of its class, and other classes, keep theirs
  // (the gate learns how far machines of one class differ from them: gate/spread_rule.hpp).
  std::vector<std::string> replaced;
  const auto same_machine = [](const AcceptedRun& a, const BaselineEntry& e) {
    return a.host_class() == e.host_class() && a.host_fingerprint == e.host_fingerprint;
  };
  for (const auto& e : fresh) {
    const std::string slot = e.key() + "\n" + e.host_class() + "\n" + e.host_fingerprint;
    auto it =
        std::find_if(b.entries.begin(), b.entries.end(), [&](const BaselineEntry& x) { return x.key() == e.key(); });
    if (it == b.entries.end()) {
      b.entries.push_back(e);
      b.entries.back().runs = {e.as_run()};
      replaced.push_back(slot);
      changes.push_back(
          {e.key(), "added", gate::format_ratio(e.ratio, e.ci) + " from commit " + e.commit.substr(0, 12)});
      continue;
    }
    const bool known =
        std::any_of(it->runs.begin(), it->runs.end(), [&](const AcceptedRun& a) { return a.run_id == e.run_id; });
    const bool fresh_start = !append && std::find(replaced.begin(), replaced.end(), slot) == replaced.end();
    std::vector<AcceptedRun> runs;
    for (const auto& a : it->runs)
      if (!fresh_start || !same_machine(a, e)) runs.push_back(a);
    if (fresh_start && known && it->runs.size() == runs.size() + 1) {  // the same results file accepted again
      replaced.push_back(slot);
      changes.push_back({e.key(), "unchanged", gate::format_ratio(e.ratio, e.ci)});
      continue;
    }
    if (!fresh_start && known) {
      changes.push_back(
          {e.key(), "unchanged", gate::format_ratio(e.ratio, e.ci) + " (run " + e.run_id + " already accepted)"});
      continue;
    }
    runs.push_back(e.as_run());
    if (fresh_start) replaced.push_back(slot);
    const std::string before = gate::format_ratio(it->ratio, it->ci) + " (commit " + it->commit.substr(0, 12) + ")";
    BaselineEntry next = e;
    next.tolerance = it->tolerance;
    if (!next.exact) next.exact = it->exact;  // a results file from before declarations keeps the entry's
    next.runs = std::move(runs);
    *it = std::move(next);
    changes.push_back({e.key(), fresh_start ? "updated" : "appended",
                       before + " → " + gate::format_ratio(e.ratio, e.ci) + " (commit " + e.commit.substr(0, 12) +
                           "), " + std::to_string(it->runs.size()) + " accepted run(s)"});
  }
  return changes;
}

}  // namespace perfgate::store
