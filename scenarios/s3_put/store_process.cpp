#include "store_process.hpp"

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

namespace s3_put {
namespace bp = boost::process;

StoreProcess::StoreProcess(const std::filesystem::path& program, double latency_ms) {
  if (!std::filesystem::exists(program))
    throw std::runtime_error("the object store program is missing: " + program.string() +
                             " (build the target s3_store, or set PERFGATE_S3_STORE)");
  const pid_t parent = ::getpid();
  child_ = bp::child(
      program.string(), bp::args({"--latency-ms", std::to_string(latency_ms), "--parent-pid", std::to_string(parent)}),
      bp::std_out > out_, bp::extend::on_exec_setup = [parent](auto&) {
        // In the child, before exec: die with the parent; do not start if it is gone.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);
      });
  std::string line;
  if (!std::getline(out_, line)) {
    stop();
    throw std::runtime_error("the object store exited before announcing its port (see its stderr above)");
  }
  try {
    const std::string listen = nlohmann::json::parse(line).at("listen").get<std::string>();
    const auto colon = listen.rfind(':');
    endpoint_.host = listen.substr(0, colon);
    endpoint_.port = static_cast<unsigned short>(std::stoi(listen.substr(colon + 1)));
  } catch (const std::exception& e) {
    stop();
    throw std::runtime_error("the object store announced '" + line + "': " + e.what());
  }
}

StoreProcess::~StoreProcess() { stop(); }

void StoreProcess::stop() noexcept {
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
    ::kill(child_.id(), SIGKILL);
  }
}

std::filesystem::path default_store_program() {
  if (const char* env = std::getenv("PERFGATE_S3_STORE"); env && *env) return env;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / "s3_store";
}

}  // namespace s3_put
