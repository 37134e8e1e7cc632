#include "remote_process.hpp"

#include <unistd.h>

#include <string>

namespace blob_stampede {
namespace {

std::vector<std::string> arguments(const RemoteOptions& o) {
  std::vector<std::string> args = {"--root",
                                   o.root.string(),
                                   "--ttfb-ms",
                                   std::to_string(o.ttfb_ms),
                                   "--bandwidth-mib-s",
                                   std::to_string(o.bandwidth_mib_s),
                                   "--chunk-kib",
                                   std::to_string(o.chunk_kib),
                                   "--parent-pid",
                                   std::to_string(::getpid())};
  if (!o.witness_blob.empty()) args.insert(args.end(), {"--witness-blob", o.witness_blob});
  if (!o.fail_fetches.empty()) {
    std::string list;
    for (int n : o.fail_fetches) list += (list.empty() ? "" : ",") + std::to_string(n);
    args.insert(args.end(), {"--fail-after-bytes", std::to_string(o.fail_after_bytes), "--fail-fetches", list});
  }
  return args;
}

}  // namespace

RemoteProcess::RemoteProcess(const RemoteOptions& options)
    : perfgate::ServerProcess(options.program, arguments(options), "the remote blob store",
                              "build the target blob_remote, or set PERFGATE_BLOB_REMOTE") {}

}  // namespace blob_stampede
