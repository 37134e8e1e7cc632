#include "cli/flag_groups.hpp"

#include <sstream>

#include "catalog/counting_measures.hpp"
#include "perfgate/enum_names.hpp"

namespace perfgate::cli::flags {

namespace {

CLI::Option* shared(CLI::Option* o) { return o->group(kShared); }

// A percentage on the command line, a fraction in the plan (a plain value, or a request's
// optional one).
template <typename Fraction>
CLI::Option* percent(CLI::App* cmd, const std::string& name, Fraction& fraction, const std::string& help) {
  return shared(cmd->add_option_function<double>(
                       name, [&fraction](double pct) { fraction = pct / 100.0; }, help)
                    ->check(CLI::Range(0.0, 99.0)));
}

// A default as its help text shows it: 0.05, 2, 600.
std::string shown(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

const char* const kScenarioHelp = "NAME: a scenario of the catalog (repeatable where the command takes several)";

}  // namespace

void rounds(CLI::App* cmd, plan::RunOptions& o) {
  shared(
      cmd->add_option("--min-rounds", o.min_rounds,
                      "Measured rounds before the first look (default: run and batch " + shown(defaults::kMinRounds) +
                          ", or the profile's; ab and "
                          "gbench 8, or the fewest at which a rank test of the run's family (its pairs, -P values or "
                          "benchmarks) can decide)")
          ->check(CLI::Range(2, 100000)));
  shared(cmd->add_option(
                "--max-rounds", o.max_rounds,
                "Measured rounds at most (default: run and batch " + shown(defaults::kMaxRounds) +
                    ", or the profile's; ab and gbench: "
                    "looks growing by a fifth from --min-rounds to 640 while they fit 50 s; the results record both). "
                    "--min-rounds N --max-rounds N is one look at the full alpha, which an exact paired test "
                    "reaches from 6 rounds for one comparison, ceil(log2(2m/alpha)) for m")
             ->check(CLI::Range(2, 100000)));
  shared(cmd->add_flag("--decide-all", o.decide_all,
                       "Take rounds until every gated comparison is decided, even after a gate has failed (default: "
                       "a scenario stops once a gate decided against AFTER, since more rounds cannot turn it green; "
                       "what it left open says cannot tell)"));
  shared(cmd->add_option("--max-time", o.max_time_s,
                         "Seconds the rounds may take: run and batch stop after the round that passes it (default: "
                         "no limit); ab and gbench fit their looks into it (default 50)")
             ->check(CLI::PositiveNumber));
  shared(cmd->add_option("-w,--warmup", o.warmup,
                         "Warm-up rounds, run and discarded (default " + shown(defaults::kWarmup) + ")")
             ->check(CLI::Range(0, 1000)));
}

void exact_rounds(CLI::App* cmd, int& rounds) {
  shared(cmd->add_option("--rounds", rounds, "N: exactly N measured rounds")
             ->check(CLI::Range(2, 100000))
             ->capture_default_str());
}

void timeout(CLI::App* cmd, std::optional<double>& seconds) {
  shared(cmd->add_option("--timeout", seconds,
                         "Seconds one sample may take before it is killed (default " + shown(defaults::kTimeoutS) + ")")
             ->check(CLI::PositiveNumber));
}

void policy(CLI::App* cmd, std::optional<catalog::Policy>& p) {
  shared(cmd->add_option_function<std::string>(
                "--policy", [&p](const std::string& word) { p = from_name<catalog::Policy>(word); },
                "improve: AFTER must be significantly better; no-regress: AFTER must not be significantly worse "
                "(ab default; scenarios: their manifest's)")
             ->check(CLI::IsMember(all_names<catalog::Policy>())));
}

namespace {

template <typename Fraction>
void noise_into(CLI::App* cmd, Fraction& fraction) {
  percent(cmd, "--noise", fraction,
          "PCT: the noise band in percent: a change within it is never called a change (default " +
              shown(defaults::kNoise * 100) + "; bisect: a commit is slower only beyond +PCT)");
}

template <typename Level>
void alpha_into(CLI::App* cmd, Level& alpha) {
  shared(cmd->add_option(
                "--alpha", alpha,
                "Family-wise error rate of the command's gated comparisons (default " + shown(defaults::kAlpha) + ")")
             ->check(CLI::Range(0.000001, 0.5)));
}

}  // namespace

void noise(CLI::App* cmd, double& fraction) { noise_into(cmd, fraction); }
void noise(CLI::App* cmd, std::optional<double>& fraction) { noise_into(cmd, fraction); }
void alpha(CLI::App* cmd, double& alpha) { alpha_into(cmd, alpha); }
void alpha(CLI::App* cmd, std::optional<double>& alpha) { alpha_into(cmd, alpha); }

void seed(CLI::App* cmd, std::optional<std::uint64_t>& seed) {
  shared(cmd->add_option("--seed", seed,
                         "Seed of the round order and the bootstrap (default: random, recorded in the results)"));
}

void builds(CLI::App* cmd, plan::BuildSource& source, int& layout_rounds) {
  shared(
      cmd->add_option("--build", source.build,
                      "CMD: the build command, run with sh -c in each worktree it builds (a commit's, a revision's,\n"
                      "a layout's; e.g. make)"));
  shared(cmd->add_option("--repo", source.repo, "DIR: the git repository (default: the current folder)"));
  shared(cmd->add_option("--cache", source.cache,
                         "DIR: where worktrees and builds are kept, one per commit (and per layout seed with\n"
                         "--layouts), reused while the commit and build command are the same; bisect keeps its\n"
                         "finished steps there too (default ~/.cache/perfgate/bisect/REPO-HASH; bisect --clean\n"
                         "removes it)"));
  shared(cmd->add_option("--layouts", source.layouts,
                         "K: layouts (docs/layout.md): each side built K ways (PERFGATE_LAYOUT_SEED=1..K, CC and CXX\n"
                         "through perfgate-layout-cc), or ab's commands naming layout K's build with {layout}; ab and\n"
                         "bisect decide over the K layout pairs, calibrate measures how far layout alone moves the\n"
                         "program")
             ->check(CLI::Range(2, 64)));
  shared(cmd->add_option("--layout-rounds", layout_rounds, "N: paired rounds of each layout with --layouts")
             ->check(CLI::Range(2, 1000))
             ->capture_default_str());
}

void cpus(CLI::App* cmd, std::optional<std::vector<int>>& cpus) {
  shared(cmd->add_option_function<std::string>(
      "--cpus", [&cpus](const std::string& s) { cpus = plan::parse_cpu_list(s); },
      "LIST: CPUs to pin samples to, e.g. 1 or 0-1 (default: a scenario's count, taken from the last CPUs; ab: every "
      "CPU this process may use, as hyperfine; --duet: the last two)"));
}

void out_dir(CLI::App* cmd, std::string& dir, bool short_o) {
  shared(cmd->add_option(short_o ? "-o,--out" : "--out", dir, "DIR: the folder the command writes its documents into")
             ->capture_default_str());
}

void json_file(CLI::App* cmd, std::string& file, bool short_o) {
  shared(cmd->add_option(short_o ? "-o,--json" : "--json", file,
                         "FILE: write the command's JSON document here (run, ab, gbench, batch: the results; wins over "
                         "--out)"));
}

void run_outputs(CLI::App* cmd, plan::RunOptions& o) {
  o.outputs.out_dir = defaults::kOutDir;
  out_dir(cmd, o.outputs.out_dir);
  json_file(cmd, o.outputs.json_path);
  shared(cmd->add_option("--junit", o.outputs.junit, "FILE: also write JUnit XML here, one test case per gate"));
  shared(cmd->add_option("--export-gbench", o.outputs.gbench,
                         "FILE: also write the samples in Google Benchmark's JSON format here (for its compare.py)"));
  shared(cmd->add_flag("-q,--quiet", o.outputs.quiet, "No progress line, and no table when every gate passed"));
  shared(cmd->add_option_function<std::string>(
                "--cannot-tell",
                [&o](const std::string& word) { o.outputs.cannot_tell = *from_name<plan::CannotTellExit>(word); },
                "fail|warn|pass: when a gated comparison cannot tell (too few rounds, or time ran out before its "
                "interval left the band's edge): exit 5 (fail, default), exit 0 with a warning, or exit 0; "
                "PERFGATE_CANNOT_TELL sets it for a whole CI job")
             ->envname("PERFGATE_CANNOT_TELL")
             // A transform, not a check: a check validates a copy and hands the callback "PASS" as typed.
             ->transform(CLI::IsMember(all_names<plan::CannotTellExit>(), CLI::ignore_case)));
}

const char* const kBaselineHelp =
    "FILE: the baseline (baseline.json), or none (default: share/perfgate/baseline.json, the "
    "committed one; a --catalog run's DIR/baseline.json; ab: none)";

void baseline_file(CLI::App* cmd, std::string& file) { shared(cmd->add_option("--baseline", file, kBaselineHelp)); }

void baseline_choice(CLI::App* cmd, std::optional<catalog::BaselineChoice>& choice) {
  shared(cmd->add_option_function<std::string>(
      "--baseline", [&choice](const std::string& word) { choice = catalog::BaselineChoice::from_flag(word); },
      kBaselineHelp));
}

void baseline_tolerance(CLI::App* cmd, double& fraction) {
  percent(cmd, "--baseline-tolerance", fraction,
          "PCT: how far a ratio may move from the baseline's before it can fail (default " +
              shown(defaults::kBaselineTolerance * 100) + "; an entry's own wins)");
}

void baseline(CLI::App* cmd, plan::RunOptions& o) {
  baseline_choice(cmd, o.baseline);
  baseline_tolerance(cmd, o.baseline_tolerance);
}

void lock(CLI::App* cmd, plan::RunOptions& o) {
  shared(cmd->add_option("--lock", o.lock_file,
                         "FILE: measure only while holding this machine's lock, the one every perfgate run, ab, "
                         "gbench, bisect and batch given it shares (the others wait)"));
  shared(cmd->add_option("--lock-timeout", o.lock_timeout_s, "Seconds to wait for --lock")
             ->check(CLI::PositiveNumber)
             ->capture_default_str());
}

void measure(CLI::App* cmd, std::vector<std::string>& measures) {
  shared(cmd->add_option("--measure", measures,
                         "allocs|instructions: counting samples beside the timed ones. instructions: one run per\n"
                         "sample under valgrind (cachegrind, no cache simulation), gated as metric instructions (Ir):\n"
                         "a noise-free proxy for CPU time, blind to syscalls, I/O and waiting. allocs: one run under\n"
                         "perfgate's LD_PRELOAD allocation counter (allocs, alloc_bytes, peak_heap_bytes; ab gates\n"
                         "allocs with --metric auto)")
             ->check(CLI::IsMember(catalog::kCountingMeasures))
             ->allow_extra_args(false));
}

void catalog(CLI::App* cmd, std::string& dir) {
  shared(cmd->add_option("--catalog", dir,
                         "DIR: a folder of scenario folders instead of the bundled catalog (your project; bisect: "
                         "relative to each commit's worktree)"));
}

void profile(CLI::App* cmd, std::string& profile) {
  shared(
      cmd->add_option("--profile", profile, "quick (CI-sized) or full (the write-ups' sizes)")->capture_default_str());
}

void gated_metric(CLI::App* cmd, std::string& metric) {
  shared(cmd->add_option("--metric", metric,
                         "The gated metric: auto, wall_ms, cpu_ms, user_ms, sys_ms, peak_rss_kib, syscalls, ...\n"
                         "auto: after the rounds, cgroup CPU time when both sides are CPU-bound ((CPU + run-queue "
                         "wait)/wall\n>= 0.85 from cpu.pressure; CPU/wall >= 0.7 without pressure accounting), wall "
                         "time when either\nside waits (I/O, network, locks, sleeps); the results say which and why. "
                         "Whatever is gated,\nwall time is a no-regress guard with a band of at least 10%, widened to "
                         "the run's own wall\nspread: an AFTER that trades CPU for waiting fails")
             ->capture_default_str());
}

void name(CLI::App* cmd, std::string& name) {
  shared(cmd->add_option("--name", name, "NAME: the comparison's name in the results")->capture_default_str());
}

void workdir(CLI::App* cmd, std::string& dir) {
  shared(cmd->add_option("--workdir", dir,
                         "DIR: the folder both commands run in (default: the one perfgate was started in), so "
                         "./prog and\nrelative paths mean what they mean at your prompt"));
}

void sides(CLI::App* cmd, std::string& before, std::string& after) {
  shared(cmd->add_option("--before", before, "The BEFORE command (gbench: a Google Benchmark binary)"));
  shared(cmd->add_option("--after", after, "The AFTER command (gbench: a Google Benchmark binary)"));
}

void shell(CLI::App* cmd, std::string& shell) {
  shared(
      cmd->add_flag("--shell{/bin/sh}", shell,
                    "Run each command with sh -c instead of splitting it into words; --shell=SHELL, --shell SHELL\n"
                    "or -S SHELL another shell (hyperfine's: a name or a command line such as \"bash --norc\";\n"
                    "none or -N: no shell). --shell WORD takes WORD as the shell when it names one (sh, bash, ...)"));
}

void scenario(CLI::App* cmd, std::string& name) { shared(cmd->add_option("--scenario", name, kScenarioHelp)); }

void scenarios(CLI::App* cmd, std::vector<std::string>& names) {
  shared(cmd->add_option("--scenario", names, kScenarioHelp)->allow_extra_args(false));
}

void history_db(CLI::App* cmd, std::string& db) {
  shared(cmd->add_option("--db", db,
                         "SQLite file, or a PostgreSQL DSN (postgresql://..., or host=... dbname=...) (default: "
                         "$PERFGATE_HISTORY_DB or .perfgate/history.sqlite)"));
}

void step_fit(CLI::App* cmd, history::StepSettings& steps) {
  shared(cmd->add_option("--penalty", steps.fit.penalty, "Penalty multiplier: beta = PENALTY · σ² · ln n (default 2)")
             ->check(CLI::PositiveNumber));
  shared(cmd->add_option("--min-segment", steps.fit.min_segment, "Fewest runs between change points (default 2)")
             ->check(CLI::Range(1, 100000)));
  shared(cmd->add_option("--min-step", steps.min_step_pct, "Smallest step reported, percent (default 5)")
             ->check(CLI::Range(0.0, 1000.0)));
}

void dry_run(CLI::App* cmd, bool& dry) {
  shared(cmd->add_flag("--dry-run", dry, "Say what would change, write nothing"));
}

void debug_samples(CLI::App* cmd, std::string& file) {
  cmd->add_option("--debug-samples", file,
                  "FILE: samples from a script instead of programs (tests of the deciding logic; "
                  "docs/architecture.md, Testing)")
      ->group("");
}

}  // namespace perfgate::cli::flags
