#include "run/service_sampler.hpp"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <fstream>
#include <thread>

#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "load/http_load.hpp"
#include "load/probes.hpp"
#include "measure/cgroup.hpp"
#include "measure/proc_io.hpp"
#include "perfgate/endpoint.hpp"
#include "run/metric_specs.hpp"
#include "run/not_equivalent.hpp"

namespace perfgate::run {
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;
using json = nlohmann::json;

std::string http_get(unsigned port, const std::string& path, double timeout_s) {
  try {
    boost::asio::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(std::chrono::milliseconds(static_cast<int>(timeout_s * 1000)));
    stream.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)));
    http::request<http::empty_body> req{http::verb::get, path, 11};
    req.set(http::field::host, "127.0.0.1");
    http::write(stream, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(stream, buf, res);
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    if (res.result_int() != 200) throw RunError("GET " + path + " answered " + std::to_string(res.result_int()));
    return res.body();
  } catch (const boost::system::system_error& e) {
    throw RunError("GET 127.0.0.1:" + std::to_string(port) + path + ": " + e.what());
  }
}

unsigned wait_for_listen(ServiceProcess& server, const fs::path& out, const fs::path& err, double timeout_s,
                         const std::string& who) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int>(timeout_s * 1000));
  while (std::chrono::steady_clock::now() < deadline) {
    check_interrupted();
    std::ifstream in(out);
    std::string line;
    while (std::getline(in, line)) {
      if (line.find("\"listen\"") == std::string::npos) continue;
      auto j = json::parse(line, nullptr, false);
      if (j.is_object() && j.contains("listen")) {
        try {
          return perfgate::parse_endpoint(j["listen"].get<std::string>()).port;
        } catch (const std::exception& e) {
          throw RunError(who + " announced " + line + ": " + e.what());
        }
      }
    }
    if (!server.running()) throw RunError(who + " exited before it listened; its stderr:\n" + tail_of_file(err));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw RunError(who + " did not print {\"listen\": ...} within " + std::to_string(static_cast<int>(timeout_s)) + " s");
}

namespace {

// service.probes: a file relative to the fixture, or the probe lines.
std::vector<load::Probe> probes_of(const ServicePlan& plan) {
  if (!plan.service.contains("probes")) return {};
  const json& p = plan.service["probes"];
  try {
    return load::parse_probes(p.is_string()
                                  ? load::read_probe_file((fs::path(plan.fixture) / p.get<std::string>()).string())
                                  : p.get<std::vector<std::string>>());
  } catch (const std::exception& e) {
    throw UsageError(plan.scenario + ": service.probes: " + e.what());
  }
}

double cpu_ms_since(const std::optional<measure::CpuUsage>& from, const std::optional<measure::CpuUsage>& to) {
  return (to->usage_usec - (from ? from->usage_usec : 0)) / 1e3;
}

json stats_of(unsigned port, const std::string& path) {
  if (path.empty()) return json::object();
  auto j = json::parse(http_get(port, path), nullptr, false);
  if (!j.is_object()) throw RunError("the stats endpoint " + path + " did not answer a JSON object");
  return j;
}

}  // namespace

