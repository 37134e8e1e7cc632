#include "run/window_marks.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <regex>

#include "common/errors.hpp"

namespace perfgate::run {

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::optional<double> cpu_ms(const measure::SampleCgroup& cgroup) {
  const auto u = cgroup.has_cpu() ? cgroup.cpu() : std::nullopt;
  if (!u) return std::nullopt;
  return static_cast<double>(u->usage_usec) / 1e3;
}

}  // namespace

WindowMarks::WindowMarks() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
    throw RunError(std::string("socketpair for the window marks: ") + std::strerror(errno));
  ours_ = sv[0];
  child_ = sv[1];
}

WindowMarks::~WindowMarks() {
  if (ours_ >= 0) ::close(ours_);
  close_child_end();
}

void WindowMarks::close_child_end() {
  if (child_ >= 0) ::close(child_);
  child_ = -1;
}

void WindowMarks::serve(const measure::SampleCgroup& cgroup) {
  for (;;) {
    char msg[256];
    const ssize_t n = ::recv(ours_, msg, sizeof msg, MSG_DONTWAIT);
    if (n <= 0) return;
    // Stamped before anything else is done: the program waits for the answer below.
    const double at = now_ms();
    const auto cpu = cpu_ms(cgroup);
    const std::string text(msg, static_cast<std::size_t>(n));
    const std::string name = text.size() > 2 ? text.substr(2) : "";
    const char kind = text.empty() ? '?' : text[0];
    if (error_.empty()) {
      if (!std::regex_match(name, std::regex("[a-z][a-z0-9_]*")) || (kind != 'b' && kind != 'e') || text[1] != ' ')
        error_ = "a window mark '" + text.substr(0, 60) + "' is not 'b NAME' or 'e NAME' (NAME: a-z, 0-9, _)";
      else if (kind == 'b' && open_.count(name))
        error_ = "the window '" + name + "' was opened again before it was closed";
      else if (kind == 'e' && !open_.count(name))
        error_ = "the window '" + name + "' was closed without being opened";
      else if (kind == 'b')
        open_[name] = {at, cpu};
      else {
        const Open o = open_[name];
        open_.erase(name);
        WindowTotals& t = totals_[name];
        t.wall_ms += at - o.at_ms;
        if (cpu && o.cpu_ms)
          t.cpu_ms = t.cpu_ms.value_or(0) + (*cpu - *o.cpu_ms);
        else
          t.cpu_ms.reset();
        ++t.opened;
      }
    }
    const char ack = 'k';
    if (::send(ours_, &ack, 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) return;
  }
}

std::map<std::string, WindowTotals> WindowMarks::totals() const {
  if (!error_.empty()) throw RunError(error_);
  if (!open_.empty()) throw RunError("the window '" + open_.begin()->first + "' was never closed");
  return totals_;
}

}  // namespace perfgate::run
