#include "parity/agreement_pass.hpp"

#include <fstream>
#include <regex>
#include <set>

#include "common/errors.hpp"
#include "common/interrupt.hpp"
#include "load/http_load.hpp"
#include "parity/statement_counter.hpp"

namespace perfgate::parity {

namespace {

Answer fetch(Client& c, const SqliteCounter* counter, const std::string& path) {
  const long long before = counter ? counter->executed() : 0;
  Answer a = c.get(path);
  if (counter) a.executed = counter->executed() - before;
  return a;
}

}  // namespace

std::vector<Quad> fetch_quads(const Endpoints& e, const std::vector<std::string>& paths, double timeout_s) {
  Client a(e.a, timeout_s), a2(e.a2, timeout_s), b(e.b, timeout_s), b2(e.b2, timeout_s);
  std::vector<Quad> out;
  out.reserve(paths.size());
  for (const auto& p : paths) {
    check_interrupted();
    Quad q;
    q.path = p;
    q.a = fetch(a, e.counted_a, p);
    q.b = fetch(b, e.counted_b, p);
    q.a2 = fetch(a2, e.counted_a2, p);
    q.b2 = fetch(b2, e.counted_b2, p);
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<std::string> read_request_set(const std::string& file) {
  load::RequestSet set;
  try {
    set = load::RequestSet::from_url_file(file);
  } catch (const std::exception& e) {
    throw UsageError("--requests " + file + ": " + e.what());
  }
  static const std::regex id("[0-9a-fA-F]{32}");
  std::set<std::string> seen;
  std::vector<std::string> out;
  for (std::size_t i = 0; i < set.paths.size(); ++i) {
    const auto& p = set.paths[i];
    if (std::regex_search(p, id))
      throw UsageError(file + ": request " + std::to_string(i + 1) + " (" + p +
                       ") carries an id (32 hex digits); a parity request set must be id-free");
    if (seen.insert(p).second) out.push_back(p);
  }
  return out;
}

}  // namespace perfgate::parity
