#include "catalog/gbench_names.hpp"

namespace perfgate::catalog {

namespace {

bool is_option_part(const std::string& part) {
  for (const char* p : {"repeats:", "min_time:", "min_warmup_time:", "iterations:", "threads:"})
    if (part.rfind(p, 0) == 0) return true;
  return part == "real_time" || part == "process_time" || part == "manual_time";
}

}  // namespace

std::pair<std::string, std::string> split_gbench_pair_name(std::string name) {
  while (true) {
    auto slash = name.rfind('/');
    if (slash == std::string::npos || !is_option_part(name.substr(slash + 1))) break;
    name.resize(slash);
  }
  auto slash = name.rfind('/');
  if (slash == std::string::npos) return {"", ""};
  std::string side = name.substr(slash + 1);
  if (side != "before" && side != "after") return {"", ""};
  return {name.substr(0, slash), side};
}

std::string gbench_time_metric(const std::string& benchmark) {
  std::string name = benchmark;
  while (true) {
    const auto slash = name.rfind('/');
    if (slash == std::string::npos) return "cpu_time";
    const std::string part = name.substr(slash + 1);
    if (part == "real_time" || part == "manual_time") return "real_time";
    if (!is_option_part(part)) return "cpu_time";
    name.resize(slash);
  }
}

std::string gbench_gated_metric(const std::string& benchmark) {
  return benchmark + ":" + gbench_time_metric(benchmark);
}

std::string gbench_benchmark_of(const std::string& metric) { return metric.substr(0, metric.rfind(':')); }

}  // namespace perfgate::catalog
