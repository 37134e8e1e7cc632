// perfgate: is AFTER better than BEFORE, doing the same work? Commands and their options;
// every error is caught here, once, and mapped to DESIGN.md's exit codes.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.hpp"
#include "common/errors.hpp"
#include "common/exit_meanings.hpp"
#include "plan/hyperfine_shell.hpp"

int main(int argc, char** argv) {
  using namespace perfgate;
  CLI::App app{"perfgate — paired BEFORE/AFTER benchmarks with equivalence gates and honest statistics."};
  app.footer(exit_codes_text("") + "\nEach command's --help lists the codes it can return.");
  app.require_subcommand(1);
  app.set_version_flag("--version", PERFGATE_VERSION);
  std::vector<std::string> args(argv, argv + argc);
  cli::add_list_command(app);
  cli::add_run_command(app, args);
  cli::add_ab_command(app, args);
  cli::add_gbench_command(app, args);
  cli::add_report_command(app);
  cli::add_baseline_command(app);
  cli::add_compare_command(app);
  cli::add_merge_command(app, args);
  cli::add_batch_command(app, args);
  cli::add_history_command(app);
  cli::add_lies_command(app, args);
  cli::add_calibrate_command(app, args);
  cli::add_parity_command(app, args);
  cli::add_new_command(app);
  cli::add_bisect_command(app, args);
  cli::list_exit_codes(app);
  try {
    // hyperfine's -S SHELL and --shell SHELL, as --shell=SHELL (plan/hyperfine_shell.hpp).
    const auto spelled = plan::with_hyperfine_shell(args);
    std::vector<const char*> words;
    for (const auto& w : spelled) words.push_back(w.c_str());
    app.parse(static_cast<int>(words.size()), words.data());
  } catch (const CLI::ExtrasError& e) {
    // CLI11 lists the leftovers last word first; say it in the order they were typed.
    std::cerr << cli::unexpected_arguments(app) << "\n";
    return kExitUsage;
  } catch (const CLI::ArgumentMismatch& e) {
    std::cerr << "perfgate: " << cli::mismatch_message(e.what()) << "\n";
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : kExitUsage;
  } catch (const Error& e) {
    std::cerr << "perfgate: " << e.what() << "\n";
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "perfgate: " << e.what() << "\n";
    return kExitRun;
  }
  return cli::exit_code();
}
