// asset_cache: the scenario program (docs/scenario-contract.md), a service scenario.
//
//   asset_cache seed  --target DIR [--params JSON]      DIR/assets.sqlite + DIR/urls.txt
//   asset_cache serve --variant V --fixture DIR --listen 127.0.0.1:0
//                     [--cache none|lru-scan|lru] [--capacity N] [--io-threads N] [--die-with-parent]
//
// `serve` prints {"listen": "127.0.0.1:PORT"} once it accepts connections and serves until
// SIGTERM (exit 0). Whoever spawns it sets PR_SET_PDEATHSIG in the child before exec (as the
// harness and tests/server_test.cpp do), so a killed parent leaves no server behind;
// --die-with-parent asks the server to set it on itself, for spawners that cannot.
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <iostream>

#include "perfgate/sample.hpp"
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

}  // namespace

int main(int argc, char** argv) {
  return perfgate::main_guard("asset_cache", [&] {
    if (argc >= 2 && std::string(argv[1]) == "run") {
      std::cerr << "asset_cache is a service scenario: the harness starts `asset_cache serve` and drives it "
                   "with its load generator (kind \"service\" in scenario.json); there is no `run`.\n";
      return 2;
    }
    const perfgate::Invocation inv = perfgate::parse_invocation(argc, argv);
    if (inv.command == "seed") {
      perfgate::Stopwatch clock;
      auto figures = asset_cache::seed_fixture(asset_cache::SeedParams::from_json(inv.params), inv.target);
      figures["seconds"] = clock.ms() / 1000.0;
      std::cout << figures.dump() << std::endl;
      return 0;
    }
    // serve
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
    for (const auto& [name, value] : inv.flags)
      if (name != "cache" && name != "capacity" && name != "io-threads" && name != "die-with-parent")
        throw std::invalid_argument("unknown flag --" + name + " (serve takes --cache, --capacity, --io-threads)");
    return asset_cache::serve(o);
  });
}
