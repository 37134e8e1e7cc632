// The remote blob store (blob_remote) as a child process this program owns
// (perfgate/server_process.hpp: stopped and reaped by the destructor, killed by the kernel if
// we die first).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "perfgate/server_process.hpp"
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
  std::string witness_blob;       // the blob whose fetches and bytes the remote's witness file states
};

class RemoteProcess : public perfgate::ServerProcess {
 public:
  explicit RemoteProcess(const RemoteOptions& options);
};

// Where blob_remote is: $PERFGATE_BLOB_REMOTE, else beside this executable.
inline std::filesystem::path default_remote_program() {
  return perfgate::program_beside_self("PERFGATE_BLOB_REMOTE", "blob_remote");
}

}  // namespace blob_stampede
