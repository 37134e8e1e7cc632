// One sample of a service scenario: start `PROGRAM serve` pinned to the server CPUs in its
// own cgroup, wait for its {"listen": ...} line, warm it up with the load generator, then
// measure one window — server CPU (cgroup delta), the stats endpoint's counter deltas and the
// load generator's figures — and stop it. Warm-up and start-up never enter a measured window.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/files.hpp"
#include "load/response_book.hpp"
#include "run/batch_runner.hpp"

namespace perfgate::run {

struct ServicePlan {
  std::string scenario, program, profile, fixture;
  nlohmann::json params, load, service, workloads;
  std::vector<int> server_cpus, load_cpus;
  std::map<std::string, std::vector<std::string>> args;  // variant → serve arguments
  std::map<std::string, std::string> workload_of;        // variant → workload name
  std::uint64_t seed = 1;
};

// The CPUs a service sample uses: the server's and the load generator's, each once.
std::vector<int> cpus_of(const ServicePlan& plan);

// Runs one sample. Every answer (warm-up and window) is checked in `book` as it arrives (the
// response gate: gate::ResponseGate owns the book across the scenario's samples); throws
// EquivalenceFailure (exit 3) when an answer differed or the server's last stdout line said
// "equivalent": false.
Sample run_service_sample(const ServicePlan& plan, const std::string& variant, int round, bool warmup, int order,
                          const TempDir& run_dir, int serial, load::ResponseBook& book);

// The server of one sample: `PROGRAM serve --variant V ... --listen 127.0.0.1:0 <variant's
// args>` on the server CPUs, its working directory, stdout and stderr under `dir`.
ChildSpec serve_spec(const ServicePlan& plan, const std::string& variant, const fs::path& dir);

// Waits for the server's {"listen": "HOST:PORT"} stdout line (in the file `out`) and returns
// the port; throws RunError when it exits first (quoting `err`) or takes over timeout_s.
unsigned wait_for_listen(ServiceProcess& server, const fs::path& out, const fs::path& err, double timeout_s,
                         const std::string& who);

// GET path on 127.0.0.1:port, returning the body; throws RunError.
std::string http_get(unsigned port, const std::string& path, double timeout_s = 5);

}  // namespace perfgate::run
