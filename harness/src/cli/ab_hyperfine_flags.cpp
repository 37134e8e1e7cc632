// The options of `perfgate ab` that hyperfine users bring, with the names and meanings of
// hyperfine's current release (1.20; docs/hyperfine.md maps every one), resolved into the pairs
// of the family (plan/hyperfine_pairs.hpp) and each command's own options. `ab`'s own flags
// (cmd_ab.cpp) sit beside these, not in them.
#include "cli/commands.hpp"

namespace perfgate::cli {

void add_hyperfine_flags(CLI::App* cmd, plan::HyperfineCommands& f, plan::RunOptions& o) {
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
                      "the outputs are compared in untimed digest runs (first, last and an eighth of the others, at "
                      "most one in eight rounds); a program that does less when its stdout is /dev/null needs pipe")
          ->allow_extra_args(false));
  opt(cmd->add_flag("--show-output", f.show_output, "Print the commands' stdout and stderr (--output inherit)"));
  opt(cmd->add_option_function<int>(
             "-r,--runs",
             [&o](int n) {
               o.min_rounds = n;
               o.max_rounds = n;
             },
             "N: exactly N measured rounds (a run of each command per round), one look at the full alpha. "
             "An exact paired test decides from 6 rounds for one pair at alpha 0.05, ceil(log2(2m/alpha)) for "
             "m pairs (9 for 10); fewer end \"cannot tell\" (exit 5)")
          ->check(CLI::Range(2, 100000)));
  opt(cmd->add_option_function<int>(
             "-m,--min-runs", [&o](int n) { o.min_rounds = n; }, "N: as --min-rounds")
          ->check(CLI::Range(2, 100000)));
  opt(cmd->add_option_function<int>(
             "-M,--max-runs", [&o](int n) { o.max_rounds = n; }, "N: as --max-rounds")
          ->check(CLI::Range(2, 100000)));
  opt(cmd->add_option("-u,--time-unit", o.outputs.time_unit,
                      "microsecond, millisecond or second: the unit of the times printed and exported (default: "
                      "chosen for them)")
          ->check(CLI::IsMember({"microsecond", "millisecond", "second"})));
  opt(cmd->add_flag("-i{all-non-zero},--ignore-failure{all-non-zero}", f.ignore_failure,
                    "Keep going when a command exits non-zero; --ignore-failure=1,2 ignores those codes only"));
  // hyperfine's output options: perfgate prints no colours, so only "none" changes anything.
  opt(cmd->add_option_function<std::string>(
             "--style", [&o](const std::string& s) { o.outputs.quiet = o.outputs.quiet || s == "none"; },
             "auto|basic|full|nocolor|color|none: as hyperfine's; perfgate prints no colours, and none is --quiet")
          ->check(CLI::IsMember({"auto", "basic", "full", "nocolor", "color", "none"})));
  opt(cmd->add_option_function<std::string>(
             "--sort", [](const std::string&) {},
             "auto|command: the order of the summary, which is the commands' order (each against the first)")
          ->check([](const std::string& s) -> std::string {
            return s == "auto" || s == "command" ? ""
                   : s == "mean-time"
                       ? "mean-time is hyperfine's; perfgate keeps the commands' order, each against the first"
                       : "auto or command";
          }));
  opt(cmd->add_option("--export-markdown", o.outputs.ab_markdown, "FILE: a markdown table of the commands and ratios"));
  opt(cmd->add_option("--export-csv", o.outputs.ab_csv,
                      "FILE: the commands' summary figures as CSV (times in seconds)"));
  opt(cmd->add_option("--export-json", o.outputs.ab_hyperfine_json,
                      "FILE: hyperfine's JSON (results[]: command, mean, stddev, median, user, system, min, max, "
                      "times, exit_codes, parameters; seconds); perfgate's own document stays where --json/--out "
                      "put it"));
}

}  // namespace perfgate::cli
