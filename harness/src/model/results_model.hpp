// The results of a run as values: what a scenario measured, compared and decided, and the
// accepted baseline entries it is checked against. Structs only: the JSON keys they are read
// from and written as belong to one module, store/results_codec.hpp (docs/results-schema.md).
// Gates fill these, the suite assembles them, every writer and reader of a results file takes
// them.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "catalog/kinds.hpp"
#include "common/defaults.hpp"
#include "model/run_sections.hpp"
#include "perfgate/better.hpp"
#include "perfgate/enum_names.hpp"
#include "run/sample.hpp"
#include "run/stop_reason.hpp"
#include "stats/paired.hpp"
#include "stats/summary.hpp"
#include "stats/verdict.hpp"

namespace perfgate::model {

struct MetricSummary {
  stats::Summary s;
  std::string unit;
  Better better = Better::Lower;
  std::string source;
  bool exact = false;  // declared exact (run::MetricValue::exact)
};
// variant → metric → summary, over measured (non-warm-up) samples.
using Summaries = std::map<std::string, std::map<std::string, MetricSummary>>;

// One series a program recorded in a variant's last measured sample (per-page times,
// per-request latencies), summarised by the harness: the report reads its quantiles.
struct SeriesSummary {
  stats::Summary s;
  std::string unit;
};
using SeriesSummaries = std::map<std::string, std::map<std::string, SeriesSummary>>;  // variant → series →

// One metric of one variant against its compare_to, paired by round.
struct Comparison {
  std::string variant, baseline, metric, unit;
  Better better = Better::Lower;
  bool gated = false;
  // Both sides declared the metric exact: host-independent (run::MetricValue::exact). None: a
  // results file from before metrics were declared says nothing.
  std::optional<bool> exact;
  stats::PairedRatio r;
  double confidence = 0.95;  // the level asked for (r.ci_confidence: the level achieved)
  double p_adjusted = 1;
  stats::Verdict verdict = stats::Verdict::CannotTell;
  // What "the same" asks of it: not worse beyond the band (a no-regress gate), or inside ±band.
  stats::SameMeans same_means = stats::SameMeans::Equivalent;
  // Cannot tell: the rounds its observed spread needs to decide (stats::rounds_to_decide).
  std::optional<int> rounds_to_decide;
  // The interval the verdict was decided on, at its level (stats::Decided::confidence; the
  // achieved Walsh level, lower with too few rounds): `r.ci` is the 95% figure, this is what the
  // band was held against. A gated comparison's row shows this one. None in files from before.
  std::optional<stats::Interval> decision_ci;
  double decision_confidence = 0.95;
  double decision_alpha = defaults::kAlpha;  // the two-sided level that test ran at (1 - the level asked)
  // The smallest slowdown this comparison would have flagged with 80% power (stats/power.hpp)
  // at alpha_corrected, noise band included; null when its rounds cannot decide at all.
  double alpha_corrected = defaults::kAlpha;
  std::optional<double> detectable_effect;
};

enum class GateKind { Equivalence, Policy, Guard, Claim, Baseline };
constexpr auto names(GateKind) {
  return in_declaration_order<GateKind>({"equivalence", "policy", "guard", "claim", "baseline"});
}

// How a run ended (results' outcome.status, and in other words run.stop_reason, which the
// codec derives from it): running until it ends, so a file left by a killed run says so.
enum class RunStatus { Running, Passed, Failed, CannotTell, Interrupted, Error };
constexpr auto names(RunStatus) {
  return in_declaration_order<RunStatus>({"running", "passed", "failed", "cannot tell", "interrupted", "error"});
}

// One gate's outcome. A comparison's state is stats::Verdict; a gate judges one (or a count,
// an equality) and ends in one of these. Undecided: there was nothing to decide on (no
// comparable baseline, nothing compared): never a pass. CannotTell: judged, and the evidence
// decides neither way (exit 5 unless --cannot-tell says otherwise).
enum class GateOutcome { Passed, Failed, CannotTell, Undecided };
constexpr auto names(GateOutcome) {
  return in_declaration_order<GateOutcome>({"passed", "failed", "cannot tell", "undecided"});
}
constexpr GateOutcome passed_if(bool passed) { return passed ? GateOutcome::Passed : GateOutcome::Failed; }

// One gate's decision.
struct GateResult {
  GateResult() = default;
  GateResult(GateKind kind_, std::string name_, GateOutcome outcome_ = GateOutcome::Undecided, std::string detail_ = {})
      : kind(kind_), name(std::move(name_)), outcome(outcome_), detail(std::move(detail_)) {}
  GateKind kind = GateKind::Equivalence;
  std::string name;
  GateOutcome outcome = GateOutcome::Undecided;
  std::string detail;
  std::optional<double> band;  // guard: the noise band the guard metric may move within
  // The metric the gate judged (policy, guard, claim, baseline), whose comparison the verdict
  // table prints beside it; empty for a gate of no metric (equivalence, a statement count).
  std::string metric;
  std::optional<double> factor;  // claim: the factor AFTER must clear
  bool passed() const { return outcome == GateOutcome::Passed; }
  bool failed() const { return outcome == GateOutcome::Failed; }
  bool cannot_tell() const { return outcome == GateOutcome::CannotTell; }
};

// One accepted run of a baseline entry. The host class (CPU model and core count) groups runs
// whose ratios are expected to agree; the fingerprint (kernel, memory, cgroup layout too) is
// finer.
struct AcceptedRun {
  double ratio = 1;
  std::array<double, 2> ci{1, 1};
  int n = 0;
  std::string cpu_model, host_fingerprint;
  int cores = 0;
  std::string commit, run_id, recorded_at;
  // What determined its figures (ScenarioResult::fingerprint); empty for a run recorded before
  // fingerprints, which no build can vouch for.
  std::string fingerprint;
  std::string host_class() const { return cpu_model + " x" + std::to_string(cores); }
};

// The accepted AFTER/BEFORE ratio of one scenario × profile × gated metric (baseline.json).
struct BaselineEntry {
  std::string scenario, profile, metric;
  std::string variant = "after", compare_to = "before";
  std::string unit;
  Better better = Better::Lower;
  // The metric is declared exact: compared on every host class with the same core count. None:
  // not said (a results file or entry from before metrics were declared).
  std::optional<bool> exact;
  double ratio = 1;
  std::array<double, 2> ci{1, 1};
  double confidence = 0.95;
  int n = 0;
  double before_median = 0, after_median = 0;
  std::array<double, 2> before_median_ci{0, 0}, after_median_ci{0, 0};
  std::string host_fingerprint;
  nlohmann::json host = nlohmann::json::object();  // cpu_model, cores, kernel: for people reading the file
  std::string commit;
  bool dirty = false;
  std::string run_id, recorded_at;
  std::string fingerprint;          // the newest run's (AcceptedRun::fingerprint)
  std::optional<double> tolerance;  // overrides --baseline-tolerance for this entry (a fraction)
  // Every accepted run, oldest first; the fields above are the newest one's. A schema-1 entry
  // reads as one run.
  std::vector<AcceptedRun> runs;

