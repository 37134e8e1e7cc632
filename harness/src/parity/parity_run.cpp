#include "parity/parity_run.hpp"

#include <memory>
#include <optional>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "common/time_stamp.hpp"
#include "measure/host.hpp"
#include "parity/agreement_pass.hpp"
#include "parity/fingerprint.hpp"
#include "parity/served_server.hpp"
#include "stats/paired.hpp"
#include "stats/summary.hpp"

namespace perfgate::parity {

using nlohmann::json;

namespace {

std::vector<double> metric_of(const std::vector<Window>& ws, bool cpu) {
  std::vector<double> out;
  for (const auto& w : ws) {
    if (cpu && w.cpu_us_per_request) out.push_back(*w.cpu_us_per_request);
    if (!cpu && w.rps > 0) out.push_back(1e6 / w.rps);
  }
  return out;
}

// The refusal, when there is one: what the agreement pass found that makes timing meaningless.
std::string refusal(const Agreement& ag, double max_dropped) {
  const bool over = ag.dropped_share() > max_dropped, nothing = ag.leaves_agreeing == 0;
  if (!over && !nothing) return "";
  const std::string why =
      over ? std::to_string(ag.dropped()) + " of " + std::to_string(ag.requests.size()) +
                 " requests disagree, over the --max-dropped share " + std::to_string(max_dropped)
           : "compared nothing: the agreeing requests held no field to compare (an empty agreement is not agreement)";
  for (const auto& r : ag.requests)
    if (!r.hollow.empty()) return "not doing the work: " + why + "; e.g. " + r.path + ": " + r.hollow.front();
  for (const auto& r : ag.requests)
    if (!r.agreed) return why + "; e.g. " + r.path + ": " + (r.example.empty() ? r.fields.front() : r.example);
  return why;
}

struct Started {
  std::unique_ptr<ServedServer> a, b, a2, b2;
};

std::unique_ptr<ServedServer> start(const Side& s, const std::string& name, const TempDir& dir, double ready_s) {
  if (s.serve.empty()) return nullptr;
  ServeSpec spec;
  spec.who = "server " + name + " (" + s.serve.front() + ")";
  spec.argv = s.serve;
  spec.cpus = s.cpus;
  spec.dir = dir.subdir("server-" + name);
  spec.ready_timeout_s = ready_s;
  return std::make_unique<ServedServer>(spec);
}

BaseUrl url_of(const Side& s, const std::unique_ptr<ServedServer>& server, const std::string& name) {
  if (server) return server->url();
  BaseUrl u = parse_base_url(s.url, name);
  if (Client(u, 5).get("/").status == 0)
    throw RunError(name + " " + s.url + ": no HTTP answer (is the server running?)");
  return u;
}

}  // namespace

json compare_windows(const Timed& t, std::uint64_t seed) {
  const auto& wa = t.windows.at("A");
  const auto& wb = t.windows.at("B");
  bool cpu = true;
  for (const auto* ws : {&wa, &wb})
    for (const auto& w : *ws) cpu = cpu && w.cpu_us_per_request.has_value();
  const auto a = metric_of(wa, cpu), b = metric_of(wb, cpu);
  json j = {{"metric", cpu ? "cpu_us_per_request" : "wall_us_per_response"},
            {"what", cpu ? "server CPU (cgroup usage over the window) per response"
                         : "window wall time per response at the run's concurrency (no CPU: perfgate did not "
                           "start the servers)"},
            {"a", a},
            {"b", b}};
  if (a.size() >= 2 && a.size() == b.size()) {
    const auto r = stats::paired_ratio(a, b, seed);
    j["ratio_b_over_a"] = r.ratio;
    j["ci"] = {r.ci.lo, r.ci.hi};
    j["ci_confidence"] = r.ci_confidence;
    j["p_wilcoxon"] = r.p_wilcoxon;
    j["rounds"] = r.n;
  }
  return j;
}

ParityResult run_parity(const ParityOptions& o) {
  if (o.a.url.empty() == o.a.serve.empty() || o.b.url.empty() == o.b.serve.empty())
    throw UsageError("each server needs a base URL or a program to serve (--serve-a/--serve-b), not both");
  if (!(o.max_dropped >= 0 && o.max_dropped <= 1)) throw UsageError("--max-dropped must be a share in [0, 1]");
  const auto paths = read_request_set(o.requests);
  install_interrupt_handlers();  // SIGINT/SIGTERM unwind: every started server is stopped, exit 130
  const bool served = !o.a.serve.empty() && !o.b.serve.empty();
  const std::string noise = o.noise == "auto" ? (served ? "instance" : "answer") : o.noise;
  if (noise == "instance" && (o.a.serve.empty() || o.b.serve.empty()))
    throw UsageError("--noise instance needs both servers started by perfgate (--serve-a and --serve-b)");

  ParityResult res;
  json& doc = res.doc;
  doc = {{"kind", "parity"},
         {"started", now_iso8601()},
         {"requests_file", o.requests},
         {"volatile", o.volatile_keys},
         {"max_dropped", o.max_dropped},
         {"noise", noise},
         {"load_before", measure::load_average()}};
  TempDir dir("perfgate-run-");
  Started s;
  s.a = start(o.a, "A", dir, o.ready_timeout_s);
  s.b = start(o.b, "B", dir, o.ready_timeout_s);
  const std::uint64_t idle_a = s.a ? s.a->rss_kib() : 0, idle_b = s.b ? s.b->rss_kib() : 0;
  Endpoints e;
  e.a = url_of(o.a, s.a, "URL_A");
  e.b = url_of(o.b, s.b, "URL_B");
  e.a2 = e.a;
  e.b2 = e.b;
  if (noise == "instance") {
    s.a2 = start(o.a, "A2", dir, o.ready_timeout_s);
    s.b2 = start(o.b, "B2", dir, o.ready_timeout_s);
    e.a2 = s.a2->url();
    e.b2 = s.b2->url();
  }
  doc["servers"] = {{"A", e.a.text}, {"B", e.b.text}};
  const auto quads = fetch_quads(e, paths);
  s.a2.reset();
  s.b2.reset();
  const Agreement ag = judge(quads, VolatileKeys(o.volatile_keys));
  doc["agreement"] = ag.to_json();
  res.message = refusal(ag, o.max_dropped);
  if (!res.message.empty()) {
    res.exit_code = kExitEquivalence;
    doc["refused"] = res.message;
  } else {
    std::vector<Target> targets = {{"A", e.a, s.a.get(), {}}, {"B", e.b, s.b.get(), {}}};
    for (const auto& q : quads) {
      targets[0].shapes[q.path] = fingerprint(q.a.body);
      targets[1].shapes[q.path] = fingerprint(q.b.body);
    }
    const auto agreeing = ag.agreeing_paths();
    const Timed t = run_timed(targets, agreeing, o.timed);
    json windows = json::object();
    for (const auto& [name, ws] : t.windows)
      for (const auto& w : ws) windows[name].push_back(w.to_json());
    doc["windows"] = windows;
    if (!t.hollow.empty()) {
      res.exit_code = kExitEquivalence;
      res.message = "not doing the work: a body went hollow after the agreement pass: " + t.hollow.front();
      doc["refused"] = res.message;
      doc["hollow"] = t.hollow;
    } else {
      doc["comparison"] = compare_windows(t, o.timed.seed);
      json per = json::object();
      for (std::size_t i = 0; i < targets.size(); ++i) {
        const auto& name = targets[i].name;
        std::optional<double> cpu;
        if (doc["comparison"]["metric"] == "cpu_us_per_request") {
          cpu = stats::median(doc["comparison"][name == "A" ? "a" : "b"].get<std::vector<double>>());
        }
        json m = o.measure_capacity ? measure_capacity(targets[i], agreeing, o.capacity, cpu) : json::object();
        double bytes = 0, responses = 0;
        for (const auto& w : t.windows.at(name)) {
          bytes += static_cast<double>(w.body_bytes);
          responses += static_cast<double>(w.responses);
        }
        m["bytes_per_response"] = responses > 0 ? bytes / responses : 0.0;
        if (targets[i].server) m.update(targets[i].server->memory_json(name == "A" ? idle_a : idle_b));
        per[name] = m;
      }
      doc["per_server"] = per;
    }
  }
  doc["load_after"] = measure::load_average();
  doc["exit_code"] = res.exit_code;
  return res;
}

}  // namespace perfgate::parity