std::vector<int> cpus_of(const ServicePlan& plan) {
  std::vector<int> cpus = plan.server_cpus;
  cpus.insert(cpus.end(), plan.load_cpus.begin(), plan.load_cpus.end());
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

ChildSpec serve_spec(const ServicePlan& plan, const std::string& variant, const fs::path& dir) {
  ChildSpec spec;
  spec.argv = {plan.program, "serve",    "--variant",        variant,    "--profile",  plan.profile, "--fixture",
               plan.fixture, "--params", plan.params.dump(), "--listen", "127.0.0.1:0"};
  if (auto it = plan.args.find(variant); it != plan.args.end())
    spec.argv.insert(spec.argv.end(), it->second.begin(), it->second.end());
  spec.cwd = dir / "work";
  spec.stdout_path = dir / "stdout";
  spec.stderr_path = dir / "stderr";
  spec.cpus = plan.server_cpus;
  spec.env = {{"PERFGATE_WORKDIR", (dir / "work").string()}, {"TMPDIR", (dir / "work").string()}};
  return spec;
}

Sample run_service_sample(const ServicePlan& plan, const std::string& variant, int round, bool warmup, int order,
                          const TempDir& run_dir, int serial, load::ResponseBook& book) {
  const fs::path dir = run_dir.subdir("service-" + std::to_string(serial));
  fs::create_directories(dir / "work");
  const std::string who = plan.scenario + " (" + variant + ") server";
  const ChildSpec spec = serve_spec(plan, variant, dir);
  const std::vector<load::Probe> probes = probes_of(plan);
  measure::SampleCgroup cgroup(plan.scenario + "-srv-" + std::to_string(serial));
  ServiceProcess server(spec, cgroup);
  const unsigned port =
      wait_for_listen(server, spec.stdout_path, spec.stderr_path, plan.service.value("ready_timeout_s", 30.0), who);
  // Start-up, spawn to the listen line: the cgroup is the server's alone since its spawn, and
  // /proc/PID/io counts the reads of all its threads so far.
  const auto cpu_listen = cgroup.cpu();
  const auto io_listen = measure::read_proc_io(server.pid());

  const std::string wname = plan.workload_of.count(variant) ? plan.workload_of.at(variant) : "";
  if (wname.empty() || !plan.workloads.contains(wname))
    throw UsageError(plan.scenario + ": variant " + variant + " has no workload");
  auto set = load::RequestSet::from_workload(plan.workloads[wname], plan.fixture);
  load::LoadOptions o;
  o.port = static_cast<std::uint16_t>(port);
  o.connections = plan.load.value("connections", 32);
  o.timeout_s = plan.load.value("timeout_s", 5.0);
  o.accept_gzip = plan.load.value("accept_gzip", false);
  o.rate_rps = plan.load.value("rate_rps", 0.0);
  o.cpus = plan.load_cpus;
  o.seed = plan.seed + static_cast<std::uint64_t>(round);
  o.keep_latencies = true;
  o.stop = [] { return interrupted(); };
  auto run = [&](double seconds, const char* phase) {
    o.duration_s = seconds;
    book.begin(variant, round, phase);
    o.book = &book;
    load::LoadResult r;
    try {
      r = load::run_load(o, set);
    } catch (const std::exception& e) {
      throw RunError(who + ": the load generator failed: " + std::string(e.what()) + "; server stderr:\n" +
                     tail_of_file(spec.stderr_path));
    }
    check_interrupted();  // a stopped run's figures are partial: unwind, do not report them
    return r;
  };
  // Warm-up phase: caches fill, the page cache warms; nothing of it is measured (its CPU is
  // reported beside the window's, warmup_server_cpu_ms, so work moved there can be gated).
  const double warmup_s = plan.load.value("warmup_s", 0.0);
  if (const double w = warmup_s; w > 0) {
    const auto measured_seed = o.seed;
    o.seed = measured_seed ^ 0x5EED5EED5EEDULL;  // the window must not replay the warm-up's requests
    run(w, "warm-up");
    o.seed = measured_seed;
  }
  const std::string stats_path = plan.service.value("stats_path", "");
  json s0 = stats_of(port, stats_path);
  auto cpu0 = cgroup.cpu();
  check_interrupted();
  const StealSpan span(cpus_of(plan));
  load::LoadResult r = run(plan.load.value("duration_s", 5.0), "window");
  auto cpu1 = cgroup.cpu();
  Sample s;
  span.record(s);
  json s1 = stats_of(port, stats_path);
  // Untimed probes (service.probes), after the window and its counters: booked per path like
  // every other answer, so BEFORE and AFTER must answer them alike.
  if (!probes.empty()) {
    book.begin(variant, round, "probes");
    try {
      load::ask_probes(static_cast<std::uint16_t>(port), probes, book, o.timeout_s);
    } catch (const std::exception& e) {
      throw RunError(who + ": " + e.what() + "; server stderr:\n" + tail_of_file(spec.stderr_path));
    }
  }
  const int rc = server.stop();
  // A server that found its own answers wrong says so on its last stdout line, at exit: that
  // is exit 3 whatever its exit code.
  const auto last = nlohmann::json::parse(last_nonempty_line(spec.stdout_path), nullptr, false);
  if (auto reason = reported_divergence(last)) {
    const std::string msg = "equivalence gate failed: " + who + " (round " + std::to_string(round) +
                            ") reported not equivalent: " + *reason;
    book.report_divergence(msg);
    throw EquivalenceFailure(msg);
  }
  if (rc != 0)
    throw RunError(who + " exited with " + std::to_string(rc) + " on SIGTERM; its stderr:\n" +
                   tail_of_file(spec.stderr_path));
  if (book.failure()) throw EquivalenceFailure(*book.failure());

  s.round = round;
  s.variant = variant;
  s.warmup = warmup;
  s.order = order;
  auto put = [&](const std::string& n, double v, const std::string& src) { s.metrics[n] = measured(n, v, src); };
  put("rps", r.rps, "load-generator");
  put("latency_p50_ms", r.latency_ms(0.5), "load-generator");
  put("latency_p99_ms", r.latency_ms(0.99), "load-generator");
  put("errors", static_cast<double>(r.errors + r.timeouts), "load-generator");
  put("responses", static_cast<double>(r.responses), "load-generator");
  if (cpu0 && cpu1) {
    const double cpu_ms = (cpu1->usage_usec - cpu0->usage_usec) / 1e3;
    put("server_cpu_ms", cpu_ms, "server-cgroup");
    if (r.responses) put("server_cpu_us_per_request", cpu_ms * 1e3 / static_cast<double>(r.responses), "server-cgroup");
  }
  // Spawn to the listen line, and the warm-up: CPU no window pays (work.deferred threats).
  if (cpu_listen) put("startup_server_cpu_ms", cpu_ms_since(std::nullopt, cpu_listen), "server-cgroup");
  if (cpu_listen && cpu0 && warmup_s > 0) put("warmup_server_cpu_ms", cpu_ms_since(cpu_listen, cpu0), "server-cgroup");
  if (io_listen) {
    put("startup_server_syscr", static_cast<double>(io_listen->syscr), "proc-io");
    put("startup_server_rchar_kib", static_cast<double>(io_listen->rchar) / 1024.0, "proc-io");
  }
  for (const auto& [k, v] : s1.items())
    if (v.is_number() && s0.contains(k) && s0[k].is_number())
      s.metrics["server_" + k] = {v.get<double>() - s0[k].get<double>(), "count", Better::Higher, "server-stats"};
  if (s1.contains("hits") && s1.contains("misses")) {
    const double h = s1["hits"].get<double>() - s0["hits"].get<double>();
    const double m = s1["misses"].get<double>() - s0["misses"].get<double>();
    if (h + m > 0) put("hit_ratio", h / (h + m), "server-stats");
  }
  s.digest = r.digest();
  s.extra = {
      {"inconsistent_paths", r.inconsistent_paths}, {"workload", r.label}, {"status", r.to_json(false)["status"]}};
  std::vector<double> lat_ms;
  lat_ms.reserve(std::min<std::size_t>(r.latencies_us.size(), 20000));
  const std::size_t step = std::max<std::size_t>(1, r.latencies_us.size() / 20000);
  for (std::size_t i = 0; i < r.latencies_us.size(); i += step) lat_ms.push_back(r.latencies_us[i] / 1e3);
  s.series = {{"latency_ms", {{"unit", "ms"}, {"values", lat_ms}}}};
  std::error_code ec;
  fs::remove_all(dir, ec);
  return s;
}

}  // namespace perfgate::run
