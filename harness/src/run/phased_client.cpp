#include "run/phased_client.hpp"

#include <chrono>
#include <optional>

#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "measure/cgroup.hpp"
#include "perfgate/sample.hpp"
#include "run/metric_specs.hpp"
#include "run/not_equivalent.hpp"
#include "run/server_memory.hpp"

namespace perfgate::run {

PhasedClient phased_client_of(const nlohmann::json& load_client, const std::string& program, double timeout_s) {
  PhasedClient c;
  c.program = load_client.value("program", program);
  c.phases = load_client.at("phases").get<std::vector<std::string>>();
  for (const auto& a : load_client.value("agreement", nlohmann::json::array()))
    c.agreement.insert(a.get<std::string>());
  c.rss_interval_ms = load_client.value("rss_interval_ms", 20);
  c.timeout_s = load_client.value("timeout_s", timeout_s);
  return c;
}

namespace {

using Clock = std::chrono::steady_clock;

void put(Sample& s, const std::string& name, double v, const std::string& source) {
  s.metrics[name] = measured(name, v, source);
}

// The server's share of one phase: its cgroup's CPU between the phase's ends and the memory
// polled while it ran.
void put_server_figures(Sample& s, const std::string& phase, const measure::CpuUsage& c0,
                        const std::optional<measure::CpuUsage>& c1, const std::string& cpu_source,
                        const PhaseMemory& mem, const std::string& mem_source) {
  if (c1) {
    put(s, phase + "_server_cpu_ms", static_cast<double>(c1->usage_usec - c0.usage_usec) / 1e3, cpu_source);
    put(s, phase + "_server_user_ms", static_cast<double>(c1->user_usec - c0.user_usec) / 1e3, cpu_source);
    put(s, phase + "_server_sys_ms", static_cast<double>(c1->system_usec - c0.system_usec) / 1e3, cpu_source);
  }
  put(s, phase + "_server_rss_mean_mib", mem.rss_mean_mib, "proc-statm");
  put(s, phase + "_server_rss_peak_mib", mem.rss_peak_mib, "proc-statm");
  if (mem.cgroup_peak_mib) {
    put(s, phase + "_server_mem_mean_mib", *mem.cgroup_mean_mib, mem_source);
    put(s, phase + "_server_mem_peak_mib", *mem.cgroup_peak_mib, mem_source);
  }
}

std::string why_failed(const ChildResult& r) {
  return r.timed_out ? "timed out"
         : r.signal  ? "was killed by signal " + std::to_string(r.signal)
                     : "exited with " + std::to_string(r.exit_code);
}

}  // namespace

Sample run_phased_sample(const ServicePlan& plan, const PhasedClient& client, const std::string& variant, int round,
                         bool warmup, int order, const TempDir& run_dir, int serial, const PhaseHook& on_agreement) {
  const fs::path dir = run_dir.subdir("phased-" + std::to_string(serial));
  fs::create_directories(dir / "work");
  const std::string who = plan.scenario + " (" + variant + ") server";
  const ChildSpec spec = serve_spec(plan, variant, dir);
  measure::SampleCgroup cgroup(plan.scenario + "-srv-" + std::to_string(serial));
  const CgroupMemoryFile mem_file = cgroup_memory_file(cgroup);

  Sample s;
  s.round = round;
  s.variant = variant;
  s.warmup = warmup;
  s.order = order;
  const auto t0 = Clock::now();
  ServiceProcess server(spec, cgroup);
  std::optional<MemoryPoller> startup_memory(std::in_place, cgroup, mem_file, client.rss_interval_ms);
  const unsigned port =
      wait_for_listen(server, spec.stdout_path, spec.stderr_path, plan.service.value("ready_timeout_s", 30.0), who);
  put(s, "startup_ms", std::chrono::duration<double, std::milli>(Clock::now() - t0).count(), "monotonic-clock");
  put_server_figures(s, "startup", {}, cgroup.cpu(), cgroup.cpu_source(), startup_memory->finish(), mem_file.source);
  startup_memory.reset();

  Digest agreed;
  const StealSpan span(cpus_of(plan));
  for (const auto& phase : client.phases) {
    check_interrupted();
    const fs::path pdir = dir / ("phase-" + phase);
    fs::create_directories(pdir / "work");
    const SampleFiles files{pdir / "stdout", pdir / "stderr", pdir / "output", {}};
    ChildSpec load;
    load.argv = {client.program, "load",
                 "--phase",      phase,
                 "--variant",    variant,
                 "--profile",    plan.profile,
                 "--fixture",    plan.fixture,
                 "--params",     plan.params.dump(),
                 "--target",     "127.0.0.1:" + std::to_string(port),
                 "--round",      std::to_string(round)};
    load.cwd = pdir / "work";
    load.stdout_path = files.stdout_path;
    load.stderr_path = files.stderr_path;
    load.cpus = plan.load_cpus;
    load.timeout_s = client.timeout_s;
    load.env = {{"PERFGATE_OUTPUT", files.output_path.string()},
                {"PERFGATE_WORKDIR", (pdir / "work").string()},
                {"TMPDIR", (pdir / "work").string()},
                {"PERFGATE_PHASE", phase},
                {"PERFGATE_VARIANT", variant}};
    measure::SampleCgroup load_cgroup(plan.scenario + "-load-" + std::to_string(serial) + "-" + phase);
    const auto c0 = cgroup.cpu().value_or(measure::CpuUsage{});
    MemoryPoller memory(cgroup, mem_file, client.rss_interval_ms);
    const ChildResult r = run_child(load, load_cgroup);
    const PhaseMemory mem = memory.finish();
    const auto c1 = cgroup.cpu();
    const std::string what = plan.scenario + " (" + variant + ", round " + std::to_string(round) + ") phase " + phase;
    if (!server.running())
      throw RunError(what + ": the server exited during the phase; its stderr:\n" + tail_of_file(spec.stderr_path));
    if (r.timed_out || r.signal || r.exit_code != 0)
      throw RunError(what + ": " + client.program + " load " + why_failed(r) + "; its stderr:\n" +
                     tail_of_file(files.stderr_path));
    Sample report;
    report.round = round;
    report.variant = variant;
    report.warmup = warmup;
    parse_program_report(report, last_nonempty_line(files.stdout_path), client.program + " load --phase " + phase);
    if (!report.divergence.empty())
      throw EquivalenceFailure("equivalence gate failed: phase " + phase + ": " + variant + " (round " +
                               std::to_string(round) + ") reported not equivalent: " + report.divergence);
    if (client.agreement.count(phase)) {
      if (on_agreement) on_agreement(phase, report, files);
      agreed.field(phase);
      agreed.field(report.digest);
    }
    for (const auto& [name, m] : report.metrics) s.metrics[phase + "_" + name] = m;
    for (const auto& [name, v] : report.series.items()) s.series[phase + "_" + name] = v;
    s.extra["phases"][phase] = report.extra;
    s.extra["phase_digests"][phase] = report.digest;
    put(s, phase + "_wall_ms", r.wall_ms, "monotonic-clock");
    if (r.cgroup_cpu)
      put(s, phase + "_client_cpu_ms", static_cast<double>(r.cgroup_cpu->usage_usec) / 1e3, r.cpu_source);
    put_server_figures(s, phase, c0, c1, cgroup.cpu_source(), mem, mem_file.source);
    std::error_code ec;
    fs::remove_all(pdir, ec);
  }
  span.record(s);

  // A server's orderly stop may have a big state to drop (the Dovecot reference removes a
  // 100,000-file Maildir, seconds on a loaded host): SIGKILL only after 30 s, not 5.
  const int rc = server.stop(30);
  // A server that found its own answers wrong says so on its last stdout line, at exit.
  const auto last = nlohmann::json::parse(last_nonempty_line(spec.stdout_path), nullptr, false);
  if (auto reason = reported_divergence(last))
    throw EquivalenceFailure("equivalence gate failed: " + who + " (round " + std::to_string(round) +
                             ") reported not equivalent: " + *reason);
  if (rc != 0)
    throw RunError(who + " exited with " + std::to_string(rc) + " on SIGTERM; its stderr:\n" +
                   tail_of_file(spec.stderr_path));
  if (auto peak = cgroup.memory_peak_bytes())
    put(s, "server_mem_peak_mib", static_cast<double>(*peak) / (1024.0 * 1024.0), cgroup.memory_source());
  s.digest = agreed.hex();
  s.extra["server_sampling"] = {{"cpu", cgroup.cpu_source()},
                                {"rss", "proc-statm: resident pages of every process in the server's cgroup"},
                                {"memory", mem_file.source},
                                {"interval_ms", client.rss_interval_ms}};
  std::error_code ec;
  fs::remove_all(dir, ec);
  return s;
}

}  // namespace perfgate::run
