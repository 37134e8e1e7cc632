// __NAME__ as a service: `seed` writes the load generator's URL list, `serve` answers
// GET /answer/<key> with the variant's code until SIGTERM (the harness drives it with its own
// load generator and compares every response, status and body, across variants and rounds).
//   Lies (work.hpp's Lies): --lie first-match-only|skip-empty|no-size.
#include <fstream>

#include "perfgate/scenario_main.hpp"
#include "server.hpp"
#include "work.hpp"

namespace {

// scenario.json workloads.queries.urls, relative to the fixture: one path per query, in order.
perfgate::json seed(const perfgate::Invocation& inv) {
  const auto input = __NAME__::make_input(__NAME__::params_from(inv));
  std::ofstream urls(inv.target + "/urls.txt");
  for (const auto key : input.queries) urls << "/answer/" << key << "\n";
  if (!urls.flush()) throw std::runtime_error("cannot write " + inv.target + "/urls.txt");
  return {{"urls", input.queries.size()}};
}

int serve(const perfgate::Invocation& inv) {
  const auto input = __NAME__::make_input(__NAME__::params_from(inv));  // before listening: not measured
  if (inv.variant == "after") {
    const __NAME__::After after(input.records, __NAME__::lies_from(inv));
    __NAME__::serve_http(inv.listen, [&](std::int64_t key) { return after.answer(key); });
  }
  const __NAME__::Before before(input.records);
  __NAME__::serve_http(inv.listen, [&](std::int64_t key) { return before.answer(key); });
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv, __NAME__::program().seed(seed).serve(serve));
}
