// One sample: one run of one variant in one round, with every figure and where it came from.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "run/child.hpp"

namespace perfgate::run {

using json = nlohmann::json;

struct MetricValue {
  double value = 0;
  std::string unit, better = "lower", source;
};

struct Sample {
  int round = 0;
  std::string variant;
  bool warmup = false;
  int order = 0;
  int exit_code = 0;
  std::string digest;
  std::map<std::string, MetricValue> metrics;
  json series = json::object();
  json extra = json::object();
};

json to_json(const Sample&);

// The figures the harness measures outside the program (wall, CPU, RSS, syscalls, context
// switches), each with its source. See docs/scenario-contract.md.
void add_outside_metrics(Sample&, const ChildResult&);

// Reads the contract's last stdout line into `sample` (digest, metrics, series, extra).
// Throws RunError naming the program when the line is missing or malformed.
void parse_program_report(Sample& sample, const std::string& last_line, const std::string& program);

}  // namespace perfgate::run
