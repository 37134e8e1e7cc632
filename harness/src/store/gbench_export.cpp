#include "store/gbench_export.hpp"

#include <algorithm>
#include <utility>

#include "common/files.hpp"

namespace perfgate::store {

using json = nlohmann::json;

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
    const std::string& primary = s.primary_metric;
    for (const auto& variant : s.variant_names) {
      const std::string name = s.name + "/" + s.profile + "/" + variant;
      auto wall = s.measured_values(variant, "wall_ms");
      auto cpu = s.measured_values(variant, "cpu_ms");
      auto gated = s.measured_values(variant, primary);
      const std::size_t n = std::min(wall.size(), cpu.size());
      if (n == 0) continue;
      for (std::size_t i = 0; i < n; ++i) {
        json b = {{"name", name},
                  {"family_index", family},
                  {"per_family_instance_index", 0},
                  {"run_name", name},
                  {"run_type", "iteration"},
                  {"repetitions", n},
                  {"repetition_index", i},
                  {"threads", 1},
                  {"iterations", 1},
                  {"real_time", wall[i]},
                  {"cpu_time", cpu[i]},
                  {"time_unit", "ms"}};
        if (i < gated.size() && primary != "wall_ms" && primary != "cpu_ms") b[primary] = gated[i];
        benchmarks.push_back(b);
      }
      // The aggregates are the run's own summaries (computed once, by the stats layer).
      const auto summary = s.summaries.find(variant);
      if (summary == s.summaries.end() || !summary->second.count("wall_ms") || !summary->second.count("cpu_ms")) {
        ++family;
        continue;
      }
      const stats::Summary &ws = summary->second.at("wall_ms").s, &cs = summary->second.at("cpu_ms").s;
      const std::pair<const char*, std::pair<double, double>> aggs[] = {
          {"mean", {ws.mean, cs.mean}}, {"median", {ws.median, cs.median}}, {"stddev", {ws.stddev, cs.stddev}}};
      for (const auto& [aggregate, values] : aggs)
        benchmarks.push_back({{"name", name + "_" + aggregate},
                              {"family_index", family},
                              {"per_family_instance_index", 0},
                              {"run_name", name},
                              {"run_type", "aggregate"},
                              {"repetitions", n},
                              {"threads", 1},
                              {"aggregate_name", aggregate},
                              {"aggregate_unit", "time"},
                              {"iterations", n},
                              {"real_time", values.first},
                              {"cpu_time", values.second},
                              {"time_unit", "ms"}});
      ++family;
    }
  }
  return {{"context", context}, {"benchmarks", benchmarks}};
}

void write_gbench(const std::filesystem::path& path, const model::ResultsDoc& results) {
  write_file_atomic(path, gbench_json(results).dump(2) + "\n");
}

}  // namespace perfgate::store
