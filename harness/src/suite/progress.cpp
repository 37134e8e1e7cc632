#include "suite/progress.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "export/finished_line.hpp"
#include "export/github_actions.hpp"

namespace perfgate::suite {

namespace {

Progress::Mode mode_of(bool quiet) {
  if (quiet) return Progress::Mode::Quiet;
  return ::isatty(STDERR_FILENO) ? Progress::Mode::Terminal : Progress::Mode::Log;
}

std::string elapsed_text(std::chrono::steady_clock::duration d) {
  const auto s = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  return s < 60 ? std::to_string(s) + " s" : std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
}

}  // namespace

Progress::Progress(bool quiet)
    : Progress(mode_of(quiet), stderr, std::chrono::seconds(30), exports::on_github_actions()) {}

Progress::Progress(Mode mode, std::FILE* out, std::chrono::milliseconds heartbeat, bool github)
    : mode_(mode),
      out_(out),
      heartbeat_(heartbeat),
      github_(github),
      started_(std::chrono::steady_clock::now()),
      last_written_(started_) {
  if (mode_ == Mode::Log) beater_ = std::thread([this] { beat(); });
}

Progress::~Progress() {
  clear();
  if (beater_.joinable()) {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    beater_.join();
  }
}

void Progress::beat() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto due = last_written_ + heartbeat_;
    if (wake_.wait_until(lock, due, [this] { return stopping_; })) return;
    const auto now = std::chrono::steady_clock::now();
    if (now < last_written_ + heartbeat_) continue;  // something was written meanwhile
    std::fprintf(out_, "perfgate: still running (%s)%s%s\n", elapsed_text(now - started_).c_str(),
                 status_.empty() ? "" : ": ", status_.c_str());
    std::fflush(out_);
    last_written_ = now;
  }
}

void Progress::write_line(const std::string& line) {
  std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
  last_written_ = std::chrono::steady_clock::now();
}

void Progress::update(const std::string& text) {
  const std::lock_guard lock(mutex_);
  status_ = text;
  if (mode_ != Mode::Terminal) return;
  std::fprintf(out_, "\r\033[K%s", text.c_str());
  std::fflush(out_);
  shown_ = true;
}

void Progress::clear() {
  const std::lock_guard lock(mutex_);
  if (mode_ != Mode::Terminal || !shown_) return;
  std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  shown_ = false;
}

void Progress::log(const std::string& line, bool always) {
  if (mode_ == Mode::Quiet && !always) return;
  clear();
  const std::lock_guard lock(mutex_);
  write_line("perfgate: " + line);
}

RunSink Progress::sink() {
  RunSink s;
  s.show = [this](const std::string& t) { update(t); };
  s.clear = [this] { clear(); };
  s.log = [this](const std::string& line, bool always) { log(line, always); };
  if (mode_ != Mode::Log) return s;
  s.started = [this](const std::string& name) {
    const std::lock_guard lock(mutex_);
    status_ = name;
    if (github_) write_line("::group::" + name);
    // At once, not at the first heartbeat: a run shorter than one says what it does too.
    write_line("perfgate: running " + name);
  };
  s.finished = [this](const model::ScenarioResult& r, double seconds) {
    const std::lock_guard lock(mutex_);
    if (github_) write_line("::endgroup::");
    write_line("perfgate: done " + exports::finished_line(r, seconds));
  };
  s.step = [this](const std::string& line) {
    const std::lock_guard lock(mutex_);
    write_line("perfgate: done " + line);
  };
  return s;
}

}  // namespace perfgate::suite
