// The object store (s3_store) as a child process this program owns (perfgate/server_process.hpp:
// stopped and reaped by the destructor, killed by the kernel if we die first).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include "perfgate/server_process.hpp"
#include "store_client.hpp"

namespace s3_put {

class StoreProcess : public perfgate::ServerProcess {
 public:
  StoreProcess(const std::filesystem::path& program, double latency_ms)
      : perfgate::ServerProcess(
            program, {"--latency-ms", std::to_string(latency_ms), "--parent-pid", std::to_string(::getpid())},
            "the object store", "build the target s3_store, or set PERFGATE_S3_STORE") {}
};

// Where s3_store is: $PERFGATE_S3_STORE, else beside this executable.
inline std::filesystem::path default_store_program() {
  return perfgate::program_beside_self("PERFGATE_S3_STORE", "s3_store");
}

}  // namespace s3_put
