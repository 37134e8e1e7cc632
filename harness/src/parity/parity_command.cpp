#include "parity/parity_command.hpp"

#include <iostream>

#include "common/errors.hpp"
#include "common/shell_words.hpp"
#include "export/exports.hpp"
#include "measure/host.hpp"
#include "parity/markdown.hpp"
#include "plan/options.hpp"
#include "run/child.hpp"

namespace perfgate::parity {
namespace {

// Split like a shell, but let "{port}" through (the splitter refuses unquoted braces).
std::vector<std::string> split_serve(std::string command) {
  const std::string token = "\x01port\x01";
  for (auto at = command.find("{port}"); at != std::string::npos; at = command.find("{port}"))
    command.replace(at, 6, token);
  auto words = split_command(command);
  for (auto& w : words)
    for (auto at = w.find(token); at != std::string::npos; at = w.find(token)) w.replace(at, token.size(), "{port}");
  return words;
}

}  // namespace

void resolve(ParityCommand& f) {
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

int run_parity_command(const ParityOptions& o, const std::filesystem::path& json_file, std::ostream& out) {
  run::reap_leftovers();
  auto r = run_parity(o);
  if (!o.out.empty()) {  // DIR/parity.json and DIR/parity.md, parity's product: unwritten, exit 4
    std::vector<exports::Export> docs{exports::json_export("the parity results", json_file, r.doc),
                                      {"the parity report " + (o.out / "parity.md").string(), o.out / "parity.md",
                                       [&r] { return parity_markdown(r.doc); }}};
    for (auto& d : docs) d.required = true;
    exports::write_exports(docs, r.exit_code);
  }
  const auto& ag = r.doc["agreement"];
  out << "agreement: " << ag["agreeing"] << " of " << ag["requests"] << " requests agree, "
      << ag["leaves_compared_agreeing"] << " fields compared\n";
  if (r.doc.contains("comparison") && r.doc["comparison"].contains("ratio_b_over_a"))
    out << r.doc["comparison"]["metric"].get<std::string>() << " B/A "
        << r.doc["comparison"]["ratio_b_over_a"].get<double>() << "\n";
  out << "wrote " << (o.out / "parity.json").string() << " and parity.md\n";
  if (r.exit_code != 0) std::cerr << "perfgate: parity refused: " << r.message << "\n";
  return r.exit_code;
}

}  // namespace perfgate::parity
