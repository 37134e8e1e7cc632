// One private Dovecot instance and everything it owns: a directory of its own under /dev/shm
// or /tmp (config, base_dir, log, the Maildir), the master process (`dovecot -F`, its own process
// group, killed by the kernel if we die: PR_SET_PDEATHSIG) and its children. The destructor
// kills the group, reaps the master and removes the directory.
//
// Why not $TMPDIR: Dovecot reads mail as its unprivileged `dovecot` user (it refuses uid 0),
// and the harness's sample directory is private to root (0700), so the Maildir lives in a
// directory the mail user can reach. It is named perfgate-<pid>-<start>-dovecot-XXXXXX after
// this process; if this process is SIGKILLed, the harness's sweep removes it from /tmp and the
// next private instance from /dev/shm.
#pragma once

#include <boost/process/child.hpp>
#include <filesystem>
#include <string>

#include "dovecot/maildir.hpp"

namespace imap_select::dovecot {

class PrivateDovecot {
 public:
  // Generates the Maildir from the fixture, starts Dovecot and waits (up to ready_timeout_s)
  // until it accepts connections. Throws with the tail of Dovecot's log when it does not.
  PrivateDovecot(const std::string& fixture_dir, double ready_timeout_s);
  ~PrivateDovecot();
  PrivateDovecot(const PrivateDovecot&) = delete;
  PrivateDovecot& operator=(const PrivateDovecot&) = delete;

  unsigned short port() const { return port_; }
  bool running() { return master_.valid() && master_.running(); }
  const MaildirFigures& maildir() const { return maildir_; }
  std::string log_tail() const;

 private:
  void stop() noexcept;
  std::filesystem::path dir_;
  unsigned short port_ = 0;
  MaildirFigures maildir_;
  boost::process::child master_;
};

// Where Dovecot is: $PERFGATE_DOVECOT, else /usr/sbin/dovecot.
std::filesystem::path dovecot_program();

}  // namespace imap_select::dovecot
