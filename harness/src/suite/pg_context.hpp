// The PostgreSQL server of a run, opened at the first scenario that needs it and stopped
// (cluster deleted, or perfgate's databases dropped) when the run ends, however it ends.
#pragma once

#include <memory>
#include <string>

#include "measure/cgroup.hpp"
#include "postgres/pg_server.hpp"
#include "suite/run_sink.hpp"

namespace perfgate::suite {

struct PgContext {
  std::unique_ptr<measure::SampleCgroup> cgroup;  // the throwaway cluster's own cgroup
  std::unique_ptr<fixtures::PgServer> server;

  // The server, started (or connected to, with PERFGATE_PG_DSN) on first use. Throws RunError.
  fixtures::PgServer& open(const RunSink& status);
};

}  // namespace perfgate::suite
