#include <memory>

#include "cli/commands.hpp"
#include "common/errors.hpp"

namespace perfgate::cli {
namespace {
int g_exit_code = 0;
}

int exit_code() { return g_exit_code; }
void set_exit_code(int code) { g_exit_code = code; }

std::string unexpected_arguments(const CLI::App& app) {
  const CLI::App* cmd = &app;
  for (const auto* sub : app.get_subcommands()) cmd = sub;
  const std::string name = cmd == &app ? "perfgate" : "perfgate " + cmd->get_name();
  std::vector<std::string> left = cmd->remaining();
  if (cmd != &app)
    for (const auto& a : app.remaining()) left.push_back(a);
  std::string unknown, words;
  for (const auto& a : left) {
    if (unknown.empty() && a.size() > 1 && a[0] == '-') unknown = a;
    words += (words.empty() ? "" : " ") + a;
  }
  if (!unknown.empty())
    return name + ": unknown option " + unknown + " (in: " + words + "); `" + name +
           " --help` lists the options (hyperfine's: docs/hyperfine.md)";
  return name + ": unexpected argument" + (left.size() > 1 ? "s " : " ") + words + "; see `" + name + " --help`";
}

std::string mismatch_message(const std::string& m) {
  // "--after: At Most 1 required but received 2"
  const std::string said = ": At Most 1 required but received ";
  const auto at = m.find(said);
  if (at == std::string::npos) return m;
  const std::string option = m.substr(0, at), times = m.substr(at + said.size());
  std::string hint;
  if (option == "--before" || option == "--after")
    hint = " (to compare several commands: perfgate ab CMD1 CMD2 CMD3, each against the first or --reference CMD)";
  return option + " is given " + times + " times; it takes one" + hint;
}

void add_shared_flags(CLI::App* cmd, plan::RunOptions& o) {
  cmd->add_option("--min-rounds", o.min_rounds, "Measured rounds before the first look (default 8, or the profile's)")
      ->check(CLI::Range(2, 100000));
  cmd->add_option("--max-rounds", o.max_rounds, "Measured rounds at most (default 30, or the profile's)")
      ->check(CLI::Range(2, 100000));
  cmd->add_option("--max-time", o.max_time_s, "Stop after the round that passes this many seconds (default: no limit)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("-w,--warmup", o.warmup, "Warm-up rounds, run and discarded (default 1)")->check(CLI::Range(0, 1000));
  cmd->add_option("--timeout", o.timeout_s, "Seconds one sample may take before it is killed (default 600)")
      ->check(CLI::PositiveNumber);
  cmd->add_option_function<std::string>(
         "--policy", [&o](const std::string& p) { o.policy = from_name<catalog::Policy>(p); },
         "improve: AFTER must be significantly better; no-regress: AFTER must not be "
         "significantly worse (ab default; scenarios: their manifest's)")
      ->check(CLI::IsMember(all_names<catalog::Policy>()));
  cmd->add_option_function<double>(
         "--noise", [&o](double pct) { o.noise = pct / 100.0; },
         "Noise band in percent: a change inside ±PCT is never a verdict (default 2)")
      ->check(CLI::Range(0.0, 99.0));
  cmd->add_option("--alpha", o.alpha, "Family-wise error rate of the run's gated comparisons (default 0.05)")
      ->check(CLI::Range(0.000001, 0.5));
  cmd->add_option("--seed", o.seed,
                  "Seed of the round order and the bootstrap (default: random, recorded in the results)");
  cmd->add_option_function<std::string>(
      "--cpus", [&o](const std::string& s) { o.cpus = plan::parse_cpu_list(s); },
      "CPUs to pin samples to, e.g. 1 or 0-1 (default: a scenario's count, taken from the last CPUs; ab: every "
      "CPU this process may use, as hyperfine; --duet: the last two)");
  cmd->add_option("--json", o.json_path, "Write the results JSON here");
  cmd->add_option_function<std::string>(
      "--baseline",
      [&o](const std::string& f) {
        o.baseline_path = f;
        o.baseline_given = true;
      },
      "baseline.json to compare with, or none (run default: share/perfgate/baseline.json, the committed one; "
      "run --catalog DIR: DIR/baseline.json; ab: none)");
  cmd->add_option_function<double>(
         "--baseline-tolerance", [&o](double pct) { o.baseline_tolerance = pct / 100.0; },
         "Percent a ratio may move from the baseline's before it can fail (default 5; an entry's own wins)")
      ->check(CLI::Range(0.0, 99.0));
  cmd->add_option("--junit", o.junit_path, "Also write JUnit XML here: one test case per gate");
  cmd->add_option("--export-gbench", o.gbench_path,
                  "Also write the samples in Google Benchmark's JSON format here (for its compare.py)");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress line, and no table when every gate passed");
  // For tests of the deciding logic, not for users: hidden from --help (like hyperfine's
  // --debug-mode) and recorded in the results, which baseline update and history add refuse.
  // Not on batch: the perf VM's queue is for measurements.
  if (cmd->get_name() == "run" || cmd->get_name() == "ab" || cmd->get_name() == "gbench")
    cmd->add_option("--debug-samples", o.debug_samples,
                    "FILE: take every sample's metrics, digest and exit status from FILE (run/sample_script.hpp) "
                    "instead of running a program")
        ->group("");
}

}  // namespace perfgate::cli
