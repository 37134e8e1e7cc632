#include "suite/pg_context.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "cache/fixture_cache.hpp"
#include "common/errors.hpp"

namespace perfgate::suite {

fixtures::PgServer& PgContext::open(const StatusLine& status) {
  if (server) return *server;
  cgroup = std::make_unique<measure::SampleCgroup>("postgres");
  procs_files = cgroup->procs_files();
  fixtures::PgServerOptions o;
  o.cache_dir = fixtures::cache_root();
  const auto* files = &procs_files;
  // Between fork and exec only async-signal-safe calls: the postmaster joins the cluster's
  // cgroup before it starts, so its CPU is measured from its first instruction.
  o.in_child_before_exec = [files] {
    for (const auto& f : *files) {
      int fd = ::open(f.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd >= 0) {
        (void)!::write(fd, "0", 1);
        ::close(fd);
      }
    }
  };
  o.progress = [&status](const std::string& m) { status.update(m); };
  try {
    server = fixtures::PgServer::open(o);
  } catch (const std::exception& e) {
    throw RunError(std::string("PostgreSQL: ") + e.what());
  }
  return *server;
}

}  // namespace perfgate::suite
