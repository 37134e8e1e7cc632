#include "common/interrupt.hpp"

#include <csignal>

#include "common/errors.hpp"

namespace perfgate {
namespace {
volatile std::sig_atomic_t g_interrupted = 0;

extern "C" void on_signal(int) { g_interrupted = 1; }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking poll() returns EINTR and sees the flag at once
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGHUP, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

bool interrupted() { return g_interrupted != 0; }

void check_interrupted() {
  if (g_interrupted) throw Interrupted();
}

void clear_interrupt() { g_interrupted = 0; }

}  // namespace perfgate
