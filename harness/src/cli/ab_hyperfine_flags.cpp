#include "cli/ab_hyperfine_flags.hpp"

#include <filesystem>

#include "common/errors.hpp"
#include "plan/ab_parameters.hpp"
#include "run/ab_sampling.hpp"

namespace perfgate::cli {

void add_hyperfine_flags(CLI::App* cmd, HyperfineFlags& f, plan::RunOptions& o) {
  const std::string group = "hyperfine's options";
  auto opt = [&](CLI::Option* x) { return x->group(group); };
  opt(cmd->add_option("commands", f.commands,
                      "Commands to compare, as hyperfine takes them: each against the reference (--reference CMD, "
                      "else the first)"));
  opt(cmd->add_option("--reference", f.reference,
                      "CMD: the command the others are compared with (it runs beside each of them, paired)"));
  opt(cmd->add_option("--reference-name", f.reference_name, "NAME: a name for the --reference command"));
  // Vector options take one value per occurrence: the commands that follow are positional.
  opt(cmd->add_option("-n,--command-name", f.names, "NAME: a name for a command, once per command in order")
          ->allow_extra_args(false));
  opt(cmd->add_option("-p,--prepare", f.prepare,
                      "CMD: run before each run of a command (sh -c, unmeasured), e.g. to drop caches; once for all "
                      "commands or once per command")
          ->allow_extra_args(false));
  opt(cmd->add_option("-C,--conclude", f.conclude,
                      "CMD: run after each run of a command (sh -c, unmeasured); once for all or once per command")
          ->allow_extra_args(false));
  opt(cmd->add_option("-s,--setup", f.setup, "CMD: run once per command before its first run (sh -c)"));
  opt(cmd->add_option("-c,--cleanup", f.cleanup,
                      "CMD: run once per command after its last run (sh -c), also when the rounds failed"));
  opt(cmd->add_option("-P,--parameter-scan", f.scan,
                      "VAR MIN MAX: a pair of commands for each value MIN, MIN+STEP, … MAX, with {VAR} replaced "
                      "in the commands; one verdict per value, the family Holm-corrected together")
          ->expected(3)
          ->allow_extra_args(false));
  opt(cmd->add_option("-D,--parameter-step-size", f.step, "STEP: the step of --parameter-scan (default 1)"));
  opt(cmd->add_option("-L,--parameter-list", f.lists,
                      "VAR VALUES: a pair for each comma-separated value, {VAR} replaced; repeat it for every "
                      "combination")
          ->expected(2)
          ->take_all()
          ->allow_extra_args(false));
  opt(cmd->add_option("--input", f.input, "WHERE: the commands' stdin: null (default) or a file, read anew each run"));
  opt(cmd->add_option("--output", f.output,
                      "WHERE: the commands' stdout: null (default, as hyperfine), pipe (drained and hashed by perfgate "
                      "on another CPU), inherit, or a file; once for all or once per command. With null and inherit "
                      "the outputs are compared in untimed digest runs (first, last and an eighth of the rounds); "
                      "a program that does less when its stdout is /dev/null needs pipe")
          ->allow_extra_args(false));
  opt(cmd->add_flag("--show-output", f.show_output, "Print the commands' stdout and stderr (--output inherit)"));
  opt(cmd->add_option_function<int>(
             "-r,--runs",
             [&o](int n) {
               o.min_rounds = n;
               o.max_rounds = n;
             },
             "N: exactly N measured rounds (a run of each command per round)")
          ->check(CLI::Range(2, 100000)));
  opt(cmd->add_option_function<int>(
             "-m,--min-runs", [&o](int n) { o.min_rounds = n; }, "N: as --min-rounds")
          ->check(CLI::Range(2, 100000)));
  opt(cmd->add_option_function<int>(
             "-M,--max-runs", [&o](int n) { o.max_rounds = n; }, "N: as --max-rounds")
          ->check(CLI::Range(2, 100000)));
  opt(cmd->add_option("-u,--time-unit", f.time_unit,
                      "microsecond, millisecond or second: the unit of the times printed and exported (default: "
                      "chosen for them)")
          ->check(CLI::IsMember({"microsecond", "millisecond", "second"})));
  opt(cmd->add_flag("-i{all-non-zero},--ignore-failure{all-non-zero}", f.ignore_failure,
                    "Keep going when a command exits non-zero; --ignore-failure=1,2 ignores those codes only"));
  opt(cmd->add_option("--export-markdown", f.export_markdown, "FILE: a markdown table of the commands and ratios"));
  opt(cmd->add_option("--export-csv", f.export_csv, "FILE: the commands' summary figures as CSV (times in seconds)"));
  opt(cmd->add_option("--export-json", o.json_path, "FILE: the results JSON (perfgate's, as --json)"));
}

namespace {

// A per-command option: given once (every command) or once per command.
std::string per_command(const std::vector<std::string>& given, std::size_t i, std::size_t commands, const char* flag) {
  if (given.empty()) return "";
  if (given.size() == 1) return given[0];
  if (given.size() != commands)
    throw UsageError(std::string(flag) + " is given " + std::to_string(given.size()) +
                     " times: give it once for every command or once per command (" + std::to_string(commands) +
                     " commands, the reference included)");
  return given[i];
}

}  // namespace

std::vector<plan::AbPair> hyperfine_pairs(const HyperfineFlags& f, const std::string& before, const std::string& after,
                                          const std::string& name,
                                          const std::function<std::vector<std::string>(const std::string&)>& words) {
  std::vector<std::string> commands, labels;
  if (!before.empty() || !after.empty()) {
    if (before.empty() || after.empty())
      throw UsageError(
          "ab: --before and --after go together (or give the commands as arguments: perfgate ab CMD1 CMD2)");
    if (!f.commands.empty() || !f.reference.empty())
      throw UsageError("ab: either --before/--after or commands as arguments, not both");
    commands = {before, after};
    labels = f.names;
  } else {
    if (!f.reference.empty()) {
      commands.push_back(f.reference);
      labels.push_back(f.reference_name);
      if (f.names.size() > f.commands.size())
        throw UsageError("--command-name is given " + std::to_string(f.names.size()) + " times for " +
                         std::to_string(f.commands.size()) + " commands (--reference-name names the reference)");
    } else if (!f.reference_name.empty()) {
      throw UsageError("--reference-name names the --reference command: give --reference CMD");
    }
    commands.insert(commands.end(), f.commands.begin(), f.commands.end());
    labels.insert(labels.end(), f.names.begin(), f.names.end());
    if (commands.size() < 2)
      throw UsageError(
          "ab: two commands at least: --before CMD --after CMD, or perfgate ab CMD1 CMD2 … (the first, or --reference "
          "CMD, is what the others are compared with)");
  }
  if (labels.size() > commands.size())
    throw UsageError("--command-name is given " + std::to_string(labels.size()) + " times for " +
                     std::to_string(commands.size()) + " commands");
  labels.resize(commands.size());
  if (f.show_output && !f.output.empty()) throw UsageError("--show-output and --output: choose one");

  std::vector<plan::Parameter> parameters;
  if (!f.scan.empty()) parameters.push_back(plan::parameter_scan(f.scan[0], f.scan[1], f.scan[2], f.step));
  if (!f.step.empty() && f.scan.empty()) throw UsageError("--parameter-step-size needs --parameter-scan");
  if (!f.scan.empty() && !f.lists.empty()) throw UsageError("--parameter-scan and --parameter-list: choose one");
  for (std::size_t i = 0; i + 1 < f.lists.size(); i += 2)
    parameters.push_back(plan::parameter_list(f.lists[i], f.lists[i + 1]));
  const auto bindings = plan::parameter_combinations(parameters);

  if (!f.input.empty() && f.input != "null" && !std::filesystem::is_regular_file(f.input))
    throw UsageError("--input " + f.input + ": no such file");
  const std::size_t n = commands.size();
  auto side = [&](std::size_t i, const plan::Binding& b) {
    plan::AbSideOptions s;
    s.output = f.show_output ? "inherit" : per_command(f.output, i, n, "--output");
    if (s.output.empty()) s.output = "null";
    run::parse_stdout_target(s.output);  // refused here, before anything runs
    s.input = f.input.empty() || f.input == "null" ? "" : std::filesystem::absolute(f.input).string();
    s.prepare = plan::substitute(per_command(f.prepare, i, n, "--prepare"), b);
    s.conclude = plan::substitute(per_command(f.conclude, i, n, "--conclude"), b);
    s.setup = plan::substitute(f.setup, b);
    s.cleanup = plan::substitute(f.cleanup, b);
    if (f.ignore_failure) {
      run::AbSampling check;
      run::parse_ignore_failure(*f.ignore_failure, check);
      s.ignore_failure = *f.ignore_failure;
    }
    s.label = plan::substitute(labels[i].empty() ? commands[i] : labels[i], b);
    return s;
  };
  std::vector<plan::AbPair> pairs;
  for (const auto& b : bindings)
    for (std::size_t i = 1; i < n; ++i) {
      plan::AbPair p;
      p.name = name + (n > 2 ? ":" + std::to_string(i + 1) : "") + (b.empty() ? "" : "[" + plan::describe(b) + "]");
      p.before_argv = words(plan::substitute(commands[0], b));
      p.after_argv = words(plan::substitute(commands[i], b));
      p.before = side(0, b);
      p.after = side(i, b);
      for (std::size_t k = 0; k < b.size(); ++k) {
        const auto& [var, value] = b[k];
        p.params[var] = parameters[k].numeric ? plan::json::parse(value) : plan::json(value);
      }
      pairs.push_back(std::move(p));
    }
  return pairs;
}

}  // namespace perfgate::cli
