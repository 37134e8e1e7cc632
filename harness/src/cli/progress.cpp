#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace perfgate::cli {

Progress::Progress(bool quiet) : quiet_(quiet), enabled_(!quiet && ::isatty(STDERR_FILENO)) {}

Progress::~Progress() { clear(); }

void Progress::update(const std::string& text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
  shown_ = true;
}

void Progress::clear() {
  if (!enabled_ || !shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

void Progress::log(const std::string& line, bool always) {
  if (quiet_ && !always) return;
  clear();
  std::fprintf(stderr, "perfgate: %s\n", line.c_str());
  std::fflush(stderr);
}

suite::RunSink Progress::sink() {
  suite::RunSink s;
  s.show = [this](const std::string& t) { update(t); };
  s.clear = [this] { clear(); };
  s.log = [this](const std::string& line, bool always) { log(line, always); };
  return s;
}

}  // namespace perfgate::cli
