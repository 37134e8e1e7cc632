#include "store/baseline_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "gate/policy.hpp"
#include "store/results_file.hpp"

namespace perfgate::store {
namespace {

// Field-by-field reading with errors that name the file and the field.
struct Reader {
  const json& j;
  std::string file, at;
  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw UsageError(file + ": " + (at.empty() ? "" : at + ".") + field + ": " + problem);
  }
  const json& get(const std::string& k) const {
    if (!j.contains(k)) fail(k, "missing");
    return j[k];
  }
  std::string str(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_string() || v.get<std::string>().empty()) fail(k, "must be a non-empty string");
    return v.get<std::string>();
  }
  double positive(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0) fail(k, "must be a number >= 0");
    return v.get<double>();
  }
  std::array<double, 2> interval(const std::string& k) const {
    const json& v = get(k);
    if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number())
      fail(k, "must be [lo, hi], two numbers");
    std::array<double, 2> out{v[0].get<double>(), v[1].get<double>()};
    if (!(out[0] <= out[1]) || out[0] < 0) fail(k, "must be [lo, hi] with 0 <= lo <= hi");
    return out;
  }
};

// An optional string field: absent or empty reads as "".
std::string optional_text(const Reader& r, const std::string& k) {
  if (!r.j.contains(k)) return "";
  if (!r.j[k].is_string()) r.fail(k, "must be a string");
  return r.j[k].get<std::string>();
}

BaselineEntry parse_entry(const json& j, const std::string& file, const std::string& at) {
  if (!j.is_object()) throw UsageError(file + ": " + at + ": must be an object");
  Reader r{j, file, at};
  BaselineEntry e;
  e.scenario = r.str("scenario");
  e.profile = r.str("profile");
  e.metric = r.str("metric");
  if (j.contains("variant")) e.variant = r.str("variant");
  if (j.contains("compare_to")) e.compare_to = r.str("compare_to");
  e.unit = j.contains("unit") && j["unit"].is_string() ? j["unit"].get<std::string>() : "";
  e.better = r.str("better");
  if (e.better != "lower" && e.better != "higher") r.fail("better", "must be \"lower\" or \"higher\"");
  e.ratio = r.positive("ratio");
  e.ci = r.interval("ci");
  if (e.ratio < e.ci[0] || e.ratio > e.ci[1]) r.fail("ratio", "lies outside its own interval ci");
  if (j.contains("confidence")) {
    e.confidence = r.positive("confidence");
    if (e.confidence <= 0 || e.confidence >= 1) r.fail("confidence", "must be between 0 and 1");
  }
  const json& n = r.get("n");
  if (!n.is_number_integer() || n.get<int>() < 2) r.fail("n", "must be an integer >= 2 (rounds)");
  e.n = n.get<int>();
  const json& abs = r.get("medians");
  if (!abs.is_object()) r.fail("medians", "must be an object {before, after, before_ci, after_ci}");
  Reader ar{abs, file, (at.empty() ? "" : at + ".") + "medians"};
  e.before_median = ar.positive("before");
  e.after_median = ar.positive("after");
  e.before_median_ci = ar.interval("before_ci");
  e.after_median_ci = ar.interval("after_ci");
  const json& host = r.get("host");
  if (!host.is_object()) r.fail("host", "must be an object with a fingerprint");
  e.host_fingerprint = Reader{host, file, (at.empty() ? "" : at + ".") + "host"}.str("fingerprint");
  e.host = host;
  e.host.erase("fingerprint");
  e.commit = r.str("commit");
  if (j.contains("dirty")) {
    if (!j["dirty"].is_boolean()) r.fail("dirty", "must be true or false");
    e.dirty = j["dirty"].get<bool>();
  }
  e.run_id = j.contains("run_id") && j["run_id"].is_string() ? j["run_id"].get<std::string>() : "";
  e.recorded_at = j.contains("recorded_at") && j["recorded_at"].is_string() ? j["recorded_at"].get<std::string>() : "";
  if (j.contains("exact")) {
    if (!j["exact"].is_boolean()) r.fail("exact", "must be true or false");
    e.exact = j["exact"].get<bool>();
  }
  e.fingerprint = optional_text(r, "fingerprint");
  if (j.contains("tolerance")) {
    double t = r.positive("tolerance");
    if (t >= 1) r.fail("tolerance", "is a fraction (0.05 for 5%) and must be below 1");
    e.tolerance = t;
  }
  if (!j.contains("runs")) {
    e.runs = {e.as_run()};  // schema 1: the entry is its only accepted run
    return e;
  }
  const json& runs = j["runs"];
  if (!runs.is_array() || runs.empty()) r.fail("runs", "must be a non-empty array of accepted runs");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string where = (at.empty() ? "" : at + ".") + "runs[" + std::to_string(i) + "]";
    if (!runs[i].is_object()) throw UsageError(file + ": " + where + ": must be an object");
    Reader rr{runs[i], file, where};
    AcceptedRun a;
    a.ratio = rr.positive("ratio");
    a.ci = rr.interval("ci");
    if (a.ratio < a.ci[0] || a.ratio > a.ci[1]) rr.fail("ratio", "lies outside its own interval ci");
    const json& rn = rr.get("n");
    if (!rn.is_number_integer() || rn.get<int>() < 2) rr.fail("n", "must be an integer >= 2 (rounds)");
    a.n = rn.get<int>();
    const json& h = rr.get("host");
    if (!h.is_object()) rr.fail("host", "must be an object {cpu_model, cores, fingerprint}");
    Reader hr{h, file, where + ".host"};
    a.cpu_model = hr.str("cpu_model");
    const json& cores = hr.get("cores");
    if (!cores.is_number_integer() || cores.get<int>() < 0) hr.fail("cores", "must be an integer >= 0 (0: unknown)");
    a.cores = cores.get<int>();
    a.host_fingerprint = h.value("fingerprint", "");
    a.commit = rr.str("commit");
    a.fingerprint = optional_text(rr, "fingerprint");
    a.run_id = runs[i].value("run_id", "");
    a.recorded_at = runs[i].value("recorded_at", "");
    e.runs.push_back(std::move(a));
  }
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
  const std::string f = file.string();
  json doc = json::parse(*text, nullptr, false);
  if (doc.is_discarded()) throw UsageError(f + ": not valid JSON (a baseline.json is described in docs/baseline.md)");
  if (!doc.is_object()) throw UsageError(f + ": (top level): must be an object");
  Reader r{doc, f, ""};
  const json& v = r.get("schema_version");
  if (v != 1 && v != kBaselineSchemaVersion)
    r.fail("schema_version",
           "is " + v.dump() + "; this perfgate reads 1 and " + std::to_string(kBaselineSchemaVersion));
  const json& entries = r.get("entries");
  if (!entries.is_array()) r.fail("entries", "must be an array");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    BaselineEntry e = parse_entry(entries[i], f, "entries[" + std::to_string(i) + "]");
    if (b.find(e.scenario, e.profile, e.metric))
      throw UsageError(f + ": entries[" + std::to_string(i) + "]: a second entry for " + e.key());
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
  j["better"] = e.better;
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
  // key × host class whose runs this call started afresh (no --append): a class's runs are
  // replaced by that class's fresh ones, and other classes keep theirs.
  std::vector<std::string> replaced;
  for (const auto& e : fresh) {
    const std::string slot = e.key() + "\n" + e.host_class();
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
      if (!fresh_start || a.host_class() != e.host_class()) runs.push_back(a);
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
