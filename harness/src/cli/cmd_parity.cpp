// `perfgate parity URL_A URL_B --requests FILE`: two HTTP servers compared on the same work
// (parity/parity_run.hpp does the work; this file only parses). Either side may instead be a
// program perfgate starts (--serve-a "PROGRAM ARGS", "{port}" replaced by a free port), pinned
// to its own CPUs, which adds CPU per request from its cgroup.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/flag_groups.hpp"
#include "common/errors.hpp"
#include "common/out_folder_lock.hpp"
#include "export/exports.hpp"
#include "measure/host.hpp"
#include "parity/markdown.hpp"
#include "parity/parity_run.hpp"
#include "plan/options.hpp"
#include "run/child.hpp"

namespace perfgate::cli {

namespace {

struct Flags {
  std::vector<std::string> urls;
  std::string serve_a, serve_b, cpus_a, cpus_b, load_cpus, out = std::string(defaults::kOutDir) + "/parity";
  std::optional<std::uint64_t> seed;
  int max_concurrency = 128;
  parity::ParityOptions o;
};

// Split like a shell, but let "{port}" through (the splitter refuses unquoted braces).
std::vector<std::string> split_serve(std::string command) {
  const std::string token = "\x01port\x01";
  for (auto at = command.find("{port}"); at != std::string::npos; at = command.find("{port}"))
    command.replace(at, 6, token);
  auto words = run::split_command(command);
  for (auto& w : words)
    for (auto at = w.find(token); at != std::string::npos; at = w.find(token)) w.replace(at, token.size(), "{port}");
  return words;
}

void resolve(Flags& f) {
  auto& o = f.o;
  o.out = f.out;
  if (f.seed) o.timed.seed = *f.seed;
  if (!f.serve_a.empty()) o.a.serve = split_serve(f.serve_a);
  if (!f.serve_b.empty()) o.b.serve = split_serve(f.serve_b);
  std::size_t next = 0;
  for (auto* side : {&o.a, &o.b})
    if (side->serve.empty()) {
      if (next >= f.urls.size()) throw UsageError("give URL_A and URL_B, or --serve-a/--serve-b for the missing ones");
      side->url = f.urls[next++];
    }
  if (next != f.urls.size()) throw UsageError("more URLs than servers without --serve-a/--serve-b");
  // Default CPUs: the load generator on the first allowed CPU, both servers on the others (the
  // same ones, so both are measured on the same cores; their windows never overlap).
  const auto cpus = measure::allowed_cpus();
  std::vector<int> rest(cpus.size() > 1 ? cpus.begin() + 1 : cpus.begin(), cpus.end());
  o.timed.load_cpus =
      f.load_cpus.empty() ? std::vector<int>{cpus.empty() ? 0 : cpus.front()} : plan::parse_cpu_list(f.load_cpus);
  o.a.cpus = f.cpus_a.empty() ? rest : plan::parse_cpu_list(f.cpus_a);
  o.b.cpus = f.cpus_b.empty() ? rest : plan::parse_cpu_list(f.cpus_b);
  o.capacity.load_cpus = o.timed.load_cpus;
  o.capacity.seed = o.timed.seed;
  o.capacity.concurrency.clear();
  for (int c = 1; c <= f.max_concurrency; c *= 2) o.capacity.concurrency.push_back(c);
  if (o.timed.window_s <= 0 || o.timed.warmup_s < 0 || o.capacity.step_s <= 0)
    throw UsageError("--window-s and --step-s must be > 0, --warmup-s >= 0");
}

}  // namespace

void add_parity_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "parity",
      "Compare two HTTP servers on the same work: an agreement pass over an id-free request set, then only the "
      "agreeing requests timed (exit 3 when too much disagrees or a server is not doing the work)");
  auto f = std::make_shared<Flags>();
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
  cmd->callback([f] {
    resolve(*f);
    const OutFolderLock folder(f->o.out, "perfgate parity");  // one command at a time per out folder
    run::reap_leftovers();
    auto r = parity::run_parity(f->o);
    if (!f->o.out.empty()) {  // DIR/parity.json and DIR/parity.md, parity's product: unwritten, exit 4
      std::vector<exports::Export> docs{exports::json_export("the parity results", f->o.out / "parity.json", r.doc),
                                        {"the parity report " + (f->o.out / "parity.md").string(),
                                         f->o.out / "parity.md", [&r] { return parity::parity_markdown(r.doc); }}};
      for (auto& d : docs) d.required = true;
      exports::write_exports(docs, r.exit_code);
    }
    const auto& ag = r.doc["agreement"];
    std::cout << "agreement: " << ag["agreeing"] << " of " << ag["requests"] << " requests agree, "
              << ag["leaves_compared_agreeing"] << " fields compared\n";
    if (r.doc.contains("comparison") && r.doc["comparison"].contains("ratio_b_over_a"))
      std::cout << r.doc["comparison"]["metric"].get<std::string>() << " B/A "
                << r.doc["comparison"]["ratio_b_over_a"].get<double>() << "\n";
    std::cout << "wrote " << (f->o.out / "parity.json").string() << " and parity.md\n";
    if (r.exit_code != 0) std::cerr << "perfgate: parity refused: " << r.message << "\n";
    set_exit_code(r.exit_code);
  });
}

}  // namespace perfgate::cli