  AcceptedRun as_run() const {  // this entry's own figures as one accepted run
    AcceptedRun a{ratio,  ci,          n,          host.value("cpu_model", "unknown"), host_fingerprint, 0, commit,
                  run_id, recorded_at, fingerprint};
    if (a.cpu_model.empty()) a.cpu_model = "unknown";
    if (host.contains("cores") && host["cores"].is_number_integer()) a.cores = host["cores"].get<int>();
    return a;
  }
  std::string host_class() const { return as_run().host_class(); }
  std::string key() const { return scenario + "/" + profile + "/" + metric; }
};

struct Baseline {
  std::filesystem::path file;
  bool exists = false;
  std::vector<BaselineEntry> entries;
  const BaselineEntry* find(const std::string& scenario, const std::string& profile, const std::string& metric) const {
    for (const auto& e : entries)
      if (e.scenario == scenario && e.profile == profile && e.metric == metric) return &e;
    return nullptr;
  }
};

// One variant of a scenario as it ran: the manifest's, and what it is compared with.
struct VariantInfo {
  std::string name, label;
  std::optional<std::string> compare_to;  // none for a reference variant
  nlohmann::json sweep;                   // sweep coordinates (buffer size, capacity, ...) or null
  bool gated = false;
  std::string equivalence = "digest";  // "digest", or "extra.<field>" compared instead
  std::string workload;                // service scenarios: which workload drove it
};

// A write-up's published figure, as the manifest declares it, beside this run's medians.
struct Anchor {
  std::string metric, before_variant = "before", after_variant = "after";
  nlohmann::json declared = nlohmann::json::object();  // label, unit, the published figures
  struct Ours {
    double before = 0, after = 0;
    std::optional<double> ratio;  // none when BEFORE's median is 0
  };
  std::optional<Ours> ours;  // none when either variant did not measure the metric
};

// Samples kept in the file but left out of every summary, and why.
struct Excluded {
  std::string what, why;
};

// Why the rounds stopped (run/stop_reason.hpp: the kind, none for words of no known kind, and
// the words), after how many, and the rounds at which the looks fell.
struct Stop {
  std::optional<run::StopKind> kind;
  std::string reason;
  int rounds = 0;
  std::vector<int> looks;
};

// A manifest's microbenchmarks (service.gbench), run once after the rounds: gates nothing.
struct Microbenchmarks {
  std::string program;
  nlohmann::json context = nlohmann::json::object();  // Google Benchmark's context block
  struct Row {
    std::string name;
    double real_time = 0, cpu_time = 0;
    std::string time_unit = "ns";
    std::int64_t iterations = 0;
  };
  std::vector<Row> rows;
};

// The program's own extra figures, per variant (its last measured sample's), and what a
// Google Benchmark scenario adds.
struct Extra {
  std::map<std::string, nlohmann::json> variants;
  std::optional<nlohmann::json> gbench_context;  // kind gbench: the binary's context block
  std::optional<Microbenchmarks> microbenchmarks;
};

// The parity pass of a service scenario (parity/bundled.hpp): the agreement of BEFORE and
// AFTER on every request, and each variant's measures after the rounds.
struct Parity {
  nlohmann::json agreement = nlohmann::json::object();
  std::optional<nlohmann::json> measures;
};

// The PostgreSQL server a scenario's samples used, and the template its database was cloned from.
struct PostgresInfo {
  std::string server, version, template_name;
  bool throwaway = true;  // false: an external server (PERFGATE_PG_DSN)
};

// One scenario of a results document. What the engine decides on and every reader uses is
// typed; sections only written for people and the report (a fixture's figures, steal, series,
// the parity pass) are typed as opaque JSON values, their keys still only the codec's. An
// optional section is absent from the file when empty; `other` keeps whatever else a file
// read held, so a file read and written back is equal.
struct ScenarioResult {
  std::string name, profile;
  // None: a file that does not say (written back without the key).
  std::optional<catalog::ScenarioKind> kind;
  std::optional<catalog::Policy> policy;
  std::string primary_metric;
  std::string title, source, summary;      // the manifest's words
  std::vector<std::string> variant_names;  // in run order, as in `variants`
  std::vector<VariantInfo> variants;
  nlohmann::json params = nlohmann::json::object();
  std::vector<int> cpus;
  std::vector<double> load_before;  // 1/5/15-minute load averages as the scenario started
  std::optional<std::vector<double>> load_after;
  std::vector<Anchor> anchors;
  std::vector<Excluded> excluded;
  std::vector<std::string> notes;
  std::optional<nlohmann::json> fixture;  // null: the scenario has none; absent: never prepared
  std::optional<PostgresInfo> postgres;
  std::optional<std::map<std::string, std::vector<std::string>>> commands;  // variant → argv
  std::optional<std::map<std::string, std::string>> workdirs;  // variant → the folder its samples ran in (ab)
  // ab: how its samples ran (output, input, digest runs, the commands around them), as
  // run::to_json(AbSampling) wrote it: written for people and the report.
  std::optional<nlohmann::json> sampling;
  std::optional<std::vector<std::string>> phases;  // a phased service's phases, in run order
  std::optional<Parity> parity;
  std::optional<std::map<std::string, nlohmann::json>> steal;   // per variant (run::summarise_steal)
  std::optional<std::map<std::string, nlohmann::json>> series;  // per variant: the last sample's series
  std::optional<SeriesSummaries> series_summaries;              // of `series`; none in a file written before them
  std::optional<Extra> extra;
  std::optional<Stop> stop;
  std::optional<std::string> reproduce;  // the command that re-runs exactly this scenario
  // What determines its figures: the scenario's sources, manifest and profile params, and
  // perfgate's measurement version (suite/fingerprint.hpp). A baseline run with another one is stale.
  std::string fingerprint;
  std::vector<run::Sample> samples;
  Summaries summaries;
  std::vector<Comparison> comparisons;
  std::vector<GateResult> gates;
  struct Error {
    int exit_code = 0;
    std::string message;
    std::optional<std::string> stderr_tail;
  };
  std::optional<Error> error;  // when the scenario could not be run
  struct MergedFrom {
    std::string file, run_id, host_fingerprint;
    std::optional<Shard> shard;
  };
  std::optional<MergedFrom> merged_from;  // a merged shard's own origin (its host may differ from the run's)
  // The baseline gate's and the metric choice's figures: what the verdict table shows of them
  // typed, the rest as their own encoders wrote it.
  struct BaselineView {
    nlohmann::json encoded;  // the whole entry as the baseline gate's figures were written
    std::string metric, variant;
    bool compared = false;
    double now_ratio = 0, accepted_ratio = 0, change = 1;
    std::array<double, 2> change_ci{1, 1};
    std::string rule;
    std::optional<stats::Verdict> verdict;  // none in a file that did not say
    bool absolute_compared = false;
    double absolute_change = 1;
    std::optional<stats::Verdict> absolute_verdict;
  };
  std::vector<BaselineView> baseline;  // one per gated metric compared with the baseline
  struct ChoiceView {
    std::string metric, why;
    nlohmann::json figures = nlohmann::json::object();  // the rest, as gate::to_json(MetricChoice) wrote it
  };
  std::optional<ChoiceView> metric_choice;  // ab --metric auto
  nlohmann::json other = nlohmann::json::object();

