// `perfgate parity URL_A URL_B --requests FILE`: two HTTP servers compared on the same work
// (parity/parity_command.hpp does the work; this file only parses).
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/command_opening.hpp"
#include "parity/parity_command.hpp"

namespace perfgate::cli {

void add_parity_command(CLI::App& app, const std::vector<std::string>& argv) {
  auto* cmd = app.add_subcommand(
      "parity",
      "Compare two HTTP servers on the same work: an agreement pass over an id-free request set, then only the "
      "agreeing requests timed (exit 3 when too much disagrees or a server is not doing the work)");
  auto f = std::make_shared<parity::ParityCommand>();
  auto& o = f->o;
  cmd->add_option("urls", f->urls, "URL_A URL_B: base URLs of running servers (http://HOST:PORT[/PREFIX])")
      ->expected(0, 2);
  cmd->add_option("--requests", o.requests, "Request set: one /path?query a line, no ids")->required();
  cmd->add_option("--serve-a", f->serve_a, "Start server A: \"PROGRAM ARGS\" ({port} = a free port)");
  cmd->add_option("--serve-b", f->serve_b, "Start server B: \"PROGRAM ARGS\" ({port} = a free port)");
  cmd->add_option("--volatile", o.volatile_keys, "A key (or folded path like Items[].Etag) never compared");
  cmd->add_option("--max-dropped", o.max_dropped, "Share of requests that may disagree before refusing")
      ->capture_default_str();
  cmd->add_option("--noise-source", o.noise,
                  "Where within-server noise is learnt: a second instance of each server, or a second answer")
      ->check(CLI::IsMember({"auto", "instance", "answer"}))
      ->capture_default_str();
  flags::out_dir(cmd, f->out);  // DIR/parity.json and DIR/parity.md
  flags::exact_rounds(cmd, o.timed.rounds);
  cmd->add_option("--window-s", o.timed.window_s, "Seconds per timed window")->capture_default_str();
  cmd->add_option("--warmup-s", o.timed.warmup_s, "Warm-up before each window (not measured)")->capture_default_str();
  cmd->add_option("--connections", o.timed.connections, "Connections of the timed windows")->capture_default_str();
  flags::seed(cmd, f->seed);
  cmd->add_option("--cpus-a", f->cpus_a, "CPUs of server A (default: all but the load generator's)");
  cmd->add_option("--cpus-b", f->cpus_b, "CPUs of server B (default: all but the load generator's)");
  cmd->add_option("--load-cpus", f->load_cpus, "CPUs of the load generator (default: the first allowed)");
  cmd->add_option("--step-s", o.capacity.step_s, "Seconds per concurrency step and offered rate")
      ->capture_default_str();
  cmd->add_option("--max-concurrency", f->max_concurrency, "Concurrency sweep 1, 2, 4 ... up to this")
      ->capture_default_str();
  cmd->add_flag("!--no-capacity", o.measure_capacity, "Skip the concurrency sweep and offered-rate latency");
  cmd->add_option("--ready-timeout-s", o.ready_timeout_s, "How long a started server may take to answer")
      ->capture_default_str();
  cmd->callback([f, argv] {
    parity::resolve(*f);
    const CommandOpening opening(
        {.out_dir = f->o.out, .json_name = "parity.json", .argv = argv, .writes_folder_with_json = true});
    set_exit_code(parity::run_parity_command(f->o, opening.json_file(), std::cout));
  });
}

}  // namespace perfgate::cli
