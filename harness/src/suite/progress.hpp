// What a command says while it runs, on stderr. On a terminal, one line replaced in place
// (scenario, round i of n, the current estimate). In a log (stderr not a terminal: CI), where a
// replaced line would be noise, one line per finished scenario or step instead, and a heartbeat
// with the latest status when nothing was written for a while, so a job is never silent for
// minutes; on GitHub Actions each scenario's lines are a collapsible group. The log lines the
// suite writes (notes, warnings) either way, but for --quiet. Its sink() is the suite's RunSink.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "suite/run_sink.hpp"

namespace perfgate::suite {

class Progress {
 public:
  enum class Mode { Quiet, Terminal, Log };
  explicit Progress(bool quiet);
  // `out` and `heartbeat` for tests; `github`: wrap each scenario in ::group::/::endgroup::.
  Progress(Mode mode, std::FILE* out, std::chrono::milliseconds heartbeat, bool github);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void update(const std::string& text);
  void clear();
  // "perfgate: LINE" on stderr (the live line cleared first), unless quiet and not `always`.
  void log(const std::string& line, bool always);
  bool enabled() const { return mode_ == Mode::Terminal; }
  RunSink sink();

 private:
  void write_line(const std::string& line);  // holds the lock
  void beat();

  Mode mode_;
  std::FILE* out_;
  std::chrono::milliseconds heartbeat_;
  bool github_;
  bool shown_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::string status_;  // the latest live line, which a heartbeat repeats
  std::chrono::steady_clock::time_point started_, last_written_;
  std::thread beater_;
};

}  // namespace perfgate::suite
