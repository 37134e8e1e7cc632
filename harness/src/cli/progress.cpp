#include "cli/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace perfgate::cli {

Progress::Progress(bool quiet) : enabled_(!quiet && ::isatty(STDERR_FILENO)) {}

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

}  // namespace perfgate::cli
