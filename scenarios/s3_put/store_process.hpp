// Starts the object store (s3_store) as a child process and owns it: the destructor stops it
// (SIGTERM, then SIGKILL) and reaps it, and the kernel kills it if we die first
// (PR_SET_PDEATHSIG, set between fork and exec). It never outlives the program.
#pragma once

#include <boost/process/child.hpp>
#include <boost/process/pipe.hpp>
#include <filesystem>

#include "store_client.hpp"

namespace s3_put {

class StoreProcess {
 public:
  StoreProcess(const std::filesystem::path& program, double latency_ms);
  ~StoreProcess();
  StoreProcess(const StoreProcess&) = delete;
  StoreProcess& operator=(const StoreProcess&) = delete;
  const Endpoint& endpoint() const { return endpoint_; }
  pid_t pid() const { return child_.id(); }

 private:
  void stop() noexcept;
  boost::process::ipstream out_;
  boost::process::child child_;
  Endpoint endpoint_;
};

// Where s3_store is: $PERFGATE_S3_STORE, else beside this executable.
std::filesystem::path default_store_program();

}  // namespace s3_put
