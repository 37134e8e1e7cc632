#include "cli/pipeline.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <sstream>

#include "cache/fixture_cache.hpp"
#include "catalog/catalog.hpp"
#include "cli/ci_outputs.hpp"
#include "cli/gbench_scenario.hpp"
#include "cli/progress.hpp"
#include "cli/verdict_table.hpp"
#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/interrupt.hpp"
#include "gate/baseline_gate.hpp"
#include "gate/equivalence.hpp"
#include "gate/policy.hpp"
#include "measure/host.hpp"
#include "perfgate/percentile.hpp"
#include "postgres/pg_server.hpp"
#include "run/batch_runner.hpp"
#include "run/service_sampler.hpp"
#include "stats/scenario_stats.hpp"
#include "store/baseline_file.hpp"
#include "store/results_file.hpp"

namespace perfgate::cli {
namespace {

using json = nlohmann::json;

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=:,+@%") ==
                        std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string join_command(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + shell_quote(a);
  return out;
}

json git_info() {
  const std::string source = PERFGATE_SOURCE_DIR;
  auto run = [&](const std::string& cmd) {
    std::string out;
    if (FILE* p = ::popen(("git -C " + shell_quote(source) + " " + cmd + " 2>/dev/null").c_str(), "r")) {
      char buf[512];
      while (std::fgets(buf, sizeof buf, p)) out += buf;
      ::pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
  };
  std::string commit = run("rev-parse HEAD");
  bool dirty = !run("status --porcelain --untracked-files=no").empty();
  return {{"commit", commit.empty() ? "unknown" : commit}, {"dirty", dirty}, {"source", source}};
}

std::string run_id() {
  std::ostringstream ss;
  ss << store::now_iso8601() << "-" << ::getpid();
  return ss.str();
}

// The PostgreSQL server of a run, opened at the first scenario that needs it and stopped
// (cluster deleted, or perfgate's databases dropped) when the run ends, however it ends.
struct PgContext {
  std::unique_ptr<measure::SampleCgroup> cgroup;  // the throwaway cluster's own cgroup
  std::vector<std::string> procs_files;
  std::unique_ptr<fixtures::PgServer> server;

  fixtures::PgServer& open(Progress& progress) {
    if (server) return *server;
    cgroup = std::make_unique<measure::SampleCgroup>("postgres");
    procs_files = cgroup->procs_files();
    fixtures::PgServerOptions o;
    o.cache_dir = fixtures::cache_root();
    const auto* files = &procs_files;
    o.in_child_before_exec = [files] {
      for (const auto& f : *files) {
        int fd = ::open(f.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
          (void)!::write(fd, "0", 1);
          ::close(fd);
        }
      }
    };
    o.progress = [&progress](const std::string& m) { progress.update(m); };
    try {
      server = fixtures::PgServer::open(o);
    } catch (const std::exception& e) {
      throw RunError(std::string("PostgreSQL: ") + e.what());
    }
    return *server;
  }
};

// The work of one scenario, in the order of the data flow.
struct ScenarioRun {
  ScenarioRun(const plan::ScenarioPlan& sp_, const plan::RunPlan& rp_, Progress& progress_, const TempDir& run_dir_,
              int index_, int count_)
      : sp(sp_), rp(rp_), progress(progress_), run_dir(run_dir_), index(index_), count(count_) {}
  const plan::ScenarioPlan& sp;
  const plan::RunPlan& rp;
  Progress& progress;
  const TempDir& run_dir;
  int index, count;
  std::string reproduce;  // the command that re-runs exactly this scenario
  PgContext* pg = nullptr;

  json doc;
  run::BatchOutcome outcome;
  std::vector<stats::Comparison> comparisons;
  std::optional<fixtures::FixtureInfo> fixture;
  std::string error_message;
  int exit_code = kExitOk;

  json variants_json() const {
    json out = json::array();
    for (const auto& v : sp.variants)
      out.push_back({{"name", v.name},
                     {"label", v.label},
                     {"compare_to", v.compare_to ? json(*v.compare_to) : json()},
                     {"sweep", v.sweep},
                     {"gated", v.gated()},
                     {"equivalence", v.equivalence.empty() ? "digest" : "extra." + v.equivalence},
                     {"workload", v.workload}});
    return out;
  }

  std::vector<run::VariantCommand> commands() const {
    std::vector<run::VariantCommand> out;
    for (const auto& v : sp.variants) {
      run::VariantCommand c;
      c.name = v.name;
      if (sp.ab) {
        c.argv = v.name == "before" ? sp.before_argv : sp.after_argv;
        c.digest_stdout = true;
      } else {
        // --against: the other build's program runs its own `after` as our `before`.
        auto prog = sp.program_of.find(v.name);
        auto as = sp.run_as.find(v.name);
        c.argv = {prog != sp.program_of.end() ? prog->second : sp.program,
                  "run",
                  "--variant",
                  as != sp.run_as.end() ? as->second : v.name,
                  "--profile",
                  sp.profile,
                  "--fixture",
                  fixture ? fixture->location : "",
                  "--params",
                  sp.params.dump()};
        c.argv.insert(c.argv.end(), v.args.begin(), v.args.end());
      }
      if (auto it = sp.extra_args.find(v.name); it != sp.extra_args.end())
        c.argv.insert(c.argv.end(), it->second.begin(), it->second.end());
      out.push_back(std::move(c));
    }
    return out;
  }

  std::vector<stats::VariantPair> pairs() const {
    std::vector<stats::VariantPair> out;
    for (const auto& v : sp.variants)
      if (v.compare_to) out.push_back({v.name, *v.compare_to, v.name == "after" && *v.compare_to == "before"});
    return out;
  }

  // At a look: stop when every gated metric is decided — significant at the per-look level
  // (Bonferroni over the run's gated comparisons, the first step of Holm) and outside the
  // band — or clearly inside the band.
  bool clear_at_look(const std::vector<run::Sample>& measured) const {
    auto cs = stats::compare_samples(measured, {{"after", "before", true}}, sp.gated_metrics, rp.seed);
    const double threshold = rp.alpha_per_look / std::max(1, rp.gated_total);
    std::size_t decided = 0;
    for (const auto& c : cs) {
      if (!c.gated) continue;
      const bool outside = c.r.ci.hi < 1 - rp.noise || c.r.ci.lo > 1 + rp.noise;
      const bool inside = c.r.ci.lo >= 1 - rp.noise && c.r.ci.hi <= 1 + rp.noise;
      if ((outside && c.r.p_wilcoxon < threshold) || inside) ++decided;
    }
    return decided == sp.gated_metrics.size();
  }

  std::string estimate(const std::vector<run::Sample>& samples) const {
    const std::string& m = sp.manifest.primary_metric;
    std::vector<double> b, a;
    for (const auto& s : samples) {
      if (s.warmup) continue;
      auto it = s.metrics.find(m);
      if (it == s.metrics.end()) continue;
      (s.variant == "before" ? b : s.variant == "after" ? a : b).push_back(it->second.value);
    }
    if (b.empty() || a.empty()) return "";
    double mb = perfgate::percentile(b, 0.5), ma = perfgate::percentile(a, 0.5);
    if (mb == 0) return "";
    char buf[96];
    std::snprintf(buf, sizeof buf, " · after/before %s %.3gx", m.c_str(), ma / mb);
    return buf;
  }

  void execute() {
    const auto& m = sp.manifest;
    doc = {{"name", m.name},
           {"title", m.title},
           {"source", m.source},
           {"summary", m.summary},
           {"kind", m.kind},
           {"profile", sp.profile},
           {"policy", sp.policy},
           {"primary_metric", m.primary_metric},
           {"params", sp.params},
           {"cpus", sp.cpus},
           {"load_before", measure::load_average()},
           {"variants", variants_json()},
           {"anchors", m.anchors},
           {"excluded", json::array()},
           {"notes", json::array()}};
    if (!sp.ab && (m.fixture_kind == "files" || m.fixture_kind == "sqlite")) {
      progress.update(prefix() + "seeding fixture");
      fixture = fixtures::prepare_directory_fixture(m, sp.profile, sp.program, sp.params, sp.cpus, sp.timeout_s);
    } else if (!sp.ab && m.fixture_kind == "postgres") {
      prepare_postgres();
    }
    doc["fixture"] = fixture ? fixture->to_json() : json();

    if (m.kind == "gbench") {
      run_gbench_kind();
      return;
    }

    run::BatchPlan bp;
    bp.scenario = m.name;
    bp.variants = commands();
    json cmds = json::object();
    for (const auto& c : bp.variants) cmds[c.name] = c.argv;
    doc["commands"] = cmds;
    bp.cpus = sp.cpus;
    bp.warmup = sp.warmup;
    bp.max_rounds = sp.max_rounds;
    bp.max_time_s = sp.max_time_s;
    bp.timeout_s = sp.timeout_s;
    bp.looks = sp.looks;
    bp.seed = rp.seed + static_cast<std::uint64_t>(index);
    if (m.fixture_kind == "postgres" && pg && pg->server && pg->server->throwaway())
      bp.server_cgroup = pg->cgroup.get();

    std::map<std::string, std::string> keys;
    for (const auto& v : sp.variants) keys[v.name] = v.equivalence;
    gate::EquivalenceGate equivalence(keys, run_dir.path());
    run::BatchHooks hooks;
    int round_now = 0, rounds_total = 0;
    bool warm = false;
    hooks.on_round = [&](int r, int total, bool warmup) {
      round_now = r;
      rounds_total = total;
      warm = warmup;
      progress.update(prefix() + (warmup ? "warm-up " : "round ") + std::to_string(warmup ? r : r - sp.warmup) + "/" +
                      std::to_string(total - sp.warmup) + estimate(outcome.samples));
    };
    hooks.on_sample = [&](const run::Sample& s, const run::SampleFiles& f) { equivalence.check(s, f); };
    gate::ResponseGate responses;
    run::ServicePlan service;
    if (m.kind == "service") {
      service = service_plan();
      hooks.take_sample = [&](const std::string& variant, int round, bool warmup, int order, int serial) {
        std::map<std::string, std::string> digests;
        run::Sample s = run::run_service_sample(service, variant, round, warmup, order, run_dir, serial, digests);
        responses.check(variant, round, digests);
        return s;
      };
    }
    auto gates_now = [&] {
      return m.kind == "service" ? json::array({responses.result()}) : json::array({equivalence.result()});
    };
    hooks.should_stop = [&](const std::vector<run::Sample>& measured, int) { return clear_at_look(measured); };
    try {
      run::run_batch(bp, run_dir, hooks, outcome);
    } catch (const gate::EquivalenceFailure& e) {
      outcome.stop_reason = "equivalence failed";
      error_message = e.what();
      exit_code = kExitEquivalence;
    } catch (const Interrupted&) {
      outcome.stop_reason = "interrupted";
      doc["gates"] = gates_now();
      analyse();
      throw;
    } catch (const Error& e) {
      outcome.stop_reason = "error";
      error_message = e.what();
      exit_code = e.code();
    }
    doc["gates"] = gates_now();
    analyse();
    run_gbench();
  }

  // A Google Benchmark binary as the scenario (kind gbench): repetition i of X/before and of
  // X/after are round i (cli/gbench_scenario.hpp), so stats and gates work unchanged.
  void run_gbench_kind() {
    GbenchRun g;
    try {
      progress.update(prefix() + "Google Benchmark, " + std::to_string(gbench_repetitions(sp)) + " repetitions");
      g = run_gbench_scenario(sp, run_dir);
      outcome.samples = g.samples;
      outcome.rounds = g.rounds;
      outcome.stop_reason = "repetitions";
    } catch (const Interrupted&) {
      outcome.stop_reason = "interrupted";
      doc["gates"] = json::array();
      analyse();
      throw;
    } catch (const Error& e) {
      outcome.stop_reason = "error";
      error_message = e.what();
      exit_code = e.code();
    }
    doc["commands"] = {{"gbench", g.argv}};
    doc["gates"] = json::array();
    if (error_message.empty()) doc["gates"].push_back(g.equivalence);
    for (const auto& n : g.notes) doc["notes"].push_back(n);
    analyse();
    if (!g.context.is_null()) doc["extra"]["gbench_context"] = g.context;
  }

  // A template database seeded once (by `PROGRAM seed --target DSN`) and a fresh clone of it
  // for this scenario's samples.
  void prepare_postgres() {
    const auto& m = sp.manifest;
    fixtures::PgServer& server = pg->open(progress);
    fixtures::FixtureInfo info;
    info.kind = "postgres";
    info.digest = fixtures::fixture_digest(m, sp.profile, sp.params);
    const std::string tname = fixtures::template_name(m.name, sp.profile + ":" + info.digest);
    progress.update(prefix() + "seeding template " + tname);
    auto seed = [&](const std::string& dsn) {
      fixtures::run_seeder(m, sp.profile, sp.program, dsn, sp.params, sp.cpus, std::max(sp.timeout_s, 600.0), info);
    };
    bool reused = false;
    try {
      fixtures::ensure_template(server, tname, seed, &reused);
      info.location = fixtures::clone_database(server, tname, "pgrun_" + m.name);
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      throw RunError(std::string("PostgreSQL fixture of ") + m.name + ": " + e.what());
    }
    info.reused = reused;
    fixture = info;
    doc["postgres"] = {{"server", server.describe()},
                       {"version", server.server_version()},
                       {"throwaway", server.throwaway()},
                       {"template", tname}};
    if (!server.throwaway())
      doc["notes"].push_back(
          "PERFGATE_PG_DSN: an external server; its CPU (server_cpu_ms) is not measured, only the "
          "client's");
  }

  run::ServicePlan service_plan() const {
    const auto& m = sp.manifest;
    run::ServicePlan p;
    p.scenario = m.name;
    p.program = sp.program;
    p.profile = sp.profile;
    p.fixture = fixture ? fixture->location : "";
    p.params = sp.params;
    p.load = m.profiles.at(sp.profile).load;
    p.service = m.service;
    p.workloads = m.workloads;
    p.server_cpus = sp.cpus;
    // The load generator on the CPUs the server does not use (the other core of two).
    for (int c : measure::allowed_cpus())
      if (std::find(sp.cpus.begin(), sp.cpus.end(), c) == sp.cpus.end()) p.load_cpus.push_back(c);
    if (p.load_cpus.empty()) p.load_cpus = sp.cpus;
    for (const auto& v : sp.variants) {
      p.args[v.name] = v.args;
      if (auto it = sp.extra_args.find(v.name); it != sp.extra_args.end())
        p.args[v.name].insert(p.args[v.name].end(), it->second.begin(), it->second.end());
      p.workload_of[v.name] = v.workload;
    }
    p.seed = rp.seed;
    return p;
  }

  // A Google Benchmark binary the manifest names (service.gbench or gbench): run once after
  // the rounds, its JSON kept in extra.gbench for the report.
  void run_gbench() {
    const auto& m = sp.manifest;
    json g = m.service.contains("gbench") ? m.service["gbench"] : json();
    if (!g.is_object() || !g.contains("program")) return;
    progress.update(prefix() + "microbenchmarks");
    const fs::path dir = run_dir.subdir("gbench");
    run::ChildSpec spec;
    spec.argv = {(m.dir / g["program"].get<std::string>()).string(), "--benchmark_format=json",
                 "--benchmark_out=" + (dir / "out.json").string(), "--benchmark_out_format=json"};
    for (const auto& a : g.value("args", json::array())) {
      std::string arg = a.get<std::string>();
      if (auto at = arg.find("{fixture}"); at != std::string::npos && fixture) arg.replace(at, 9, fixture->location);
      spec.argv.push_back(arg);
    }
    spec.cwd = dir;
    spec.stdout_path = dir / "stdout";
    spec.stderr_path = dir / "stderr";
    spec.cpus = sp.cpus;
    spec.timeout_s = sp.timeout_s;
    measure::SampleCgroup cg(m.name + "-gbench");
    auto r = run::run_child(spec, cg);
    if (r.exit_code != 0) {
      doc["notes"].push_back("microbenchmark " + g["program"].get<std::string>() +
                             " failed: " + tail_of_file(spec.stderr_path, 300));
      return;
    }
    auto j = json::parse(read_file(dir / "out.json"), nullptr, false);
    if (!j.is_object()) return;
    json rows = json::array();
    for (const auto& b : j.value("benchmarks", json::array()))
      rows.push_back({{"name", b.value("name", "")},
                      {"real_time", b.value("real_time", 0.0)},
                      {"cpu_time", b.value("cpu_time", 0.0)},
                      {"time_unit", b.value("time_unit", "ns")},
                      {"iterations", b.value("iterations", 0)}});
    doc["extra"]["gbench"] = {
        {"program", g["program"]}, {"context", j.value("context", json::object())}, {"benchmarks", rows}};
  }

  std::string prefix() const {
    return "[" + std::to_string(index + 1) + "/" + std::to_string(count) + " " + sp.manifest.name + "] ";
  }

  // Summaries and comparisons of whatever samples exist; verdicts are provisional until the
  // run's Holm family is complete (finalise()).
  void analyse() {
    json samples = json::array();
    for (const auto& s : outcome.samples) samples.push_back(run::to_json(s));
    doc["samples"] = samples;
    doc["summaries"] = stats::to_json(stats::summarize_samples(outcome.samples));
    comparisons = stats::compare_samples(outcome.samples, pairs(), sp.gated_metrics, rp.seed);
    std::vector<stats::Comparison*> informational;
    for (auto& c : comparisons)
      if (!c.gated) informational.push_back(&c);
    stats::decide_exploratory(informational, rp.alpha, rp.noise);
    json series = json::object(), extra = json::object();
    for (auto it = outcome.samples.rbegin(); it != outcome.samples.rend(); ++it) {
      if (it->warmup) continue;
      if (!series.contains(it->variant) && !it->series.empty()) series[it->variant] = it->series;
      if (!extra.contains(it->variant) && !it->extra.empty()) extra[it->variant] = it->extra;
    }
    doc["series"] = series;
    doc["extra"] = extra;
    doc["stop"] = {{"reason", outcome.stop_reason}, {"rounds", outcome.rounds}, {"looks", outcome.looks_taken}};
    doc["load_after"] = measure::load_average();
    int warm = 0;
    for (const auto& s : outcome.samples) warm += s.warmup;
    if (warm)
      doc["excluded"].push_back({{"what", std::to_string(warm) + " warm-up samples"},
                                 {"why",
                                  "warm-up rounds fill caches and page in the program; they are kept in "
                                  "samples but left out of every summary and comparison"}});
    if (!error_message.empty()) doc["error"] = {{"exit_code", exit_code}, {"message", error_message}};
    doc["reproduce"] = reproduce;
    comparisons_to_doc();
  }

  void comparisons_to_doc() {
    json cs = json::array();
    for (const auto& c : comparisons) cs.push_back(stats::to_json(c, 0.95));
    doc["comparisons"] = cs;
  }

  const stats::Comparison* find(const std::string& variant, const std::string& metric) const {
    for (const auto& c : comparisons)
      if (c.variant == variant && c.baseline == "before" && c.metric == metric) return &c;
    return nullptr;
  }

  // After the run's Holm correction: the policy and claim gates and this scenario's exit code.
  void finalise() {
    comparisons_to_doc();
    if (exit_code != kExitOk) return;  // equivalence or run failure: no performance verdict
    json g = gate::policy_gate(find("after", sp.manifest.primary_metric), sp.manifest.primary_metric, sp.policy);
    doc["gates"].push_back(g);
    bool ok = g["passed"].get<bool>();
    if (sp.policy == "improve")
      for (const auto& claim : sp.claims) {
        json cg = gate::claim_gate(find("after", claim.metric), claim);
        ok = ok && cg["passed"].get<bool>();
        doc["gates"].push_back(cg);
      }
    if (!ok) exit_code = kExitPerformance;
    fill_anchors();
  }

  void fill_anchors() {
    json anchors = doc["anchors"];
    for (auto& a : anchors) {
      const std::string metric = a.value("metric", "");
      const std::string bv = a.value("before_variant", "before"), av = a.value("after_variant", "after");
      const auto& sum = doc["summaries"];
      if (sum.contains(bv) && sum[bv].contains(metric) && sum.contains(av) && sum[av].contains(metric)) {
        double b = sum[bv][metric]["median"], af = sum[av][metric]["median"];
        a["ours"] = {{"before", b}, {"after", af}, {"ratio", b != 0 ? json(af / b) : json()}};
      }
    }
    doc["anchors"] = anchors;
  }
};

// The baseline gate of every scenario that ran to a verdict: Holm across the run's baseline
// comparisons; a significant regression beyond the tolerance fails the scenario (exit 1).
void apply_baseline(std::vector<std::unique_ptr<ScenarioRun>>& runs, const store::Baseline& baseline,
                    const json& results, const plan::RunPlan& rp, const plan::RunOptions& o) {
  std::vector<store::BaselineEntry> now;
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    auto& r = *runs[i];
    if (r.exit_code == kExitEquivalence || r.exit_code == kExitRun || !r.error_message.empty()) continue;
    json scenario = r.doc;
    auto entries = store::entries_from_scenario(results, scenario);
    for (auto& e : entries) {
      now.push_back(std::move(e));
      owner.push_back(i);
    }
  }
  auto checks = gate::check_against_baseline(now, baseline, {rp.alpha, o.baseline_tolerance});
  int compared = 0, missing = 0;
  for (std::size_t k = 0; k < checks.size(); ++k) {
    auto& r = *runs[owner[k]];
    json g = gate::baseline_gate_json(checks[k]);
    r.doc["gates"].push_back(g);
    if (!r.doc.contains("baseline")) r.doc["baseline"] = json::array();
    r.doc["baseline"].push_back(gate::to_json(checks[k]));
    if (checks[k].comparable)
      ++compared;
    else
      ++missing;
    if (g["passed"].is_boolean() && !g["passed"].get<bool>() && r.exit_code == kExitOk) r.exit_code = kExitPerformance;
  }
  if (!o.quiet || missing)
    std::cerr << "perfgate: baseline " << baseline.file.string() << ": " << compared << " compared, " << missing
              << " with no comparable baseline\n";
}

// The run's command narrowed to one scenario: other scenario names dropped, this one kept.
std::string scenario_reproduce(const std::vector<std::string>& argv, const plan::ScenarioPlan& sp) {
  if (sp.ab) return join_command(argv);
  std::vector<std::string> out;
  bool named = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (i > 1 && a.rfind("-", 0) != 0 && argv[i - 1].rfind("--", 0) != 0) {
      if (!named) out.push_back(sp.manifest.name);
      named = true;
      continue;
    }
    out.push_back(a);
  }
  if (!named) {
    auto it = std::find(out.begin(), out.end(), "run");
    out.insert(it == out.end() ? out.end() : it + 1, sp.manifest.name);
  }
  return join_command(out);
}

}  // namespace

