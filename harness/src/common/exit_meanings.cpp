#include "common/exit_meanings.hpp"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "common/errors.hpp"

namespace perfgate {

namespace {

const std::vector<std::pair<int, const char*>> kMeanings = {
    {kExitOk, "every gate passed (the comparison, check or search answered)"},
    {kExitPerformance, "a performance gate failed (AFTER lost, a claim missed, a baseline regression)"},
    {kExitUsage, "bad usage or input (the message names the file and field)"},
    {kExitEquivalence, "an equivalence gate failed: BEFORE and AFTER did different work"},
    {kExitRun, "the run could not be made (a crash, a timeout, a build that failed)"},
    {kExitCannotTell,
     "a gated comparison cannot tell (too few rounds, or its interval reaches across the band's edge; "
     "--cannot-tell warn|pass makes it 0)"},
    {kExitInterrupted, "interrupted (the results hold the completed rounds)"},
};

const std::vector<int> kRunning = {kExitOk,  kExitPerformance, kExitUsage,      kExitEquivalence,
                                   kExitRun, kExitCannotTell,  kExitInterrupted};

const std::map<std::string, std::vector<int>> kByCommand = {
    {"run", kRunning},
    {"ab", kRunning},
    {"gbench", kRunning},
    {"batch", kRunning},
    {"merge", kRunning},  // the shards' codes, the most severe
    {"bisect", {kExitOk, kExitUsage, kExitRun, kExitInterrupted}},
    {"compare", {kExitOk, kExitPerformance, kExitUsage}},
    {"baseline", {kExitOk, kExitPerformance, kExitUsage}},
    {"lies", {kExitOk, kExitPerformance, kExitUsage, kExitRun, kExitInterrupted}},
    {"calibrate", {kExitOk, kExitUsage, kExitRun, kExitInterrupted}},
    {"parity", {kExitOk, kExitPerformance, kExitUsage, kExitEquivalence, kExitRun, kExitInterrupted}},
    {"report", {kExitOk, kExitUsage, kExitRun}},
    {"history", {kExitOk, kExitUsage, kExitRun}},
    {"list", {kExitOk}},
    {"new", {kExitOk, kExitUsage}},
};

}  // namespace

std::string exit_codes_text(const std::string& command) {
  const auto it = kByCommand.find(command);
  std::string text = "Exit codes:";
  for (const auto& [code, meaning] : kMeanings)
    if (command.empty() ||
        (it != kByCommand.end() && std::find(it->second.begin(), it->second.end(), code) != it->second.end()))
      text += "\n  " + std::to_string(code) + (code < 10 ? "    " : "  ") + meaning;
  return text;
}

}  // namespace perfgate
