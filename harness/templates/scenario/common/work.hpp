// __NAME__: the work BEFORE and AFTER both do, and the answers it gives. The example looks up
// every record of each queried key: BEFORE scans all records per query, AFTER builds a hash
// index once. Replace it with your own code and keep the shape: an input made from the
// profile's params alone (the same bytes on every machine), one answer per unit of work that
// carries everything the work returned, and AFTER's declared lies as flags (scenario.json lies).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "perfgate/scenario_main.hpp"

namespace __NAME__ {

struct Params {  // scenario.json profiles.<P>.params; these defaults are the gbench sizes
  int records = 20000;
  int keys = 4000;  // records share keys; some keys have none
  int queries = 2000;
};
Params params_from(const perfgate::Invocation& inv);

struct Record {
  std::int64_t id = 0, key = 0, size = 0;
  std::string name;
};
struct Input {
  std::vector<Record> records;        // in id order
  std::vector<std::int64_t> queries;  // the keys to look up, in order
};
Input make_input(const Params& p);  // deterministic: a fixed PRNG seed

// One answer: a row (key, count) and then one row per record (id, name, size), in id order,
// canonically serialised. A key without records still answers its (key, 0) row, so a skipped
// query changes the digest as surely as a dropped record or column does.
std::string format_answer(std::int64_t key, const std::vector<const Record*>& matches);

// AFTER that does less on purpose (`perfgate lies` must catch each one; tests/ check they differ).
struct Lies {
  bool first_match_only = false;  // --lie first-match-only: stops at a key's first record
  bool skip_empty = false;        // --lie skip-empty: answers nothing for a key without records
  bool no_size = false;           // --lie no-size: answers every record with size 0 (never read)
};
Lies lies_from(const perfgate::Invocation& inv);

// The program's name and variants: main adds its handlers. The lies it accepts are scenario.json's
// (`lies[].name`, compiled in by the build: perfgate_manifest_lies()), declared nowhere else.
perfgate::ScenarioProgram program();

class Before {  // before.cpp
 public:
  explicit Before(const std::vector<Record>& records) : records_(records) {}
  std::string answer(std::int64_t key) const;

 private:
  const std::vector<Record>& records_;
};

class After {  // after.cpp
 public:
  explicit After(const std::vector<Record>& records, Lies lies = {});
  std::string answer(std::int64_t key) const;

 private:
  std::unordered_map<std::int64_t, std::vector<const Record*>> index_;
  Lies lies_;
};

// Every query's answer, in order: what `run`, the benchmark and the tests compare.
template <class Impl>
std::vector<std::string> answer_all(const Impl& impl, const std::vector<std::int64_t>& queries) {
  std::vector<std::string> out;
  out.reserve(queries.size());
  for (const auto key : queries) out.push_back(impl.answer(key));
  return out;
}

}  // namespace __NAME__
