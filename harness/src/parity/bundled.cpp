#include "parity/bundled.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "common/errors.hpp"
#include "parity/agreement_pass.hpp"
#include "parity/capacity.hpp"
#include "parity/fingerprint.hpp"
#include "parity/served_server.hpp"
#include "parity/statement_counter.hpp"
#include "run/not_equivalent.hpp"
#include "stats/summary.hpp"

namespace perfgate::parity {

using nlohmann::json;

namespace {

const json& section(const json& service) { return service.at("parity"); }

std::unique_ptr<ServedServer> serve(const run::ServicePlan& p, const std::string& variant, const fs::path& dir,
                                    const std::string& tag, const SqliteCounter* counter = nullptr) {
  ServeSpec s;
  if (counter) s.env = counter->env();
  s.who = p.scenario + " (" + variant + ") server";
  s.argv = {p.program,   "serve",   "--variant", variant,         "--profile", p.profile,
            "--fixture", p.fixture, "--params",  p.params.dump(), "--listen",  "127.0.0.1:0"};
  if (auto it = p.args.find(variant); it != p.args.end())
    s.argv.insert(s.argv.end(), it->second.begin(), it->second.end());
  s.cpus = p.server_cpus;
  s.dir = dir / ("parity-" + variant + tag);
  s.cwd = s.dir;
  s.ready_timeout_s = p.service.value("ready_timeout_s", 30.0);
  auto server = std::make_unique<ServedServer>(s);
  if (counter) counter->require_loaded(s.who);
  return server;
}

// A counter per server of the agreement pass when the manifest asks for statements counted
// outside, else none.
std::unique_ptr<SqliteCounter> counter_for(const json& sec, const fs::path& dir, const std::string& name) {
  if (sec.value("statement_counter", "") != "sqlite") return nullptr;
  fs::create_directories(dir);
  return std::make_unique<SqliteCounter>(dir / ("statements-" + name + ".count"));
}

std::string route_of(const std::string& path) { return path.substr(0, path.find('?')); }

// Per route: statements per request of A (before) and B (after), mean and max.
json statements(const Agreement& ag) {
  std::map<std::string, std::vector<std::pair<long long, long long>>> by_route;
  for (const auto& r : ag.requests)
    by_route[route_of(r.path)].emplace_back(r.statements_a.value_or(-1), r.statements_b.value_or(-1));
  json out = json::object();
  for (const auto& [route, counts] : by_route) {
    json side = json::object();
    for (const char* v : {"before", "after"}) {
      long long sum = 0, max = 0;
      bool all = true;
      for (const auto& [a, b] : counts) {
        const long long c = std::string(v) == "before" ? a : b;
        all = all && c >= 0;
        sum += c;
        max = std::max(max, c);
      }
      side[v] = all ? json{{"mean", static_cast<double>(sum) / static_cast<double>(counts.size())}, {"max", max}}
                    : json();  // a request without the X-Perfgate-Statements header
    }
    side["requests"] = counts.size();
    out[route] = side;
  }
  return out;
}

}  // namespace

bool wanted(const json& service) { return service.is_object() && service.contains("parity"); }

json bundled_agreement(const run::ServicePlan& plan, const fs::path& dir) {
  const json& sec = section(plan.service);
  const auto paths = read_request_set((fs::path(plan.fixture) / sec.value("requests", "requests.txt")).string());
  const bool instances = sec.value("noise", "answer") == "instance";
  const auto count_a = counter_for(sec, dir, "before"), count_b = counter_for(sec, dir, "after");
  const auto count_a2 = instances ? counter_for(sec, dir, "before-2") : nullptr;
  const auto count_b2 = instances ? counter_for(sec, dir, "after-2") : nullptr;
  auto before = serve(plan, "before", dir, "", count_a.get()), after = serve(plan, "after", dir, "", count_b.get());
  std::unique_ptr<ServedServer> before2, after2;
  if (instances) {
    before2 = serve(plan, "before", dir, "-2", count_a2.get());
    after2 = serve(plan, "after", dir, "-2", count_b2.get());
  }
  Endpoints e{before->url(), instances ? before2->url() : before->url(), after->url(),
              instances ? after2->url() : after->url()};
  e.counted_a = count_a.get();
  e.counted_a2 = instances ? count_a2.get() : count_a.get();
  e.counted_b = count_b.get();
  e.counted_b2 = instances ? count_b2.get() : count_b.get();
  const auto quads = fetch_quads(e, paths);
  const Sides sides{"before", "after"};
  const Agreement ag = judge(quads, VolatileKeys(sec.value("volatile", std::vector<std::string>{})), sides);
  json out = ag.to_json();
  out["statements"] = statements(ag);
  const std::string who =
      plan.scenario + " agreement pass (" + std::to_string(paths.size()) + " requests, before vs after)";
  if (ag.leaves_agreeing == 0) throw run::EquivalenceFailure("equivalence gate failed: " + who + " compared nothing");
  // A server's own statement count the statement gates would read, disagreeing with what its
  // libsqlite3 ran: a self-reported figure in its own favour or a broken counter, a lie either way.
  if (auto lie = miscounted(quads, sides)) throw run::EquivalenceFailure("self-reported statements: " + *lie);
  for (const auto& r : ag.requests) {
    if (r.agreed) continue;
    std::string fields;
    for (const auto& f : r.fields) fields += (fields.empty() ? "" : ", ") + f;
    throw run::EquivalenceFailure(
        "equivalence gate failed: " + who + ": " + std::to_string(ag.dropped()) +
        " disagree (nothing may be dropped between a scenario's own variants); first " + r.path + ": " +
        (r.hollow.empty() ? fields + " — " + r.example : "not doing the work: " + r.hollow.front()));
  }
  return out;
}

json bundled_measures(const run::ServicePlan& plan, const fs::path& dir, const std::vector<run::Sample>& samples) {
  const json& sec = section(plan.service);
  const auto paths = read_request_set((fs::path(plan.fixture) / sec.value("requests", "requests.txt")).string());
  CapacityOptions co;
  co.step_s = sec.value("step_s", 0.5);
  // Windows scale with the profile: a quick suite must not spend minutes on a slow server's curve.
  co.max_window_s = std::max(5.0, 3 * plan.load.value("duration_s", 5.0));
  co.concurrency.clear();
  for (int c = 1; c <= sec.value("max_concurrency", 128); c *= 2) co.concurrency.push_back(c);
  co.load_cpus = plan.load_cpus;
  co.seed = plan.seed;
  json out = json::object();
  for (const std::string v : {"before", "after"}) {
    std::vector<double> cpu;
    for (const auto& s : samples)
      if (!s.warmup && s.variant == v)
        if (auto it = s.metrics.find("server_cpu_us_per_request"); it != s.metrics.end())
          cpu.push_back(it->second.value);
    std::optional<double> median;
    if (!cpu.empty()) median = stats::median(cpu);
    auto server = serve(plan, v, dir, "-measures");
    const auto idle = server->rss_kib();
    Target t{v, server->url(), server.get(), {}};
    json m = measure_capacity(t, paths, co, median);
    m.update(server->memory_json(idle));  // after the sweep: PSS with the pool at its largest
    if (median) m["cpu_us_per_request"] = *median;
    Client c(server->url());
    double bytes = 0;
    for (const auto& p : paths) bytes += static_cast<double>(c.get(p).body.size());
    m["bytes_per_response"] = bytes / static_cast<double>(paths.size());
    out[v] = m;
  }
  return out;
}

std::vector<StatementGate> statement_gates(const json& agreement, const json& service) {
  std::vector<StatementGate> out;
  if (!wanted(service) || !section(service).contains("statement_limits")) return out;
  const json& per = agreement.value("statements", json::object());
  for (const auto& [route, limit] : section(service)["statement_limits"].items()) {
    StatementGate g;
    g.route = route;
    const double lim = limit.get<double>();
    if (!per.contains(route)) {
      g.detail = "no request of " + route + " in the request set: nothing was counted";
    } else if (per[route]["after"].is_null()) {
      g.detail = "after did not send X-Perfgate-Statements on " + route;
    } else {
      const double mean = per[route]["after"]["mean"].get<double>();
      g.passed = mean <= lim;
      auto text = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.4g", v);
        return std::string(buf);
      };
      g.detail =
          "after " + route + ": " + text(mean) + " statements per request over " +
          std::to_string(per[route]["requests"].get<int>()) + " requests (limit " + text(lim) + "; before " +
          (per[route]["before"].is_null() ? std::string("?") : text(per[route]["before"]["mean"].get<double>())) + ")";
    }
    out.push_back(g);
  }
  return out;
}

}  // namespace perfgate::parity
