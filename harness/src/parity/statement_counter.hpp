// Statements a parity server's libsqlite3 executed, counted from outside. The statement gates
// read X-Perfgate-Statements, the server's own account; with service.parity.statement_counter
// "sqlite" the agreement pass runs each server under LD_PRELOAD of lib/libperfgate_sqlite.so
// (harness/preload/sqlite_count.c), which adds to a 16-byte file read around every request,
// and an answer whose header differs from what its server ran is a lie (exit 3), naming both
// figures (docs/parity.md, "Statements counted outside").
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parity/agreement.hpp"

namespace perfgate::parity {

class SqliteCounter {
 public:
  // Writes `file`: 16 zero bytes the library maps (word 0: loaded, word 1: statements).
  explicit SqliteCounter(std::filesystem::path file);
  // LD_PRELOAD (ours first, the user's kept) and PERFGATE_SQLITE_COUNT_FILE, for the server.
  std::map<std::string, std::string> env() const;
  // Throws RunError naming `who` when the library never loaded (a static or setuid program):
  // a count of nothing must not read as a server that ran nothing.
  void require_loaded(const std::string& who) const;
  long long executed() const;

 private:
  std::uint64_t word(int i) const;
  std::filesystem::path file_;
};

// The first answer whose X-Perfgate-Statements differs from the statements its server's
// libsqlite3 executed for it, as "after's X-Perfgate-Statements said 3 on PATH; its
// libsqlite3 executed 57", or nullopt. Answers without both figures are not judged.
std::optional<std::string> miscounted(const std::vector<Quad>& quads, const Sides& sides);

}  // namespace perfgate::parity
