#include "run/gbench_sample.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string_view>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "common/program_path.hpp"
#include "perfgate/percentile.hpp"
#include "run/child.hpp"
#include "run/gbench_runner.hpp"

namespace perfgate::run {

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// What failed, with what libbenchmark 1.7.1 users trip on spelled out.
std::string failure(const GbenchBinaryRun& b) {
  const ChildResult& r = b.result;
  std::string why = r.timed_out ? "timed out"
                    : r.signal  ? "was killed by signal " + std::to_string(r.signal)
                                : "exited with " + std::to_string(r.exit_code);
  const std::string tail = tail_of_file(b.stderr_path, 1500);
  std::string hint;
  if (tail.find("benchmark_min_time") != std::string::npos)
    hint = "\n(libbenchmark 1.7 takes --benchmark_min_time in plain seconds, 0.05; 1.8 also takes 0.05s and 100x)";
  return why + (tail.empty() ? " (no stderr)" : "; its stderr:\n" + tail) + hint;
}

// The median of each figure over a run's repetitions of one benchmark.
GbenchFigures median_of(const std::vector<GbenchFigures>& reps) {
  if (reps.size() == 1) return reps.front();
  auto median = [&](auto get) {
    std::vector<double> v;
    for (const auto& r : reps) v.push_back(get(r));
    return perfgate::percentile(v, 0.5);
  };
  GbenchFigures f;
  f.real_ns = median([](const GbenchFigures& r) { return r.real_ns; });
  f.cpu_ns = median([](const GbenchFigures& r) { return r.cpu_ns; });
  for (const auto& [name, v] : reps.front().counters)
    f.counters[name] = median([&name = name](const GbenchFigures& r) {
      auto it = r.counters.find(name);
      return it == r.counters.end() ? 0.0 : it->second;
    });
  return f;
}

}  // namespace

