#include "run/ab_sampling.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "common/errors.hpp"
#include "common/files.hpp"
#include "measure/cgroup.hpp"
#include "perfgate/sample.hpp"
#include "run/child.hpp"

namespace perfgate::run {

bool digest_round(std::uint64_t seed, int measured_round, int seeded_so_far) {
  if ((seeded_so_far + 1) * 8 > measured_round) return false;
  // splitmix64 of (seed, round): the same rounds for the same seed, whatever ran before.
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(measured_round + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53 < kDigestShare;
}

DrainedPipe::DrainedPipe(const fs::path& keep, const std::vector<int>& sample_cpus) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw RunError(std::string("pipe2 for a sample's stdout: ") + std::strerror(errno));
  read_fd_ = fds[0];
  write_fd_ = fds[1];
  // Off the sample's CPUs where there is another: the drain is ours, not the program's.
  cpu_set_t others;
  CPU_ZERO(&others);
  if (::sched_getaffinity(0, sizeof others, &others) != 0) CPU_ZERO(&others);
  for (int c : sample_cpus) CPU_CLR(c, &others);
  const bool pin = CPU_COUNT(&others) > 0;
  drain_ = std::thread([this, keep, others, pin] {
    if (pin) ::pthread_setaffinity_np(::pthread_self(), sizeof others, &others);
    Digest d;
    std::ofstream out(keep, std::ios::binary);
    std::vector<char> buf(1 << 16);
    for (;;) {
      const ssize_t n = ::read(read_fd_, buf.data(), buf.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        error_ = std::strerror(errno);
        break;
      }
      if (n == 0) break;
      d.update(buf.data(), static_cast<std::size_t>(n));
      out.write(buf.data(), n);
    }
    digest_ = d.hex();
  });
}

void DrainedPipe::close_write() {
  if (write_fd_ >= 0) ::close(write_fd_);
  write_fd_ = -1;
}

std::string DrainedPipe::finish() {
  close_write();
  if (drain_.joinable()) drain_.join();
  if (!error_.empty()) throw RunError("reading a sample's stdout: " + error_);
  return digest_;
}

DrainedPipe::~DrainedPipe() {
  close_write();
  if (drain_.joinable()) drain_.join();
  ::close(read_fd_);
}

std::string digest_of_file(const fs::path& path) {
  Digest d;
  std::ifstream in(path, std::ios::binary);
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) d.update(buf, static_cast<std::size_t>(in.gcount()));
  return d.hex();
}

void run_user_command(const std::string& what, const std::string& command, const fs::path& workdir,
                      const fs::path& scratch, double timeout_s) {
  fs::create_directories(scratch);
  ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.cwd = workdir.empty() ? scratch : workdir;
  spec.stdout_path = "/dev/null";
  spec.stderr_path = scratch / "stderr";
  spec.timeout_s = timeout_s;
  spec.env = {{"TMPDIR", scratch.string()}};
  measure::SampleCgroup cgroup("user-command");
  const ChildResult r = run_child(spec, cgroup);
  if (r.timed_out || r.signal || r.exit_code != 0) {
    const std::string why = r.timed_out ? "timed out"
                            : r.signal  ? "was killed by signal " + std::to_string(r.signal)
                                        : "exited with " + std::to_string(r.exit_code);
    const std::string tail = tail_of_file(spec.stderr_path);
    throw RunError("the " + what + " command '" + command + "' " + why +
                   (tail.empty() ? " (no stderr)" : "; its stderr:\n" + tail));
  }
}

nlohmann::json to_json(const AbSampling& s) {
  nlohmann::json j = {{"output", s.output.describe()}, {"input", s.input.empty() ? "null" : s.input.string()}};
  auto put = [&](const char* key, const std::string& v) {
    if (!v.empty()) j[key] = v;
  };
  put("prepare", s.prepare);
  put("conclude", s.conclude);
  put("setup", s.setup);
  put("cleanup", s.cleanup);
  if (s.ignore_all_exits)
    j["ignore_failure"] = "all-non-zero";
  else if (!s.ignored_exits.empty())
    j["ignore_failure"] = s.ignored_exits;
  if (!s.parameters.empty()) j["parameters"] = s.parameters;
  return j;
}

}  // namespace perfgate::run
