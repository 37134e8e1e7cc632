#include "run/counting_sample.hpp"

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "catalog/counting_measures.hpp"
#include "common/errors.hpp"
#include "common/program_path.hpp"
#include "run/metric_specs.hpp"

namespace perfgate::run {
namespace {

constexpr const char* kAllocPrefix = "allocs";
constexpr const char* kCachegrindPrefix = "cachegrind.out.";

std::vector<fs::path> files_starting(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  return out;
}

// Every process the sample started writes its own file; a sample's count is their sum. Peak
// heap is summed too: the processes' peaks need not coincide, so it is an upper bound. When
// any process marked a window, only windowed processes count: a wrapper (sh, a launcher) that
// never marks one is setup, not the measured work.
void add_alloc_metrics(Sample& s, const fs::path& dir, const std::string& what) {
  const auto files = files_starting(dir, std::string(kAllocPrefix) + ".");
  if (files.empty())
    throw RunError(what +
                   ": the allocation counter wrote nothing; is the program statically linked, or does it "
                   "end with _exit before perfgate_alloc_window_stop()? (docs/scenario-contract.md)");
  std::vector<nlohmann::json> counts;
  bool windowed = false;
  for (const auto& f : files) {
    std::ifstream in(f);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw RunError(what + ": unreadable allocation counts in " + f.string());
    // Written at start and never finished: the process ended without exit handlers (_exit,
    // as dash does after forking its commands); its own children reported for it.
    if (!j.value("complete", true)) continue;
    windowed = windowed || j.value("window", false);
    counts.push_back(std::move(j));
  }
  if (counts.empty())
    throw RunError(what +
                   ": no process of the sample finished counting allocations: each ended with _exit "
                   "without closing a window (perfgate_alloc_window_stop())");
  double allocs = 0, large = 0, bytes = 0, frees = 0, peak = 0, live = 0;
  for (const auto& j : counts) {
    if (windowed && !j.value("window", false)) continue;
    allocs += j.value("allocs", 0.0);
    large += j.value("large_allocs", 0.0);
    bytes += j.value("alloc_bytes", 0.0);
    frees += j.value("frees", 0.0);
    peak += j.value("peak_heap_bytes", 0.0);
    live += j.value("live_heap_bytes", 0.0);
  }
  const std::string src = "preload:libperfgate_alloc";
  s.metrics["allocs"] = measured("allocs", allocs, src);
  s.metrics["large_allocs"] = measured("large_allocs", large, src);
  s.metrics["alloc_bytes"] = measured("alloc_bytes", bytes, src);
  s.metrics["frees"] = measured("frees", frees, src);
  s.metrics["peak_heap_bytes"] = measured("peak_heap_bytes", peak, src);
  s.metrics["live_heap_bytes"] = measured("live_heap_bytes", live, src);
}

// cachegrind's out file ends with "summary: <Ir>" when only Ir is counted.
void add_instruction_metrics(Sample& s, const fs::path& dir, const std::string& what) {
  const auto files = files_starting(dir, kCachegrindPrefix);
  if (files.empty())
    throw RunError(what + ": valgrind wrote no cachegrind output (see " + (dir / "valgrind.log").string() + ")");
  double ir = 0;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    bool found = false;
    while (std::getline(in, line))
      if (line.rfind("summary:", 0) == 0) {
        ir += std::strtod(line.c_str() + 8, nullptr);
        found = true;
      }
    if (!found) throw RunError(what + ": no summary line in " + f.string());
  }
  s.metrics["instructions"] = measured("instructions", ir, "valgrind:cachegrind Ir");
}

}  // namespace

CountingCommand counting_command(const std::string& measure, const std::vector<std::string>& argv,
                                 const fs::path& dir) {
  CountingCommand c;
  c.env["PERFGATE_COUNTING"] = measure;
  if (measure == "allocs") {
    c.argv = argv;
    std::string preload = catalog::alloc_library().string();
    if (const char* theirs = std::getenv("LD_PRELOAD"); theirs && *theirs) preload += std::string(":") + theirs;
    c.env["LD_PRELOAD"] = preload;
    c.env["PERFGATE_ALLOC_OUT"] = (dir / kAllocPrefix).string();
    return c;
  }
  // Cache and branch simulation off: only Ir is counted, and valgrind runs at its fastest.
  c.argv = {"valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--branch-sim=no",
            "--trace-children=yes",
            "--cachegrind-out-file=" + (dir / kCachegrindPrefix).string() + "%p",
            "--log-file=" + (dir / "valgrind.log").string()};
  c.argv.insert(c.argv.end(), argv.begin(), argv.end());
  // valgrind starts in the sample's work directory, so a program given relative to ours
  // (`./prog`) must be made absolute here; a bare name stays for valgrind's PATH lookup.
  if (!argv.empty() && argv.front().find('/') != std::string::npos && argv.front().front() != '/')
    c.argv[c.argv.size() - argv.size()] = fs::absolute(argv.front()).string();
  return c;
}

void add_counting_metrics(Sample& s, const std::string& measure, const fs::path& dir, const std::string& what) {
  if (measure == "allocs")
    add_alloc_metrics(s, dir, what);
  else
    add_instruction_metrics(s, dir, what);
}

std::string counting_note(const std::string& measure) {
  if (measure == "allocs")
    return "allocs, alloc_bytes, peak_heap_bytes: counted by perfgate's LD_PRELOAD allocator interposer in one extra "
           "run per measured sample (never in a timed run); blind to static binaries, allocators that bypass malloc "
           "(Go, raw mmap arenas) and allocations outside the program's window";
  return "instructions: valgrind cachegrind's Ir, in one extra run per measured sample (never in a timed run); a "
         "noise-free proxy for CPU time, blind to syscalls, I/O and waiting and to how fast each instruction ran";
}

}  // namespace perfgate::run
