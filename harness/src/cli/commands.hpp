// One function per command; each registers its options and its callback on the app.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "plan/hyperfine_pairs.hpp"
#include "plan/options.hpp"

namespace perfgate::cli {

void add_list_command(CLI::App& app);
void add_run_command(CLI::App& app, const std::vector<std::string>& argv);
void add_ab_command(CLI::App& app, const std::vector<std::string>& argv);
void add_gbench_command(CLI::App& app, const std::vector<std::string>& argv);
void add_report_command(CLI::App& app);
void add_baseline_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_merge_command(CLI::App& app, const std::vector<std::string>& argv);
void add_batch_command(CLI::App& app, const std::vector<std::string>& argv);
void add_history_command(CLI::App& app);
void add_lies_command(CLI::App& app, const std::vector<std::string>& argv);
void add_calibrate_command(CLI::App& app, const std::vector<std::string>& argv);
void add_parity_command(CLI::App& app, const std::vector<std::string>& argv);
void add_new_command(CLI::App& app);
void add_bisect_command(CLI::App& app, const std::vector<std::string>& argv);

// The flag groups every command that runs a plan (run, ab, gbench, batch) takes: rounds,
// timeout, policy, noise, alpha, seed, CPUs, outputs and the baseline (cli/flag_groups.hpp).
void add_run_flags(CLI::App* cmd, plan::RunOptions& options);

// `ab`'s options that hyperfine users bring (ab_hyperfine_flags.cpp): the commands into
// `commands`, --runs, -m, -M, --time-unit and the exports into `options`.
void add_hyperfine_flags(CLI::App* cmd, plan::HyperfineCommands& commands, plan::RunOptions& options);

// Readable forms of CLI11's parse errors: the arguments no option took, in the order typed, with
// the command's --help to read; an option given more often than it takes ("--after: given 2
// times, it takes one").
std::string unexpected_arguments(const CLI::App& app);
std::string mismatch_message(const std::string& cli11_message);

// Sets each registered command's --help footer to the exit codes it can return
// (common/exit_meanings.hpp).
void list_exit_codes(CLI::App& app);

// The exit code the command's callback decided (callbacks cannot return one through CLI11).
int exit_code();
void set_exit_code(int code);

}  // namespace perfgate::cli
