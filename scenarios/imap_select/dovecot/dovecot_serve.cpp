#include "dovecot/dovecot_serve.hpp"

#include <signal.h>

#include <ctime>
#include <iostream>

#include "dovecot/private_dovecot.hpp"

namespace imap_select::dovecot {

int serve(const perfgate::Invocation& inv) {
  if (inv.fixture.empty()) {
    std::cerr << "imap_select: serve --variant dovecot needs --fixture DIR (made by `imap_select seed`)" << std::endl;
    return 2;
  }
  // SIGTERM and SIGINT are waited for, not delivered, so Dovecot is always stopped and its
  // directory removed (the private instance unblocks them for itself).
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigprocmask(SIG_BLOCK, &stop_signals, nullptr);
  PrivateDovecot dovecot(inv.fixture, inv.param<double>("dovecot_ready_timeout_s", 120));
  std::cout << perfgate::json{{"listen", perfgate::Endpoint{"127.0.0.1", dovecot.port()}.to_string()},
                              {"maildir_messages", dovecot.maildir().messages}}
                   .dump()
            << std::endl;
  const timespec tick{0, 200'000'000};
  while (sigtimedwait(&stop_signals, nullptr, &tick) < 0) {
    if (!dovecot.running()) {
      std::cerr << "imap_select: dovecot exited on its own; " << dovecot.log_tail() << std::endl;
      return 1;
    }
  }
  return 0;
}

}  // namespace imap_select::dovecot