std::vector<std::string> list_gbench_benchmarks(const std::string& scenario, const std::vector<std::string>& argv,
                                                const fs::path& cwd, const TempDir& dir, double timeout_s) {
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  args.push_back("--benchmark_list_tests=true");
  static int serial = 0;
  const fs::path out = dir.subdir("gbench-list-" + std::to_string(++serial));
  GbenchBinaryRun b;
  try {
    b = run_gbench_binary(scenario + "-list", argv.at(0), args, out, {}, timeout_s, cwd);
  } catch (const RunError& e) {
    throw UsageError(argv.at(0) + ": cannot list its benchmarks: " + e.what());
  }
  if (b.result.timed_out || b.result.signal || b.result.exit_code != 0)
    throw UsageError(joined(argv) + " --benchmark_list_tests=true (in " + cwd.string() + ") " + failure(b));
  std::vector<std::string> names;
  std::istringstream in(read_file(out / "stdout"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

GbenchSampling only_benchmarks(const GbenchSampling& g, const std::vector<std::string>& benchmarks) {
  // libbenchmark matches the filter as a POSIX extended regex; every character that means
  // something there is escaped, so a name like BM_Copy<int>/8 matches only itself.
  std::string alternatives;
  for (const auto& name : benchmarks) {
    alternatives += alternatives.empty() ? "" : "|";
    for (char ch : name) {
      if (std::string_view(".^$|()[]{}*+?\\").find(ch) != std::string_view::npos) alternatives += '\\';
      alternatives += ch;
    }
  }
  GbenchSampling narrowed = g;
  narrowed.benchmarks = benchmarks;
  for (auto& [variant, argv] : narrowed.argv) argv.push_back("--benchmark_filter=^(" + alternatives + ")$");
  return narrowed;
}

Sample take_gbench_sample(const GbenchSampling& g, const std::string& variant, int round, bool warmup, int order,
                          int serial, const TempDir& run_dir) {
  const auto& argv = g.argv.at(variant);
  const auto wd = g.workdir.find(variant);
  // One length for every binary's path and every sample's folder (its --benchmark_out), which
  // libbenchmark copies to the heap: common/program_path.hpp.
  std::vector<std::string> programs;
  for (const auto& [name, other] : g.argv) programs.push_back(other.at(0));
  const fs::path dir = run_dir.subdir("sample-" + padded_serial(serial));
  const auto b = run_gbench_binary(g.scenario + "-" + std::to_string(serial),
                                   padded_path(argv.at(0), longest_path(programs)), {argv.begin() + 1, argv.end()}, dir,
                                   g.cpus, g.timeout_s, wd == g.workdir.end() ? fs::path{} : fs::path(wd->second));
  const std::string what = g.scenario + ", round " + std::to_string(round) + ", " + variant + " (" + argv.at(0) + ")";
  if (b.result.timed_out || b.result.signal || b.result.exit_code != 0) throw RunError(what + " " + failure(b));
  if (!b.doc.is_object()) throw RunError(what + " wrote no JSON to --benchmark_out");
  Sample s;
  s.round = round;
  s.variant = variant;
  s.warmup = warmup;
  s.order = order;
  s.digest = "gbench";
  s.steal_ms = b.result.steal_ms;
  s.irq_ms = b.result.irq_ms;
  const auto figures = gbench_figures(b.doc);
  for (const auto& name : g.benchmarks) {
    auto it = std::find_if(figures.begin(), figures.end(), [&](const auto& f) { return f.first == name; });
    if (it == figures.end() || it->second.empty())
      throw RunError(what + ": " + name + " was listed (--benchmark_list_tests) but is not in its output");
    add_gbench_metrics(s, name, median_of(it->second));
  }
  if (b.doc.contains("context")) s.extra = {{"gbench_context", b.doc["context"]}};
  std::error_code ec;
  fs::remove_all(dir, ec);
  return s;
}

bool is_gbench_binary(const fs::path& program) {
  std::ifstream in(program, std::ios::binary);
  if (!in) return false;
  // libbenchmark's C++ symbols (namespace benchmark, mangled): the dynamic symbols a binary
  // linked with libbenchmark.so imports (they survive strip), or the library linked in. Flag
  // names would not do: perfgate itself spells them. Built at run time, so that this binary
  // does not hold the mark. Read in chunks that overlap by its length, so none splits it.
  const std::string mark = std::string("_ZN9") + "benchmark";
  constexpr std::size_t chunk = 1 << 20;
  std::string buf;
  std::vector<char> block(chunk);
  while (in.read(block.data(), chunk) || in.gcount() > 0) {
    buf.append(block.data(), static_cast<std::size_t>(in.gcount()));
    if (buf.find(mark) != std::string::npos) return true;
    if (buf.size() > mark.size()) buf.erase(0, buf.size() - mark.size());
  }
  return false;
}

// A Google Benchmark binary runs each benchmark for a fixed time: its wall and CPU time say
// nothing about its speed, and its timing output differs from run to run. `ab` would print a
// ratio that means nothing, so it points at `perfgate gbench` instead (exit 2).
void refuse_gbench_binaries(const std::vector<std::string>& before, const std::vector<std::string>& after, bool shell,
                            const std::string& dir) {
  // The program: argv[0], or under a shell the command line's first word (`sh -c "./bench"`).
  auto program_of = [shell](const std::vector<std::string>& argv) -> std::string {
    if (!shell) return argv.front();
    try {
      const auto words = split_command(argv.back());
      return words.empty() ? "" : words.front();
    } catch (const Error&) {
      return "";  // shell syntax perfgate does not split: the shell's to run
    }
  };
  const std::string programs[] = {program_of(before), program_of(after)};
  for (const auto* argv : {&before, &after}) {
    const std::string& name = programs[argv == &before ? 0 : 1];
    bool gbench = false;
    for (const auto& word : *argv) gbench = gbench || word.find("--benchmark_") != std::string::npos;
    if (!gbench && !name.empty()) {
      namespace fs = std::filesystem;
      fs::path program = name;
      if (program.is_relative() && name.find('/') != std::string::npos && !dir.empty()) program = dir / program;
      try {
        if (name.find('/') == std::string::npos) program = resolve_program(name);
        gbench = is_gbench_binary(program);
      } catch (const Error&) {
        // not found, or a shell word such as `cd`: plan_ab says so in its own words, or the shell runs it
      }
    }
    if (gbench)
      throw UsageError(
          "ab: " + (name.empty() ? argv->back() : name) +
          " is a Google Benchmark binary: it runs each benchmark for a fixed time, so its wall and CPU "
          "time say nothing. Compare two of them benchmark by benchmark with\n  perfgate gbench --before " +
          programs[0] + " --after " + programs[1] + " [--filter REGEX] [-- ARGS]");
  }
}

}  // namespace perfgate::run
