// A server a scenario program starts as its own child — an object store, a remote blob store —
// and owns: the constructor waits for the server's {"listen": "HOST:PORT"} line (the same line
// a scenario's `serve` prints, sample.hpp's announce_listen); the destructor stops it (SIGTERM,
// then SIGKILL after 2 s) and reaps it; and the kernel kills it if the program dies first
// (PR_SET_PDEATHSIG, set between fork and exec; a child whose parent is already gone does not
// start). It never outlives the program, so a sample leaves no server behind.
//
//   perfgate::ServerProcess store(program, {"--latency-ms", "10"}, "the object store",
//                                 "build the target s3_store, or set PERFGATE_S3_STORE");
//   connect(store.endpoint());
//
// Header-only (scenario programs do not link the harness); link Boost::filesystem, which
// Boost.Process 1.74 needs.
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <boost/process/pipe.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "perfgate/endpoint.hpp"

namespace perfgate {

class ServerProcess {
 public:
  // `what` names the server in messages ("the object store"); `missing_hint` says how to get
  // the program when it is not there.
  ServerProcess(const std::filesystem::path& program, const std::vector<std::string>& args, std::string what,
                const std::string& missing_hint)
      : what_(std::move(what)) {
    namespace bp = boost::process;
    if (!std::filesystem::exists(program))
      throw std::runtime_error(what_ + " program is missing: " + program.string() + " (" + missing_hint + ")");
    const pid_t parent = ::getpid();
    child_ = bp::child(
        program.string(), bp::args(args), bp::std_out > out_, bp::extend::on_exec_setup = [parent](auto&) {
          ::prctl(PR_SET_PDEATHSIG, SIGKILL);
          if (::getppid() != parent) ::_exit(1);
        });
    pid_ = child_.id();
    std::string line;
    if (!std::getline(out_, line)) {
      stop();
      throw std::runtime_error(what_ + " exited before announcing its port (see its stderr above)");
    }
    try {
      const std::string listen = nlohmann::json::parse(line).at("listen").get<std::string>();
      const auto colon = listen.rfind(':');
      if (colon == std::string::npos) throw std::invalid_argument("no port in " + listen);
      endpoint_.host = listen.substr(0, colon);
      endpoint_.port = static_cast<unsigned short>(std::stoi(listen.substr(colon + 1)));
    } catch (const std::exception& e) {
      stop();
      throw std::runtime_error(what_ + " announced '" + line + "': " + e.what());
    }
  }
  ~ServerProcess() { stop(); }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const Endpoint& endpoint() const { return endpoint_; }
  pid_t pid() const { return pid_; }

 private:
  void stop() noexcept {
    try {
      if (!child_.valid() || !child_.running()) return;
      ::kill(pid_, SIGTERM);
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

  std::string what_;
  boost::process::ipstream out_;
  boost::process::child child_;
  Endpoint endpoint_;
  pid_t pid_ = -1;
};

// A helper program shipped beside the scenario's executable: $ENV_VAR when set, else NAME in
// this executable's folder.
inline std::filesystem::path program_beside_self(const char* env_var, const std::string& name) {
  if (const char* env = std::getenv(env_var); env && *env) return env;
  return std::filesystem::read_symlink("/proc/self/exe").parent_path() / name;
}

}  // namespace perfgate
