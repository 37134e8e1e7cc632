// A server a scenario program starts as its own child — an object store, a remote blob store —
// and owns: the constructor waits for the server's {"listen": "HOST:PORT"} line (the same line
// a scenario's `serve` prints, endpoint.hpp's announce_listen); the destructor stops it (SIGTERM,
// then SIGKILL after 2 s) and reaps it; and the kernel kills it if the program dies first
// (PR_SET_PDEATHSIG, set between fork and exec; a child whose parent is already gone does not
// start). It never outlives the program, so a sample leaves no server behind. Scenario tests start
// their servers with it too.
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
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
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
#include <utility>
#include <vector>

#include "perfgate/endpoint.hpp"

namespace perfgate {

class ServerProcess {
 public:
  // `what` names the server in messages ("the object store"); `missing_hint` says how to get
  // the program when it is not there; `environment` is added to this process's own.
  ServerProcess(const std::filesystem::path& program, const std::vector<std::string>& args, std::string what,
                const std::string& missing_hint,
                const std::vector<std::pair<std::string, std::string>>& environment = {})
      : what_(std::move(what)) {
    namespace bp = boost::process;
    if (!std::filesystem::exists(program))
      throw std::runtime_error(what_ + " program is missing: " + program.string() + " (" + missing_hint + ")");
    bp::environment env = boost::this_process::environment();  // a copy
    for (const auto& [name, value] : environment) env[name] = value;
    const pid_t parent = ::getpid();
    child_ = bp::child(
        program.string(), bp::args(args), env, bp::std_out > out_, bp::extend::on_exec_setup = [parent](auto&) {
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
      announce_ = nlohmann::json::parse(line);
      endpoint_ = parse_endpoint(announce_.at("listen").get<std::string>());
    } catch (const std::exception& e) {
      stop();
      throw std::runtime_error(what_ + " announced '" + line + "': " + e.what());
    }
  }
  ~ServerProcess() { stop(); }
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const Endpoint& endpoint() const { return endpoint_; }
  // The whole announce line: {"listen": ...} and whatever else the server said in it.
  const nlohmann::json& announce() const { return announce_; }
  pid_t pid() const { return pid_; }
  bool running() { return child_.valid() && child_.running(); }

  // SIGTERM, then SIGKILL once `grace` has passed; reaps it and returns its wait status
  // (<sys/wait.h>: WIFEXITED, WEXITSTATUS), so a test can check how it ended. The destructor
  // does the same.
  int stop(std::chrono::milliseconds grace = std::chrono::seconds(2)) noexcept {
    try {
      if (child_.valid() && child_.running()) {
        ::kill(pid_, SIGTERM);
        const auto deadline = std::chrono::steady_clock::now() + grace;
        while (child_.running() && std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (child_.running())
          child_.terminate();  // SIGKILL and reap
        else
          child_.wait();
      }
      return child_.valid() ? child_.native_exit_code() : -1;
    } catch (...) {
      ::kill(pid_, SIGKILL);
      return -1;
    }
  }

 private:
  std::string what_;
  boost::process::ipstream out_;
  boost::process::child child_;
  nlohmann::json announce_;
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
