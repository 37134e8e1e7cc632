// asset_cache: `seed` builds the SQLite catalogue, `serve` runs the asset server until SIGTERM
// (a service scenario: there is no `run`; the harness drives `serve` with its load generator).
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "perfgate/scenario_main.hpp"
#include "seed.hpp"
#include "server.hpp"

namespace {

std::size_t parse_size(const std::string& flag, const std::string& value) {
  std::size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(value, &used);
  } catch (const std::exception&) {
  }
  if (used != value.size() || v < 0)
    throw std::invalid_argument("--" + flag + " '" + value + "' is not a non-negative integer");
  return static_cast<std::size_t>(v);
}

perfgate::json seed(const perfgate::Invocation& inv) {
  perfgate::Stopwatch clock;
  auto figures = asset_cache::seed_fixture(asset_cache::SeedParams::from_json(inv.params), inv.target);
  figures["seconds"] = clock.ms() / 1000.0;
  return figures;
}

int serve(const perfgate::Invocation& inv) {
  if (inv.has("die-with-parent")) {
    // For spawners that cannot set PR_SET_PDEATHSIG between fork and exec themselves. Not
    // the default: a server started from a short-lived shell (`(serve &)`) would die at once.
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent || parent == 1) return 1;  // the parent is already gone
  }
  asset_cache::ServerOptions o;
  o.fixture_dir = inv.fixture;
  if (o.fixture_dir.empty()) throw std::invalid_argument("serve needs --fixture DIR (made by `asset_cache seed`)");
  o.listen = inv.listen;
  o.cache = inv.flag("cache", "none");
  o.capacity = parse_size("capacity", inv.flag("capacity", "256"));
  o.io_threads = static_cast<int>(parse_size("io-threads", inv.flag("io-threads", "1")));
  o.lie = inv.lie;
  for (const auto& [name, value] : inv.flags)
    if (name != "cache" && name != "capacity" && name != "io-threads" && name != "die-with-parent")
      throw std::invalid_argument("unknown flag --" + name + " (serve takes --cache, --capacity, --io-threads)");
  return asset_cache::serve(o);
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv, perfgate::ScenarioProgram("asset_cache").seed(seed).serve(serve));
}