  // The measured (non-warm-up) values of one variant's metric, in round order.
  std::vector<double> measured_values(const std::string& variant, const std::string& metric) const;
  const Comparison* find(const std::string& variant, const std::string& metric) const {
    for (const auto& c : comparisons)
      if (c.variant == variant && c.metric == metric) return &c;
    return nullptr;
  }
  bool equivalence_failed() const {
    for (const auto& g : gates)
      if (g.kind == GateKind::Equivalence && g.failed()) return true;
    return false;
  }
};

// What the readers use of a run's header and host; the rest travels in `other`.
// One input of `perfgate merge`, in the merged run's header.
struct MergeSource {
  std::string file, run_id, host_fingerprint, hostname, commit;
  std::optional<Shard> shard;
  int exit_code = 0;
};

// The baseline.json a run compared with, or why it compared with none.
struct BaselineRef {
  std::optional<std::string> file;  // none: no baseline (`why` says why)
  bool exists = false;              // the file was there (a missing one compares nothing)
  double tolerance = 0;
  std::string why;
};

struct RunHeader {
  std::string id, commit = "unknown", profile, started_at;
  std::string finished_at;  // empty while the run is going (written as null)
  std::vector<std::string> command_line;
  bool dirty = false;
  std::optional<std::string> branch;  // of the repository `commit` is from; none when unknown (detached)
  std::optional<Shard> shard;
  std::vector<MergeSource> merged_from;
  // Written by `perfgate run`, `ab`, `batch` and `lies` (a merged run keeps its inputs' in `other`).
  std::optional<std::string> reproduce, perfgate_version, git_source;
  // `commit` is the measured project's (the catalog's repository, ab's working folder); this is
  // perfgate's own, so a change of tool is never mistaken for a change of the project.
  std::optional<std::string> perfgate_commit;
  // A --catalog run's folder (absolute): baseline.json in it is the run's default baseline, and
  // `baseline update|check` of these results default to it too.
  std::optional<std::string> catalog;
  std::optional<std::uint64_t> seed;
  std::optional<nlohmann::json> options;  // the plan's options (plan::RunPlan::options_json)
  std::optional<BaselineRef> baseline;
  std::optional<double> started_unix, finished_unix;
  std::optional<std::vector<std::string>> lies;  // `perfgate lies`: the lie's args given to AFTER
  std::optional<AgainstBuild> against;
  std::optional<BatchRun> batch;
  std::optional<BisectStep> bisect;
  std::optional<LockWait> lock;  // --lock of a run (a batch's is in its section)
  nlohmann::json other = nlohmann::json::object();
};
struct HostInfo {
  std::string fingerprint, cpu_model, kernel, hostname;
  std::string note;  // e.g. a merged run's several hosts
  int cores = 0;
  std::vector<double> load_before, load_after;      // 1/5/15-minute load averages; empty when not taken
  nlohmann::json other = nlohmann::json::object();  // allowed CPUs, memory, cgroup layout (measure::to_json)
};

struct ResultsDoc {
  RunHeader run;
  HostInfo host;
  std::vector<ScenarioResult> scenarios;
  struct Outcome {
    int exit_code = 0;
    RunStatus status = RunStatus::Running;
    std::string message;
    std::vector<std::string> failures;
  } outcome;
  // The host a scenario was measured on: its own (merged shards may come from several perf
  // VMs) or the run's.
  std::string host_fingerprint(const ScenarioResult& s) const {
    return s.merged_from ? s.merged_from->host_fingerprint : host.fingerprint;
  }
  const ScenarioResult* find(const std::string& name, const std::string& profile) const {
    for (const auto& s : scenarios)
      if (s.name == name && s.profile == profile) return &s;
    return nullptr;
  }
};

}  // namespace perfgate::model