// The baseline this run compares with, read before anything runs so a malformed one is exit 2
// with nothing written. Null when there is none to compare with (--baseline none, `ab` without
// --baseline, --against).
static std::optional<store::Baseline> load_run_baseline(const plan::RunPlan& rp, const plan::RunOptions& o) {
  if (o.baseline_path == "none" || !o.against_dir.empty()) return std::nullopt;
  const bool ab = !rp.scenarios.empty() && rp.scenarios.front().ab;
  if (ab && !o.baseline_given) return std::nullopt;
  return store::load_baseline(o.baseline_path.empty() ? default_baseline_path() : fs::path(o.baseline_path));
}

fs::path default_baseline_path() { return catalog::share_dir() / "baseline.json"; }

int execute_plan(const plan::RunPlan& rp, const plan::RunOptions& options, const std::vector<std::string>& argv,
                 const json& run_extra) {
  auto baseline = load_run_baseline(rp, options);
  install_interrupt_handlers();
  const auto host = measure::host_info();
  json host_json = measure::to_json(host);
  host_json["load_before"] = measure::load_average();
  host_json["load_after"] = nullptr;

  std::vector<std::string> reproduce_argv = argv;
  bool has_seed = false;
  for (const auto& a : argv) has_seed = has_seed || a == "--seed" || a.rfind("--seed=", 0) == 0;
  if (!has_seed) {
    reproduce_argv.push_back("--seed");
    reproduce_argv.push_back(std::to_string(rp.seed));
  }
  json run = {{"id", run_id()},
              {"started_at", store::now_iso8601()},
              {"finished_at", nullptr},
              {"command_line", argv},
              {"reproduce", join_command(reproduce_argv)},
              {"perfgate_version", PERFGATE_VERSION},
              {"git", git_info()},
              {"profile", rp.scenarios.empty() ? "" : rp.scenarios.front().profile},
              {"seed", rp.seed},
              {"options", rp.options_json()},
              {"stop_reason", "running"}};
  for (const auto& [k, v] : run_extra.items()) run[k] = v;
  if (baseline)
    run["baseline"] = {
        {"file", baseline->file.string()}, {"exists", baseline->exists}, {"tolerance", options.baseline_tolerance}};
  else
    run["baseline"] = {{"file", nullptr},
                       {"why", options.baseline_path == "none" ? "--baseline none"
                               : !options.against_dir.empty()  ? "--against compares builds, not a change"
                                                               : "ab: no --baseline given"}};
  fs::path results_path = !options.json_path.empty() ? fs::path(options.json_path)
                          : !options.out_dir.empty() ? fs::path(options.out_dir) / "results.json"
                                                     : fs::path();
  store::ResultsFile results(results_path, run, host_json);
  if (!host.allowed_cpus.empty() && host_json["cgroup"]["cpu_source"] == "rusage" && !options.quiet)
    std::cerr << "perfgate: note: CPU figures come from rusage (" << host_json["cgroup"]["note"].get<std::string>()
              << ")\n";

  Progress progress(options.quiet);
  TempDir run_dir("perfgate-run-");
  PgContext pg;  // after run_dir: destroyed first, so the cluster stops before the run's files go
  std::vector<std::unique_ptr<ScenarioRun>> runs;
  bool was_interrupted = false;
  for (std::size_t i = 0; i < rp.scenarios.size(); ++i) {
    runs.push_back(std::make_unique<ScenarioRun>(rp.scenarios[i], rp, progress, run_dir, static_cast<int>(i),
                                                 static_cast<int>(rp.scenarios.size())));
    ScenarioRun& sr = *runs.back();
    sr.reproduce = scenario_reproduce(reproduce_argv, rp.scenarios[i]);
    sr.pg = &pg;
    try {
      sr.execute();
    } catch (const Interrupted&) {
      was_interrupted = true;
    } catch (const Error& e) {
      // Could not even start (fixture, program): record it and go on with the others.
      sr.exit_code = e.code();
      sr.error_message = e.what();
      sr.outcome.stop_reason = "error";
      if (!sr.doc.contains("gates")) sr.doc["gates"] = json::array();
      sr.analyse();
    }
    results.put_scenario(sr.doc);
    if (was_interrupted) break;
  }
  progress.clear();

  // Holm across every gated comparison of the run, at the per-look level.
  std::vector<stats::Comparison*> family;
  for (auto& r : runs)
    for (auto& c : r->comparisons)
      if (c.gated) family.push_back(&c);
  // A shard counts the other shards' gated comparisons too (as p = 1): see plan.hpp.
  std::vector<stats::Comparison> others(
      static_cast<std::size_t>(std::max(0, rp.family_total - static_cast<int>(family.size()))));
  for (auto& c : others) {
    c.r.p_wilcoxon = 1;
    c.r.ci = {1, 1};
    c.better = "lower";
    family.push_back(&c);
  }
  stats::decide_family(family, rp.alpha_per_look, rp.noise);

  std::vector<std::string> failures;
  int exit_code = kExitOk;
  auto worse = [](int a, int b) {
    auto rank = [](int c) {
      return c == kExitEquivalence ? 4 : c == kExitRun ? 3 : c == kExitPerformance ? 2 : c ? 1 : 0;
    };
    return rank(b) > rank(a) ? b : a;
  };
  for (auto& r : runs)
    if (!was_interrupted || r.get() != runs.back().get()) r->finalise();
  if (baseline && !was_interrupted) apply_baseline(runs, *baseline, results.document(), rp, options);
  for (auto& r : runs) {
    results.put_scenario(r->doc);
    if (!r->error_message.empty()) failures.push_back(r->sp.manifest.name + ": " + r->error_message);
    for (const auto& g : r->doc["gates"])
      if (g["passed"].is_boolean() && !g["passed"].get<bool>() && g["kind"] != "equivalence")
        failures.push_back(r->sp.manifest.name + ": " + g["kind"].get<std::string>() +
                           " gate failed: " + g["detail"].get<std::string>());
    exit_code = worse(exit_code, r->exit_code);
  }
  std::string status = was_interrupted         ? "interrupted"
                       : exit_code == kExitOk  ? "passed"
                       : exit_code == kExitRun ? "error"
                                               : "failed";
  if (was_interrupted) exit_code = kExitInterrupted;
  std::string stop = was_interrupted         ? "interrupted"
                     : exit_code == kExitOk  ? "completed"
                     : exit_code == kExitRun ? "error"
                                             : "gate failed";
  results.finish(exit_code, status, failures.empty() ? status : failures.front(), failures, stop);

  write_ci_outputs(results.document(), options);
  if (!options.quiet || exit_code != kExitOk) print_verdict_table(std::cout, results.document());
  for (const auto& f : failures) std::cerr << "perfgate: " << f << "\n";
  if (was_interrupted) std::cerr << "perfgate: interrupted; the completed rounds are in the results\n";
  if (!results_path.empty()) std::cerr << "perfgate: results in " << results_path.string() << "\n";
  return exit_code;
}

}  // namespace perfgate::cli
