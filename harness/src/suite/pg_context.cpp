#include "suite/pg_context.hpp"

#include "cache/fixture_cache.hpp"
#include "common/errors.hpp"

namespace perfgate::suite {

fixtures::PgServer& PgContext::open(const RunSink& status) {
  if (server) return *server;
  cgroup = std::make_unique<measure::SampleCgroup>("postgres");
  fixtures::PgServerOptions o;
  o.cache_dir = fixtures::cache_root();
  // The postmaster is born into the cluster's cgroup (or joins it before exec), so its CPU is
  // measured from its first instruction; process::spawn decides how.
  o.v2_cgroup = cgroup->v2_dir();
  o.v1_cgroups = cgroup->v1_dirs();
  o.progress = [&status](const std::string& m) { status.update(m); };
  try {
    server = fixtures::PgServer::open(o);
  } catch (const std::exception& e) {
    throw RunError(std::string("PostgreSQL: ") + e.what());
  }
  return *server;
}

}  // namespace perfgate::suite
