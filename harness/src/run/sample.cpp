#include "run/sample.hpp"

#include "common/errors.hpp"

namespace perfgate::run {

json to_json(const Sample& s) {
  json metrics = json::object();
  for (const auto& [name, m] : s.metrics)
    metrics[name] = {{"value", m.value}, {"unit", m.unit}, {"better", m.better}, {"source", m.source}};
  return {{"round", s.round},         {"variant", s.variant}, {"warmup", s.warmup}, {"order", s.order},
          {"exit_code", s.exit_code}, {"digest", s.digest},   {"metrics", metrics}};
}

namespace {
double ms(const timeval& tv) { return tv.tv_sec * 1e3 + tv.tv_usec / 1e3; }
}  // namespace

void add_outside_metrics(Sample& s, const ChildResult& r) {
  auto put = [&](const std::string& name, double v, const std::string& unit, const std::string& source) {
    s.metrics[name] = {v, unit, "lower", source};
  };
  put("wall_ms", r.wall_ms, "ms", "monotonic-clock");
  if (r.cgroup_cpu) {
    put("cpu_ms", r.cgroup_cpu->usage_usec / 1e3, "ms", r.cpu_source);
    put("user_ms", r.cgroup_cpu->user_usec / 1e3, "ms", r.cpu_source);
    put("sys_ms", r.cgroup_cpu->system_usec / 1e3, "ms", r.cpu_source);
  } else {
    put("cpu_ms", ms(r.usage.ru_utime) + ms(r.usage.ru_stime), "ms", "rusage");
    put("user_ms", ms(r.usage.ru_utime), "ms", "rusage");
    put("sys_ms", ms(r.usage.ru_stime), "ms", "rusage");
  }
  if (r.cgroup_memory_peak)
    put("peak_rss_kib", static_cast<double>(*r.cgroup_memory_peak) / 1024.0, "KiB", r.memory_source);
  else
    put("peak_rss_kib", static_cast<double>(r.usage.ru_maxrss), "KiB", "rusage");
  put("maxrss_kib", static_cast<double>(r.usage.ru_maxrss), "KiB", "rusage");
  if (r.io) {
    put("syscr", static_cast<double>(r.io->syscr), "count", "proc-io");
    put("syscw", static_cast<double>(r.io->syscw), "count", "proc-io");
    put("syscalls", static_cast<double>(r.io->syscr + r.io->syscw), "count", "proc-io");
    put("rchar_kib", static_cast<double>(r.io->rchar) / 1024.0, "KiB", "proc-io");
    put("wchar_kib", static_cast<double>(r.io->wchar) / 1024.0, "KiB", "proc-io");
  }
  put("ctx_voluntary", static_cast<double>(r.usage.ru_nvcsw), "count", "rusage");
  put("ctx_involuntary", static_cast<double>(r.usage.ru_nivcsw), "count", "rusage");
}

void parse_program_report(Sample& s, const std::string& line, const std::string& program) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::parse_error&) {
    throw RunError(program + " did not print its JSON report as the last stdout line (got: '" + line.substr(0, 200) +
                   "')");
  }
  if (!j.is_object() || !j.contains("metrics") || !j["metrics"].is_object())
    throw RunError(program + ": the last stdout line has no \"metrics\" object (see docs/scenario-contract.md)");
  s.digest = j.value("digest", "");
  for (const auto& [name, m] : j["metrics"].items()) {
    if (!m.is_object() || !m.contains("value") || !m["value"].is_number())
      throw RunError(program + ": metrics." + name + ".value must be a number");
    s.metrics[name] = {m["value"].get<double>(), m.value("unit", ""), m.value("better", "lower"), "program"};
  }
  if (j.contains("series") && j["series"].is_object()) s.series = j["series"];
  if (j.contains("extra") && j["extra"].is_object()) s.extra = j["extra"];
}

}  // namespace perfgate::run
