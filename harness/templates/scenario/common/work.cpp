// __NAME__: the input and the answer format, shared by BEFORE and AFTER so they can only differ
// in how they find the records.
#include "work.hpp"

#include <random>
#include <stdexcept>

#include "perfgate/canonical_row.hpp"

namespace __NAME__ {

Params params_from(const perfgate::Invocation& inv) {
  Params p;
  p.records = inv.param<int>("records", p.records);
  p.keys = inv.param<int>("keys", p.keys);
  p.queries = inv.param<int>("queries", p.queries);
  if (p.records < 0 || p.keys < 1 || p.queries < 0)
    throw std::invalid_argument("params: records, queries >= 0, keys >= 1");
  return p;
}

Lies lies_from(const perfgate::Invocation& inv) {
  return {inv.lying("first-match-only"), inv.lying("skip-empty"), inv.lying("no-size")};
}

perfgate::ScenarioProgram program() { return perfgate::ScenarioProgram("__NAME__").variants({"before", "after"}); }

Input make_input(const Params& p) {
  std::mt19937_64 rng(42);  // mt19937_64's output is fixed by the standard: the same input everywhere
  Input in;
  in.records.reserve(static_cast<std::size_t>(p.records));
  // Keys drawn from 1.5x the key space: about a third of the queried keys have no record.
  const auto key_space = static_cast<std::uint64_t>(p.keys) * 3 / 2 + 1;
  for (int i = 0; i < p.records; ++i) {
    const auto r = rng();
    in.records.push_back({i, static_cast<std::int64_t>(r % key_space), static_cast<std::int64_t>(r >> 40),
                          "record-" + std::to_string(i)});
  }
  for (int q = 0; q < p.queries; ++q) in.queries.push_back(static_cast<std::int64_t>(rng() % key_space));
  return in;
}

std::string format_answer(std::int64_t key, const std::vector<const Record*>& matches) {
  std::string out = perfgate::CanonicalRow(2).integer(key).integer(static_cast<std::int64_t>(matches.size())).str();
  for (const Record* r : matches) out += perfgate::CanonicalRow(3).integer(r->id).text(r->name).integer(r->size).str();
  return out;
}

}  // namespace __NAME__
