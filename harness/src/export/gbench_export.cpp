#include "export/gbench_export.hpp"

#include <algorithm>
#include <utility>

#include "common/files.hpp"

namespace perfgate::exports {

using json = nlohmann::json;

namespace {

// One exported benchmark: its real and CPU times per measured round, their summaries (the
// run's own, computed once by the stats layer) and counters per round.
struct Exported {
  std::string name, time_unit;
  std::vector<double> real, cpu;
  const stats::Summary *real_summary = nullptr, *cpu_summary = nullptr;
  std::vector<std::pair<std::string, std::vector<double>>> counters;
};

void emit(json& benchmarks, const Exported& e, int family) {
  const std::size_t n = std::min(e.real.size(), e.cpu.size());
  for (std::size_t i = 0; i < n; ++i) {
    json b = {{"name", e.name},
              {"family_index", family},
              {"per_family_instance_index", 0},
              {"run_name", e.name},
              {"run_type", "iteration"},
              {"repetitions", n},
              {"repetition_index", i},
              {"threads", 1},
              {"iterations", 1},
              {"real_time", e.real[i]},
              {"cpu_time", e.cpu[i]},
              {"time_unit", e.time_unit}};
    for (const auto& [counter, values] : e.counters)
      if (i < values.size()) b[counter] = values[i];
    benchmarks.push_back(b);
  }
  if (!e.real_summary || !e.cpu_summary) return;
  const stats::Summary &ws = *e.real_summary, &cs = *e.cpu_summary;
  const std::pair<const char*, std::pair<double, double>> aggs[] = {
      {"mean", {ws.mean, cs.mean}}, {"median", {ws.median, cs.median}}, {"stddev", {ws.stddev, cs.stddev}}};
  for (const auto& [aggregate, values] : aggs)
    benchmarks.push_back({{"name", e.name + "_" + aggregate},
                          {"family_index", family},
                          {"per_family_instance_index", 0},
                          {"run_name", e.name},
                          {"run_type", "aggregate"},
                          {"repetitions", n},
                          {"threads", 1},
                          {"aggregate_name", aggregate},
                          {"aggregate_unit", "time"},
                          {"iterations", n},
                          {"real_time", values.first},
                          {"cpu_time", values.second},
                          {"time_unit", e.time_unit}});
}

const stats::Summary* summary_of(const model::ScenarioResult& s, const std::string& variant,
                                 const std::string& metric) {
  const auto v = s.summaries.find(variant);
  if (v == s.summaries.end()) return nullptr;
  const auto m = v->second.find(metric);
  return m == v->second.end() ? nullptr : &m->second.s;
}

// A Google Benchmark scenario: each benchmark as itself, "NAME/VARIANT" per variant (the gbench
// kind's X/before and X/after keep their own names), its times in ns and its counters.
void export_gbench_scenario(json& benchmarks, int& family, const model::ScenarioResult& s) {
  std::vector<std::string> names;  // the benchmarks, from their cpu_time metrics
  const std::string suffix = ":cpu_time";
  for (const auto& [variant, metrics] : s.summaries)
    for (const auto& [metric, _] : metrics)
      if (metric.size() > suffix.size() && metric.compare(metric.size() - suffix.size(), suffix.size(), suffix) == 0) {
        const std::string name = metric.substr(0, metric.size() - suffix.size());
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
      }
  for (const auto& name : names) {
    for (const auto& variant : s.variant_names) {
      Exported e;
      e.name = name + "/" + variant;
      e.time_unit = "ns";
      e.real = s.measured_values(variant, name + ":real_time");
      e.cpu = s.measured_values(variant, name + ":cpu_time");
      if (e.cpu.empty()) continue;
      e.real_summary = summary_of(s, variant, name + ":real_time");
      e.cpu_summary = summary_of(s, variant, name + ":cpu_time");
      const auto v = s.summaries.find(variant);
      for (const auto& [metric, _] : v->second)
        if (metric.rfind(name + ":", 0) == 0 && metric != name + ":real_time" && metric != name + ":cpu_time")
          e.counters.emplace_back(metric.substr(name.size() + 1), s.measured_values(variant, metric));
      emit(benchmarks, e, family);
    }
    ++family;
  }
}

}  // namespace

json gbench_json(const model::ResultsDoc& results) {
  const auto& host = results.host;
  const auto& run = results.run;
  json context = {{"date", run.started_at},
                  {"host_name", host.hostname},
                  {"executable", "perfgate"},
                  {"num_cpus", host.cores},
                  {"mhz_per_cpu", 0},
                  {"cpu_scaling_enabled", false},
                  {"caches", json::array()},
                  {"load_avg", host.load_before},
                  {"library_build_type", "release"},
                  {"perfgate_run_id", run.id},
                  {"perfgate_commit", run.commit},
                  {"perfgate_host_fingerprint", host.fingerprint}};
  json benchmarks = json::array();
  int family = 0;
  for (const auto& s : results.scenarios) {
    if (s.kind == catalog::ScenarioKind::Gbench) {
      export_gbench_scenario(benchmarks, family, s);
      continue;
    }
    const std::string& primary = s.primary_metric;
    for (const auto& variant : s.variant_names) {
      Exported e;
      e.name = s.name + "/" + s.profile + "/" + variant;
      e.time_unit = "ms";
      e.real = s.measured_values(variant, "wall_ms");
      e.cpu = s.measured_values(variant, "cpu_ms");
      if (std::min(e.real.size(), e.cpu.size()) == 0) continue;
      if (primary != "wall_ms" && primary != "cpu_ms")
        e.counters.emplace_back(primary, s.measured_values(variant, primary));
      e.real_summary = summary_of(s, variant, "wall_ms");
      e.cpu_summary = summary_of(s, variant, "cpu_ms");
      emit(benchmarks, e, family++);
    }
  }
  return {{"context", context}, {"benchmarks", benchmarks}};
}

}  // namespace perfgate::exports
