#include "suite/scenario_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "common/program_path.hpp"
#include "common/shell_words.hpp"
#include "gate/equivalence.hpp"
#include "gate/layout_caveat.hpp"
#include "gate/metric_choice.hpp"
#include "gate/policy.hpp"
#include "gate/self_report.hpp"
#include "gate/work_counts.hpp"
#include "measure/host.hpp"
#include "parity/bundled.hpp"
#include "perfgate/percentile.hpp"
#include "run/contention.hpp"
#include "run/counting_sample.hpp"
#include "stats/power.hpp"
#include "store/layout_spread.hpp"
#include "store/results_codec.hpp"
#include "suite/fingerprint.hpp"
#include "suite/sampling.hpp"
#include "suite/stopping_rule.hpp"

namespace perfgate::suite {

void ScenarioRun::describe() {
  const auto& m = sp.manifest;
  result.name = m.name;
  result.title = m.title;
  result.source = m.source;
  result.summary = m.summary;
  result.kind = m.kind;
  result.profile = sp.profile;
  result.policy = sp.policy;  // the plan's: --policy may override the manifest
  result.primary_metric = m.primary_metric;
  result.params = sp.params;
  result.fingerprint = scenario_fingerprint(sp);
  result.cpus = sp.cpus;
  const auto load = measure::load_average();
  result.load_before.assign(load.begin(), load.end());
  for (const auto& v : sp.variants) {
    result.variants.push_back({v.name, v.label, v.compare_to, v.sweep, v.gated(),
                               v.equivalence.empty() ? "digest" : "extra." + v.equivalence, v.workload});
    result.variant_names.push_back(v.name);
  }
  result.anchors = store::anchors_from_json(m.anchors);  // the manifest's, as declared
}

std::vector<run::VariantCommand> ScenarioRun::commands() const {
  std::vector<run::VariantCommand> out;
  for (const auto& v : sp.variants) {
    run::VariantCommand c;
    c.name = v.name;
    if (const auto* program = sp.program()) {
      // --against: the other build's program runs its own `after` as our `before`.
      auto prog = program->program_of.find(v.name);
      auto as = program->run_as.find(v.name);
      c.argv = {prog != program->program_of.end() ? prog->second : program->program,
                "run",
                "--variant",
                as != program->run_as.end() ? as->second : v.name,
                "--profile",
                sp.profile,
                "--fixture",
                fixture ? fixture->location : "",
                "--params",
                sp.params.dump()};
      c.argv.insert(c.argv.end(), v.args.begin(), v.args.end());
      if (auto it = program->extra_args.find(v.name); it != program->extra_args.end())
        c.argv.insert(c.argv.end(), it->second.begin(), it->second.end());
    } else {
      c.argv = sp.argv_of(v.name);
    }
    if (const auto* user = sp.commands()) {
      c.digest_stdout = true;
      c.masks = user->masks;
      if (auto it = user->side.find(v.name); it != user->side.end()) c.sampling = it->second.sampling;
    }
    if (auto it = sp.workdir.find(v.name); it != sp.workdir.end()) c.workdir = it->second;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<gate::VariantPair> ScenarioRun::pairs() const {
  std::vector<gate::VariantPair> out;
  for (const auto& v : sp.variants)
    if (v.compare_to) out.push_back({v.name, *v.compare_to, v.name == "after" && *v.compare_to == "before"});
  return out;
}

// The metrics the policy judges: one per benchmark of a Google Benchmark scenario, else the primary.
std::vector<std::string> ScenarioRun::gated_metrics() const {
  if (gbench_gated) return {gbench_gated->begin(), gbench_gated->end()};
  if (sp.gbench()) return {sp.gated_metrics.begin(), sp.gated_metrics.end()};
  return {result.primary_metric.empty() ? sp.manifest.primary_metric : result.primary_metric};
}

// The progress line's running after/before ratio of the primary metric's medians.
std::string ScenarioRun::estimate(const std::vector<run::Sample>& samples) const {
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

std::string ScenarioRun::prefix() const {
  return "[" + std::to_string(index + 1) + "/" + std::to_string(count) + " " + sp.manifest.name + "] ";
}

void ScenarioRun::execute() {
  describe();
  prepare_fixture();
  result.fixture = fixture ? fixture->to_json() : json();
  if (sp.manifest.kind == catalog::ScenarioKind::Gbench && !sp.gbench())
    run_gbench_kind();
  else
    run_rounds();
}

run::BatchPlan ScenarioRun::batch_plan() const {
  const auto& m = sp.manifest;
  run::BatchPlan bp;
  bp.scenario = m.name;
  bp.variants = commands();
  bp.cpus = sp.cpus;
  bp.warmup = sp.warmup;
  bp.max_rounds = sp.max_rounds;
  bp.max_time_s = sp.max_time_s;
  bp.timeout_s = sp.timeout_s;
  // ab's budgeted design (stats::BudgetedLooks): the runner stops at checkpoints; a test is due
  // at each look and once more where the next checkpoint would not fit the budget.
  // A budget too short for the first look still tests where it ends, from the fewest rounds one
  // test at the whole alpha can decide in.
  bp.looks = sp.look_budget_s > 0 ? stats::budget_checkpoints(sp.looks, stats::min_rank_rounds(rp.alpha)) : sp.looks;
  bp.duet = sp.schedule == plan::Schedule::Duet;
  bp.counting = m.measure;  // batch samples only: service samples are taken by their own hook
  bp.seed = rp.seed + static_cast<std::uint64_t>(index);
  if (m.fixture_kind == catalog::FixtureKind::Postgres && pg && pg->server && pg->server->throwaway())
    bp.server_cgroup = pg->cgroup.get();
  return bp;
}

// Batch and service kinds: paired rounds with the equivalence (or response) gate checking
// every sample, stopping at a look once every gated metric is decided.
void ScenarioRun::run_rounds() {
  const auto& m = sp.manifest;
  const run::BatchPlan bp = batch_plan();
  result.commands.emplace();
  for (const auto& c : bp.variants) (*result.commands)[c.name] = c.argv;
  if (!sp.workdir.empty()) result.workdirs = sp.workdir;
  if (sp.commands()) {
    result.sampling = json::object();
    for (const auto& c : bp.variants) (*result.sampling)[c.name] = run::to_json(c.sampling);
  }
  for (const auto& c : m.measure) result.notes.push_back(run::counting_note(c));
  if (const auto* user = sp.commands()) {
    for (const auto& mask : user->masks)
      result.notes.push_back("outputs masked before digesting: --mask '" + mask + "'");
    if (!user->check.empty())
      result.notes.push_back("outputs whose digests differ judged by --check: " + join_command(user->check));
  }
  if (script)
    result.notes.push_back("samples scripted by --debug-samples " + script->file().string() +
                           ": no program ran, so these figures measure nothing");
  const std::unique_ptr<Sampling> sampling = choose_sampling(*this);
  StoppingRule stopping(sp, rp, bp.looks, settled);
  run::BatchHooks hooks;
  hooks.on_round = [&](int r, int total, bool warmup) {
    status.update(prefix() + (warmup ? "warm-up " : "round ") + std::to_string(warmup ? r : r - sp.warmup) + "/" +
                  std::to_string(total - sp.warmup) + estimate(outcome.samples));
  };
  hooks.on_sample = [&](const run::Sample& s, const run::SampleFiles& f) { sampling->on_sample(s, f); };
  hooks.take_sample = sampling->take_sample();
  hooks.should_stop = [&](const std::vector<run::Sample>& measured, int look) { return stopping.at(measured, look); };
  // A parity scenario: its own BEFORE and AFTER must agree on every request first (exit 3): a
  // gate of its own, so a disagreement is the failure the table and CI show, not a pass of
  // rounds that never ran.
  std::optional<model::GateResult> agreement;
  std::vector<model::GateResult> after_rounds;  // self-reported figures and work counts, judged on every round
  try {
    if (sampling->service() && parity::wanted(m.service)) {
      agreement = model::GateResult{model::GateKind::Equivalence, "agreement pass"};
      try {
        result.parity = model::Parity{parity::bundled_agreement(*sampling->service(), run_dir.path()), std::nullopt};
      } catch (const gate::EquivalenceFailure& e) {
        agreement->outcome = model::GateOutcome::Failed;
        agreement->detail = e.what();
        throw;
      }
      const auto& a = result.parity->agreement;
      agreement->outcome = model::GateOutcome::Passed;
      agreement->detail = std::to_string(a.value("agreeing", 0)) + " of " + std::to_string(a.value("requests", 0)) +
                          " requests answered alike by before and after";
    }
    run::run_batch(bp, run_dir, hooks, outcome);
    after_rounds = gate::self_report_gates(outcome.samples, m.self_reported, sp.params);
    for (const auto& metric : m.work_counts) after_rounds.push_back(gate::work_count_gate(outcome.samples, metric));
    for (const auto& g : after_rounds)
      if (g.failed()) throw gate::EquivalenceFailure(g.name + ": " + g.detail);
    note_digest_runs(bp);
    if (result.parity && rp.parity_measures)
      result.parity->measures = parity::bundled_measures(*sampling->service(), run_dir.path(), outcome.samples);
    stopping.explain(outcome);
    decided_at_alpha = stopping.alpha_of_last_test();
  } catch (const gate::EquivalenceFailure& e) {
    outcome.stop = run::StopReason::plain(run::StopKind::EquivalenceFailed);
    error_message = e.what();
    // A user's commands whose outputs differ (two compressors, a timestamp): what would let them.
    if (const auto* user = sp.commands(); user && user->check.empty() && !script)
      error_message +=
          "\n  outputs that may differ while the work is the same: --check CMD judges each pair (exit 0 = the "
          "same work),\n  --mask REGEX masks volatile text; --output FILE keeps a command's stdout to look at";
    exit_code = kExitEquivalence;
  } catch (const Interrupted&) {
    record_interrupt(sampling->gates());
    throw;
  } catch (const Error& e) {
    record_error(e);
  }
  result.gates = sampling->gates();
  result.gates.insert(result.gates.end(), after_rounds.begin(), after_rounds.end());
  if (agreement && agreement->failed())
    result.gates = {*agreement};  // the rounds never ran: nothing else was compared
  else if (agreement)
    result.gates.insert(result.gates.begin(), *agreement);
  std::vector<std::string> warnings = sampling->warnings();
  if (!script) {  // scripted samples shared no CPU
    std::vector<std::string> variants, real_timed;
    for (const auto& v : sp.variants) variants.push_back(v.name);
    for (const auto& g : gated_metrics())
      if (const auto at = g.rfind(":real_time"); at != std::string::npos && at + 10 == g.size())
        real_timed.push_back(g.substr(0, at));
    for (auto& w : run::contention_warnings(outcome.samples, variants, real_timed)) warnings.push_back(std::move(w));
  }
  for (const auto& w : warnings) {
    status.note("warning: " + m.name + ": " + w, true);
    result.notes.push_back("warning: " + w);
  }
  if (sp.gbench()) note_gbench_pair();
  analyse();
  run_microbenchmarks();
}

// ab with its timed output on /dev/null or the terminal: where the outputs were compared, and
// what that cannot see.
void ScenarioRun::note_digest_runs(const run::BatchPlan& bp) {
  if (!result.sampling || !run::needs_digest_runs(bp) || script) return;
  (*result.sampling)["digest_rounds"] = outcome.digest_rounds;
  std::string measured;
  for (int r : outcome.digest_rounds)
    if (r > 0) measured += (measured.empty() ? "" : ", ") + std::to_string(r);
  const bool warmup = !outcome.digest_rounds.empty() && outcome.digest_rounds.front() == 0;
  const std::string rounds = (warmup ? std::string("the warm-up") : "") + (warmup && !measured.empty() ? " and " : "") +
                             (measured.empty() ? "" : "measured rounds " + measured);
  result.notes.push_back(
      "timed runs wrote their stdout to /dev/null (--output null, hyperfine's default) or the terminal; the outputs "
      "were compared in untimed digest runs of both commands at " +
      rounds + " (the first round of all, the last and a seeded eighth of the others, at most one in eight rounds" +
      (warmup ? "; a warm-up's own runs are its digest runs, writing into a pipe perfgate reads" : "") +
      "). A program that does less when its stdout is /dev/null is timed doing less: --output pipe times it "
      "writing into a pipe perfgate drains");
}

void ScenarioRun::record_error(const Error& e) {
  outcome.stop = run::StopReason::plain(run::StopKind::Error);
  error_message = e.what();
  exit_code = e.code();
}

void ScenarioRun::record_interrupt(std::vector<model::GateResult> gates) {
  outcome.stop = run::StopReason::plain(run::StopKind::Interrupted);
  result.gates = std::move(gates);
  analyse();
}

void ScenarioRun::fail(const Error& e) {
  record_error(e);
  analyse();
}

void ScenarioRun::analyse() {
  result.samples = outcome.samples;
  result.summaries = gate::summarize_samples(outcome.samples);
  // Per variant: what its CPUs lost to the hypervisor and how much of the wall noise that was.
  result.steal.emplace();
  for (const auto& v : sp.variants) (*result.steal)[v.name] = run::summarise_steal(outcome.samples, v.name);
  result.comparisons = gate::compare_samples(outcome.samples, pairs(),
                                             gbench_gated ? *gbench_gated : gated_for(sp, outcome.samples), rp.seed);
  // A Google Benchmark scenario gates each benchmark: the manifest's "cpu_time" names none, so
  // the first gated one is the scenario's key figure where one is shown.
  if (const auto gated = gated_metrics(); (sp.gbench() || gbench_gated) && !gated.empty() &&
                                          std::find(gated.begin(), gated.end(), result.primary_metric) == gated.end())
    result.primary_metric = gated.front();
  for (auto& note : gate::check_declared_exact(result.summaries, result.comparisons))
    result.notes.push_back(std::move(note));
  // A run that measured nothing chose nothing: no line saying why a metric was gated.
  const bool measured_any =
      std::any_of(outcome.samples.begin(), outcome.samples.end(), [](const run::Sample& x) { return !x.warmup; });
  if (sp.metric_selection == plan::MetricSelection::ChosenAfterRounds && measured_any) {
    auto choice = gate::choose_ab_metric(outcome.samples);
    result.metric_choice = store::choice_view(choice);
    result.primary_metric = choice.metric;
  }
  std::vector<model::Comparison*> informational;
  for (auto& c : result.comparisons) {
    if (!c.gated) informational.push_back(&c);
    // A no-regress gate's "the same" is "not worse beyond the band"; every other comparison's
    // is "inside ±band".
    if (c.gated && sp.policy == catalog::Policy::NoRegress) c.same_means = stats::SameMeans::NotWorse;
  }
  gate::decide_exploratory(informational, rp.alpha, rp.noise);
  // The series (summarised) and extra figures of each variant's last measured sample that has them.
  result.series.emplace();
  result.extra.emplace();
  for (auto it = outcome.samples.rbegin(); it != outcome.samples.rend(); ++it) {
    if (it->warmup) continue;
    if (!it->series.empty()) result.series->emplace(it->variant, it->series);
    if (!it->extra.empty()) result.extra->variants.emplace(it->variant, it->extra);
  }
  result.series_summaries = gate::summarize_series(*result.series);
  result.stop = model::Stop{outcome.stop.kind, outcome.stop.text, outcome.rounds, outcome.looks_taken};
  const auto load = measure::load_average();
  result.load_after = std::vector<double>(load.begin(), load.end());
  const auto warm = std::ranges::count_if(outcome.samples, [](const run::Sample& s) { return s.warmup; });
  if (warm)
    result.excluded.push_back({std::to_string(warm) + " warm-up samples",
                               "warm-up rounds fill caches and page in the program; they are kept in "
                               "samples but left out of every summary and comparison"});
  if (!error_message.empty()) result.error = model::ScenarioResult::Error{exit_code, error_message, std::nullopt};
  result.reproduce = reproduce;
}

const model::Comparison* ScenarioRun::find(const std::string& variant, const std::string& metric) const {
  for (const auto& c : result.comparisons)
    if (c.variant == variant && c.baseline == "before" && c.metric == metric) return &c;
  return nullptr;
}

namespace {

// The file a variant's program is: argv[0] in the folder it ran in, or on PATH; empty when none.
std::filesystem::path program_of(const model::ScenarioResult& r, const std::string& variant) {
  const auto argv = r.commands->find(variant);
  if (argv == r.commands->end() || argv->second.empty()) return {};
  const std::filesystem::path program = argv->second.front();
  if (program.is_absolute()) return program;
  if (argv->second.front().find('/') != std::string::npos) {
    const auto dir = r.workdirs ? r.workdirs->find(variant) : std::map<std::string, std::string>::const_iterator{};
    return r.workdirs && dir != r.workdirs->end() ? std::filesystem::path(dir->second) / program : program;
  }
  try {
    return resolve_program(argv->second.front());
  } catch (const Error&) {
    return {};
  }
}

std::optional<std::string> layout_caveat_of(const model::ScenarioResult& r) {
  if (!r.commands) return std::nullopt;
  const auto before = program_of(r, "before"), after = program_of(r, "after");
  if (before.empty() || after.empty()) return std::nullopt;
  // The spread `calibrate --layouts` measured on a machine of this CPU model, when there is one.
  auto spread = store::read_layout_spread(after.filename().string());
  if (spread && spread->cpu_model != measure::host_info().cpu_model) spread.reset();
  return gate::layout_caveat(before, after, r.comparisons, spread);
}

}  // namespace

void ScenarioRun::finalise() {
  if (exit_code != kExitOk) return;  // equivalence or run failure: no performance verdict
  const std::string primary = result.primary_metric.empty() ? sp.manifest.primary_metric : result.primary_metric;
  bool ok = true;
  for (const auto& metric : gated_metrics()) {  // one per benchmark of a Google Benchmark scenario
    const model::GateResult g = gate::policy_gate(find("after", metric), metric, sp.policy);
    result.gates.push_back(g);
    ok = ok && !g.failed();
  }
  // Whatever is gated, the guard metric (wall time) must not regress beyond its noise.
  // A guard metric this kind of scenario does not measure (a gbench binary has no wall_ms) is
  // a note, not a gate: a gate that checked nothing must not read as a pass.
  const auto& guard = sp.manifest.guard;
  const model::Comparison* guarded =
      guard.metric != "none" && guard.metric != primary ? find("after", guard.metric) : nullptr;
  if (guard.metric != "none" && guard.metric != primary && !guarded)
    result.notes.push_back("guard: " + guard.metric + " was not measured on both sides, so nothing guards it");
  if (guarded) {
    const model::GateResult gg = gate::guard_gate(guarded, guard, gate::guard_band(outcome.samples, guard, rp.noise));
    ok = ok && !gg.failed();
    result.gates.push_back(gg);
  }
  if (sp.policy == catalog::Policy::Improve)
    for (const auto& claim : sp.claims) {
      const model::GateResult cg = gate::claim_gate(find("after", claim.metric), claim);
      if (auto note = gate::beyond_claim_note(find("after", claim.metric), claim)) result.notes.push_back(*note);
      ok = ok && !cg.failed();
      result.gates.push_back(cg);
    }
  if (result.parity)  // exact per-route statement counts of AFTER (parity/bundled.hpp)
    for (const auto& sg : parity::statement_gates(result.parity->agreement, sp.manifest.service)) {
      ok = ok && sg.passed;
      result.gates.emplace_back(model::GateKind::Claim, "statements per request on " + sg.route,
                                model::passed_if(sg.passed), sg.detail);
    }
  // Rounds stopped once a gate had decided against AFTER: what they left open says why.
  if (outcome.stop.kind == run::StopKind::FailedAtLook)
    for (auto& g : result.gates)
      if (g.cannot_tell())
        g.detail += " — stopped early at round " + std::to_string(outcome.rounds) +
                    ": a gate had decided against AFTER (--decide-all decides every comparison)";
  const bool cannot_tell =
      std::any_of(result.gates.begin(), result.gates.end(), [](const model::GateResult& g) { return g.cannot_tell(); });
  if (!ok)
    exit_code = kExitPerformance;
  else if (cannot_tell)
    exit_code = kExitCannotTell;
  fill_anchors();
  if (auto caveat = layout_caveat_of(result)) result.notes.push_back(*caveat);
}

// The write-ups' published figures beside ours: each anchor gets our medians and their ratio.
void ScenarioRun::fill_anchors() {
  auto median = [&](const std::string& variant, const std::string& metric) -> std::optional<double> {
    const auto v = result.summaries.find(variant);
    if (v == result.summaries.end()) return std::nullopt;
    const auto m = v->second.find(metric);
    return m == v->second.end() ? std::nullopt : std::optional(m->second.s.median);
  };
  for (auto& a : result.anchors) {
    const auto b = median(a.before_variant, a.metric), af = median(a.after_variant, a.metric);
    if (b && af) a.ours = model::Anchor::Ours{*b, *af, *b != 0 ? std::optional(*af / *b) : std::nullopt};
  }
}

}  // namespace perfgate::suite
