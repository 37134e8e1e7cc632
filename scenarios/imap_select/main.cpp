// imap_select (seed 004): `seed` writes the SQLite mail cache, `serve` runs the IMAP proxy
// (BEFORE: a full snapshot per SELECT; AFTER: shared snapshots with kept counters; dovecot:
// the private Dovecot reference) until SIGTERM, `load --phase NAME` runs one phase of the
// workload against it (the harness samples the server's cgroup between phases).
#include "dovecot/dovecot_serve.hpp"
#include "load_phases.hpp"
#include "perfgate/scenario_main.hpp"
#include "proxy_server.hpp"
#include "seed.hpp"

namespace {

perfgate::json seed(const perfgate::Invocation& inv) {
  return imap_select::seed_fixture(imap_select::SeedParams::from_json(inv.params), inv.target);
}

// Bad flags are usage errors: exit 2, like the SDK's own checks.
int usage(const std::string& why) {
  std::cerr << "imap_select: " << why << std::endl;
  return 2;
}

int serve(const perfgate::Invocation& inv) {
  if (inv.variant == "dovecot") return imap_select::dovecot::serve(inv);
  for (const auto& [name, value] : inv.flags)
    if (name != "workers" && name != "worker-child")
      return usage("unknown flag --" + name + " (serve takes --workers N)");
  if (inv.fixture.empty()) return usage("serve needs --fixture DIR (made by `imap_select seed`)");
  imap_select::ServeOptions o;
  o.proxy = {inv.fixture, inv.variant, inv.lie, inv.params};
  o.listen = inv.listen;
  o.profile = inv.profile;
  o.workers = inv.has("workers") ? std::stoi(inv.flag("workers")) : inv.param<int>("workers", 1);
  o.worker_child = inv.has("worker-child");
  if (o.workers < 1 || o.workers > 16) return usage("--workers must be 1..16");
  return imap_select::serve(o);
}

}  // namespace

int main(int argc, char** argv) {
  return perfgate::scenario_main(argc, argv,
                                 perfgate::ScenarioProgram("imap_select")
                                     .variants({"before", "after", "dovecot"})
                                     .seed(seed)
                                     .serve(serve)
                                     .load(imap_select::run_phase));
}
