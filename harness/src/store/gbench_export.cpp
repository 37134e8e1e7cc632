#include "store/gbench_export.hpp"

#include <algorithm>
#include <cmath>

#include "common/files.hpp"
#include "perfgate/percentile.hpp"

namespace perfgate::store {

using json = nlohmann::json;

namespace {

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return perfgate::percentile_sorted(v, 0.5);
}

double stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
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
      wall.resize(n);
      cpu.resize(n);
      struct Agg {
        const char* name;
        double (*f)(const std::vector<double>&);
      };
      static const Agg aggs[] = {{"mean", [](const std::vector<double>& v) { return mean(v); }},
                                 {"median", [](const std::vector<double>& v) { return median(v); }},
                                 {"stddev", [](const std::vector<double>& v) { return stddev(v); }}};
      for (const auto& a : aggs)
        benchmarks.push_back({{"name", name + "_" + a.name},
                              {"family_index", family},
                              {"per_family_instance_index", 0},
                              {"run_name", name},
                              {"run_type", "aggregate"},
                              {"repetitions", n},
                              {"threads", 1},
                              {"aggregate_name", a.name},
                              {"aggregate_unit", "time"},
                              {"iterations", n},
                              {"real_time", a.f(wall)},
                              {"cpu_time", a.f(cpu)},
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
