#include "catalog/service_sections.hpp"

#include <algorithm>

#include "common/json_fields.hpp"

// Each section is read only to be checked: its consumers (run/, load/, parity/) read it again,
// and may rely on every key being known and of its type.
namespace perfgate::catalog {

namespace {

void check_gbench(const FieldReader& g) {
  g.allow_only({"program", "args"});
  g.string("program");
  g.strings("args");
}

// Distinct phase names (letters, digits, `_`); `startup` is the harness's own phase.
void check_phase_names(const FieldReader& r, const std::string& key, const std::vector<std::string>& names) {
  for (auto it = names.begin(); it != names.end(); ++it) {
    const std::string quoted = json(*it).dump();
    if (it->empty() ||
        it->find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      r.fail(key, "must hold names of letters, digits and _ (got " + quoted + ")");
    if (*it == "startup") r.fail(key, "\"startup\" is the harness's own phase (server start to its listen line)");
    if (std::find(names.begin(), it, *it) != it) r.fail(key, "names " + quoted + " twice");
  }
}

// `service.load_client`: the scenario's own load program, run once per phase.
void check_load_client(const FieldReader& c) {
  c.allow_only({"phases", "agreement", "program", "rss_interval_ms", "timeout_s"});
  const auto phases = c.non_empty_strings("phases", "phase names");  // in order, after the server listens
  check_phase_names(c, "phases", phases);
  const auto agreement = c.strings("agreement", "phase names");  // phases whose digest is gated across variants
  check_phase_names(c, "agreement", agreement);
  for (const auto& a : agreement)
    if (std::find(phases.begin(), phases.end(), a) == phases.end())
      c.fail("agreement", "names " + json(a).dump() + ", which is not one of its phases");
  c.string("program", "");                          // default: the scenario's program
  c.optional_integer("rss_interval_ms", 1);         // how often the server's RSS is polled
  c.optional_number("timeout_s", Sign::kPositive);  // per phase; default the profile's timeout_s
}

// Routes ("/Artists") to the most statements one request of it may run.
void check_statement_limits(const FieldReader& p) {
  if (!p.has("statement_limits")) return;
  const std::string rule = "must map routes (\"/Artists\") to integers >= 0";
  const json& limits = p.object().at("statement_limits");
  if (!limits.is_object() || limits.empty()) p.fail("statement_limits", rule);
  for (const auto& [route, limit] : limits.items())
    if (route.empty() || route.front() != '/' || !limit.is_number_integer() || limit.get<long long>() < 0)
      p.fail("statement_limits", rule);
}

// `service.parity`: the agreement pass, statement gates and capacity of a parity scenario
// (docs/scenario-contract.md, "Parity scenarios"; parity/bundled.hpp).
void check_parity(const FieldReader& p) {
  p.allow_only({"requests", "volatile", "noise", "statement_limits", "statement_counter", "step_s", "max_concurrency"});
  p.string("requests", "");  // the request set, relative to the fixture (default requests.txt)
  p.strings("volatile", "key names or folded paths");
  p.one_of("noise", {"answer", "instance"}, "");  // second answers of one server, or a second server
  check_statement_limits(p);
  p.one_of("statement_counter", {"sqlite"},
           "");  // X-Perfgate-Statements checked against libsqlite3 (parity/statement_counter.hpp)
  p.optional_number("step_s", Sign::kPositive);  // each concurrency step and offered rate of the capacity measures
  p.optional_integer("max_concurrency", 1);      // the sweep 1, 2, 4 ... up to this
}

// `service.probes`: untimed requests asked once per sample after the window, booked per path
// (load/probes.hpp): a file relative to the fixture, or the probe lines themselves.
void check_probes(const FieldReader& s) {
  if (!s.has("probes")) return;
  const json& probes = s.object().at("probes");
  const std::string rule =
      "must be a probe file (relative to the fixture) or a non-empty list of \"[METHOD] /path\" strings";
  if (probes.is_string()) {
    if (probes.get<std::string>().empty()) s.fail("probes", rule);
    return;
  }
  if (!probes.is_array() || probes.empty()) s.fail("probes", rule);
  for (const auto& p : probes)
    if (!p.is_string()) s.fail("probes", rule);
}

void check_service(const FieldReader& s) {
  s.allow_only(
      {"ready_timeout_s", "stats_path", "gbench", "load_cpus", "parity", "equivalence", "load_client", "probes"});
  s.optional_number("ready_timeout_s", Sign::kPositive);  // how long the server may take to print {"listen": ...}
  s.string("stats_path", "");                             // GET path of the server's JSON counters
  if (s.has("gbench")) check_gbench(s.child("gbench"));
  s.optional_integer("load_cpus", 1);  // declared by asset_cache; the sampler uses the CPUs the server does not
  if (s.has("parity")) check_parity(s.child("parity"));
  s.string("equivalence", "");  // declared by asset_cache; responses are compared by the response gate
  if (s.has("load_client")) check_load_client(s.child("load_client"));  // phased load (imap_select)
  check_probes(s);
}

void check_workload(const FieldReader& w) {
  w.allow_only({"urls", "mix", "hot_count", "hot_fraction", "zipf_s"});
  w.required("urls", "a URL list file");
  w.string("urls");
  w.one_of("mix", {"uniform", "hot", "zipf", "cycle", "file"}, "");
  w.optional_integer("hot_count", 1);
  if (auto f = w.optional_number("hot_fraction"); f && !(*f > 0 && *f <= 1))
    w.fail("hot_fraction", "must be a number in (0, 1]");
  w.optional_number("zipf_s", Sign::kPositive);
}

void check_load(const FieldReader& l) {
  l.allow_only({"duration_s", "warmup_s", "connections", "timeout_s", "accept_gzip", "rate_rps"});
  l.optional_number("duration_s", Sign::kPositive);
  l.optional_number("warmup_s", Sign::kNonNegative);
  l.optional_integer("connections", 1);
  l.optional_number("timeout_s", Sign::kPositive);
  l.optional_boolean("accept_gzip");
  l.optional_number("rate_rps", Sign::kNonNegative);
}

}  // namespace

void check_service_sections(const Manifest& m, const std::string& file) {
  check_service(FieldReader(m.service, file, "service"));
  const FieldReader workloads(m.workloads, file, "workloads");
  for (const auto& name : workloads.keys()) check_workload(workloads.child(name));
  for (const auto& [name, p] : m.profiles) check_load(FieldReader(p.load, file, "profiles." + name + ".load"));
}

}  // namespace perfgate::catalog
