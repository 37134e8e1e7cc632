// One sample of a service scenario that ships its own load client
// (`service.load_client` in the manifest, docs/scenario-contract.md "Phased load clients"):
// start `PROGRAM serve` in its own cgroup on the server CPUs, then run
// `PROGRAM load --phase NAME ...` once per phase, in order, on the other CPUs, and sample the
// server between phases — CPU from its cgroup's cpu.stat, memory polled while the phase runs —
// so each phase's figures hold that phase only. The harness's own phase `startup` runs from
// the server's creation to its {"listen": ...} line (loading and seeding its state).
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "run/batch_runner.hpp"
#include "run/service_sampler.hpp"

namespace perfgate::run {

struct PhasedClient {
  std::string program;              // the load program (default: the scenario's)
  std::vector<std::string> phases;  // in order
  std::set<std::string> agreement;  // phases whose result is gated across variants
  int rss_interval_ms = 20;
  double timeout_s = 600;  // per phase
};

// From the manifest's validated `service.load_client`; `program` and `timeout_s` are the
// defaults (the scenario's program, the profile's sample timeout).
PhasedClient phased_client_of(const nlohmann::json& load_client, const std::string& program, double timeout_s);

// A phase of an agreement-gated phase: the load program's report (digest, unprefixed metrics,
// extra, divergence) as a Sample of the variant and round, with its files still on disk.
// The hook may throw (an equivalence failure).
using PhaseHook = std::function<void(const std::string& phase, const Sample& phase_report, const SampleFiles& files)>;

// Runs one sample: one server start and every phase. Metrics are `<phase>_<name>` (the load
// program's) and `<phase>_server_cpu_ms`, `_server_user_ms`, `_server_sys_ms`,
// `_server_rss_mean_mib`, `_server_rss_peak_mib`, `_server_mem_mean_mib`,
// `_server_mem_peak_mib`, `_wall_ms`, `_client_cpu_ms` (the harness's). Throws
// EquivalenceFailure when a phase or the server reported "equivalent": false, RunError when a
// program failed.
Sample run_phased_sample(const ServicePlan& plan, const PhasedClient& client, const std::string& variant, int round,
                         bool warmup, int order, const TempDir& run_dir, int serial, const PhaseHook& on_agreement);

}  // namespace perfgate::run
