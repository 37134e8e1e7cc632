#include "store/gbench_export.hpp"

#include <algorithm>
#include <cmath>

#include "common/files.hpp"
#include "store/results_input.hpp"

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
  const std::size_t k = v.size();
  return k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

double stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

}  // namespace

json gbench_json(const json& results) {
  const json& host = results["host"];
  const json& run = results["run"];
  json load = host.value("load_before", json::array());
  json context = {{"date", run.value("started_at", "")},
                  {"host_name", host.value("hostname", "")},
                  {"executable", "perfgate"},
                  {"num_cpus", host.value("cores", 0)},
                  {"mhz_per_cpu", 0},
                  {"cpu_scaling_enabled", false},
                  {"caches", json::array()},
                  {"load_avg", load.is_array() ? load : json::array()},
                  {"library_build_type", "release"},
                  {"perfgate_run_id", run.value("id", "")},
                  {"perfgate_commit", run.contains("git") ? run["git"].value("commit", "") : ""},
                  {"perfgate_host_fingerprint", host.value("fingerprint", "")}};
  json benchmarks = json::array();
  int family = 0;
  for (const auto& s : results["scenarios"]) {
    const std::string primary = s.value("primary_metric", "");
    std::vector<std::string> variants;
    for (const auto& v : s.value("variants", json::array())) variants.push_back(v.value("name", ""));
    for (const auto& variant : variants) {
      const std::string name = s.value("name", "") + "/" + s.value("profile", "") + "/" + variant;
      auto wall = measured_values(s, variant, "wall_ms");
      auto cpu = measured_values(s, variant, "cpu_ms");
      auto gated = measured_values(s, variant, primary);
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

void write_gbench(const std::filesystem::path& path, const json& results) {
  write_file_atomic(path, gbench_json(results).dump(2) + "\n");
}

}  // namespace perfgate::store
