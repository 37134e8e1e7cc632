#include "parity/statement_counter.hpp"

#include <cstdlib>
#include <fstream>

#include "catalog/counting_measures.hpp"
#include "common/errors.hpp"

namespace perfgate::parity {

SqliteCounter::SqliteCounter(std::filesystem::path file) : file_(std::move(file)) {
  std::ofstream out(file_, std::ios::binary | std::ios::trunc);
  const char zeros[16] = {};
  out.write(zeros, sizeof zeros);
  if (!out.flush()) throw RunError("cannot write the statement counter's file " + file_.string());
}

std::map<std::string, std::string> SqliteCounter::env() const {
  std::string preload = catalog::sqlite_counter_library().string();
  if (const char* theirs = std::getenv("LD_PRELOAD"); theirs && *theirs) preload += std::string(":") + theirs;
  return {{"LD_PRELOAD", preload}, {"PERFGATE_SQLITE_COUNT_FILE", file_.string()}};
}

std::uint64_t SqliteCounter::word(int i) const {
  std::ifstream in(file_, std::ios::binary);
  std::uint64_t w[2] = {};
  if (!in.read(reinterpret_cast<char*>(w), sizeof w))
    throw RunError("cannot read the statement counter's file " + file_.string());
  return w[i];
}

void SqliteCounter::require_loaded(const std::string& who) const {
  if (!std::filesystem::exists(catalog::sqlite_counter_library()))
    throw RunError("the statement counter " + catalog::sqlite_counter_library().string() +
                   " is missing (build target perfgate_sqlite)");
  if (word(0) != 1)
    throw RunError(who + " did not load the statement counter (LD_PRELOAD " +
                   catalog::sqlite_counter_library().string() +
                   "): a static or setuid program cannot have its statements counted; drop "
                   "service.parity.statement_counter for it");
}

long long SqliteCounter::executed() const { return static_cast<long long>(word(1)); }

std::optional<std::string> miscounted(const std::vector<Quad>& quads, const Sides& sides) {
  for (const auto& q : quads) {
    const std::pair<const std::string*, const Answer*> answers[] = {
        {&sides.a, &q.a}, {&sides.a, &q.a2}, {&sides.b, &q.b}, {&sides.b, &q.b2}};
    for (const auto& [side, answer] : answers)
      if (answer->statements && answer->executed && *answer->statements != *answer->executed)
        return *side + "'s X-Perfgate-Statements said " + std::to_string(*answer->statements) + " on " + q.path +
               "; its libsqlite3 executed " + std::to_string(*answer->executed) +
               " (counted outside by perfgate's LD_PRELOAD statement counter)";
  }
  return std::nullopt;
}

}  // namespace perfgate::parity
