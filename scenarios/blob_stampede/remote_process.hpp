// Starts the remote blob store (blob_remote) as a child process and owns it: the destructor
// stops it (SIGTERM, then SIGKILL) and reaps it, and the child is killed by the kernel if we
// die first (PR_SET_PDEATHSIG, set between fork and exec). It never outlives the program.
#pragma once

#include <sys/types.h>

#include <boost/process/child.hpp>
#include <boost/process/pipe.hpp>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "remote_client.hpp"

namespace blob_stampede {

struct RemoteOptions {
  std::filesystem::path program;  // the blob_remote executable
  std::filesystem::path root;     // the blobs it serves
  double ttfb_ms = 15;
  double bandwidth_mib_s = 1024;  // 0: unlimited
  unsigned chunk_kib = 256;
  std::uint64_t fail_after_bytes = 0;
  std::vector<int> fail_fetches;  // 1-based fetch numbers cut short after fail_after_bytes
};

class RemoteProcess {
 public:
  explicit RemoteProcess(const RemoteOptions& options);
  ~RemoteProcess();
  RemoteProcess(const RemoteProcess&) = delete;
  RemoteProcess& operator=(const RemoteProcess&) = delete;

  const Endpoint& endpoint() const { return endpoint_; }
  pid_t pid() const { return pid_; }

 private:
  void stop() noexcept;
  boost::process::ipstream out_;
  boost::process::child child_;
  Endpoint endpoint_;
  pid_t pid_ = -1;
};

// Where blob_remote is: $PERFGATE_BLOB_REMOTE, else beside this executable.
std::filesystem::path default_remote_program();

}  // namespace blob_stampede
