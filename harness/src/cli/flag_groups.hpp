// Every flag that more than one command takes, declared once: its name, its help, its check
// and the typed value it fills (plan::RunOptions, or the field a command's own options keep).
// A command takes the groups it needs; none branches on which command it is. cli_test lists
// the shared flags and fails when a command declares one of them by hand.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/defaults.hpp"
#include "history/history_series.hpp"
#include "plan/build_source.hpp"
#include "plan/options.hpp"

namespace perfgate::cli::flags {

// The CLI11 option group every shared flag is listed under in --help.
inline constexpr const char* kShared = "Options shared by perfgate's commands";

// --min-rounds, --max-rounds, --max-time, -w/--warmup.
void rounds(CLI::App* cmd, plan::RunOptions& o);
// --rounds N: exactly N measured rounds (lies, parity).
void exact_rounds(CLI::App* cmd, int& rounds);
void timeout(CLI::App* cmd, std::optional<double>& seconds);    // --timeout
void policy(CLI::App* cmd, std::optional<catalog::Policy>& p);  // --policy
// --noise PCT and --alpha, into a command's own value or a request's (none: the defaults').
void noise(CLI::App* cmd, double& fraction);
void noise(CLI::App* cmd, std::optional<double>& fraction);
void alpha(CLI::App* cmd, double& alpha);
void alpha(CLI::App* cmd, std::optional<double>& alpha);
void seed(CLI::App* cmd, std::optional<std::uint64_t>& seed);     // --seed
void cpus(CLI::App* cmd, std::optional<std::vector<int>>& cpus);  // --cpus LIST
// Builds from the user's repository (bisect; ab and calibrate with revisions or layouts):
// --build CMD, --repo DIR, --cache DIR, --layouts K, --layout-rounds N.
void builds(CLI::App* cmd, plan::BuildSource& source, int& layout_rounds);
// --out DIR, the folder the command writes its documents into; `dir` holds the default (with
// `short_o`, also -o).
void out_dir(CLI::App* cmd, std::string& dir, bool short_o = false);
// --json FILE, the command's JSON document (with `short_o`, also -o).
void json_file(CLI::App* cmd, std::string& file, bool short_o = false);
// Run-like commands (run, ab, gbench, batch): --out DIR (default perfgate-out), --json FILE, --junit,
// --export-gbench, -q/--quiet.
void run_outputs(CLI::App* cmd, plan::RunOptions& o);
void baseline_file(CLI::App* cmd, std::string& file);  // --baseline FILE
// --baseline FILE|none, as a choice (not given: none).
void baseline_choice(CLI::App* cmd, std::optional<catalog::BaselineChoice>& choice);
void baseline_tolerance(CLI::App* cmd, double& fraction);  // --baseline-tolerance PCT
// --baseline (or none) and --baseline-tolerance of a run.
void baseline(CLI::App* cmd, plan::RunOptions& o);
void lock(CLI::App* cmd, plan::RunOptions& o);                       // --lock FILE, --lock-timeout
void measure(CLI::App* cmd, std::vector<std::string>& measures);     // --measure allocs|instructions
void catalog(CLI::App* cmd, std::string& dir);                       // --catalog DIR
void profile(CLI::App* cmd, std::string& profile);                   // --profile
void gated_metric(CLI::App* cmd, std::string& metric);               // --metric
void name(CLI::App* cmd, std::string& name);                         // --name
void workdir(CLI::App* cmd, std::string& dir);                       // --workdir DIR
void sides(CLI::App* cmd, std::string& before, std::string& after);  // --before, --after
// --shell[=SHELL], as hyperfine spells it; `shell` empty: no shell.
void shell(CLI::App* cmd, std::string& shell);
void scenario(CLI::App* cmd, std::string& name);                 // --scenario NAME
void scenarios(CLI::App* cmd, std::vector<std::string>& names);  // --scenario NAME (repeatable)
void history_db(CLI::App* cmd, std::string& db);                 // --db
// --penalty, --min-segment, --min-step: how a history series is cut into steps (history show,
// history publish).
void step_fit(CLI::App* cmd, history::StepSettings& steps);
void dry_run(CLI::App* cmd, bool& dry);  // --dry-run
// --debug-samples FILE (hidden from --help, like hyperfine's --debug-mode): samples from a
// script instead of programs, for tests of the deciding logic; recorded in the results, which
// baseline update and history add refuse.
void debug_samples(CLI::App* cmd, std::string& file);

}  // namespace perfgate::cli::flags
