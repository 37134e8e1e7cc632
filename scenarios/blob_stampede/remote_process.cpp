#include "remote_process.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

namespace blob_stampede {
namespace bp = boost::process;

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
  if (!o.fail_fetches.empty()) {
    std::string list;
    for (int n : o.fail_fetches) list += (list.empty() ? "" : ",") + std::to_string(n);
    args.insert(args.end(), {"--fail-after-bytes", std::to_string(o.fail_after_bytes), "--fail-fetches", list});
  }
  return args;
}

}  // namespace

RemoteProcess::RemoteProcess(const RemoteOptions& options) {
  if (!std::filesystem::exists(options.program))
    throw std::runtime_error("the remote blob store program is missing: " + options.program.string() +
                             " (build the target blob_remote, or set PERFGATE_BLOB_REMOTE)");
  const pid_t parent = ::getpid();
  child_ = bp::child(
      options.program.string(), bp::args(arguments(options)), bp::std_out > out_,
      bp::extend::on_exec_setup = [parent](auto&) {
        // In the child, before exec: die with the parent, and not start at all
        // if it is already gone.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);
      });
  pid_ = child_.id();
  std::string line;
  if (!std::getline(out_, line)) {
    stop();
    throw std::runtime_error("the remote blob store exited before announcing its port (see its stderr above)");
  }
  try {
    const auto j = nlohmann::json::parse(line);
    const std::string listen = j.at("listen").get<std::string>();
    const auto colon = listen.rfind(':');
    endpoint_.host = listen.substr(0, colon);
    endpoint_.port = static_cast<unsigned short>(std::stoi(listen.substr(colon + 1)));
  } catch (const std::exception& e) {
    stop();
    throw std::runtime_error("the remote blob store announced '" + line + "': " + e.what());
  }
}

RemoteProcess::~RemoteProcess() { stop(); }

void RemoteProcess::stop() noexcept {
  try {
    if (!child_.valid() || !child_.running()) return;
    ::kill(child_.id(), SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (child_.running() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (child_.running())
      child_.terminate();  // SIGKILL and reap
    else
      child_.wait();
  } catch (...) {
    ::kill(pid_, SIGKILL);
  }
}

std::filesystem::path default_remote_program() {
  if (const char* env = std::getenv("PERFGATE_BLOB_REMOTE"); env && *env) return env;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / "blob_remote";
}

}  // namespace blob_stampede
