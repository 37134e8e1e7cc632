#include "dovecot/private_dovecot.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <boost/process/args.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace imap_select::dovecot {

namespace fs = std::filesystem;
namespace bp = boost::process;

namespace {

// Field 22 of a /proc/<pid>/stat line (the start time, in clock ticks since boot).
std::string start_time_of(const std::string& stat) {
  std::istringstream after_name(stat.substr(stat.rfind(')') + 2));
  std::string field;
  for (int i = 3; i <= 22 && after_name >> field; ++i) {
  }
  return field;
}

// "<pid>-<start>" of this process, the owner tag a perfgate-* directory's name carries (the
// harness's leftover sweep reads it too).
std::string owner_tag() {
  std::ifstream in("/proc/self/stat");
  return std::to_string(::getpid()) + "-" +
         start_time_of(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

fs::path private_base() {
  struct statvfs v {};
  if (::statvfs("/dev/shm", &v) == 0 && v.f_bavail * v.f_frsize >= (std::uint64_t{2} << 30) &&
      ::access("/dev/shm", W_OK) == 0)
    return "/dev/shm";
  return "/tmp";
}

// Removes the directories of instances whose owner died without cleaning up (SIGKILL): the
// harness sweeps /tmp itself, not /dev/shm.
void remove_orphans(const fs::path& base) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(base, ec)) {
    const std::string name = e.path().filename().string();
    unsigned long pid = 0;
    unsigned long long start = 0;
    char tail[64] = {};
    if (std::sscanf(name.c_str(), "perfgate-%lu-%llu-dovecot-%63s", &pid, &start, tail) != 3) continue;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!stat.empty() && start_time_of(stat) == std::to_string(start)) continue;  // its owner still runs
    fs::remove_all(e.path(), ec);
  }
}

fs::path make_private_dir() {
  const fs::path base = private_base();
  remove_orphans(base);
  std::string tmpl = (base / ("perfgate-" + owner_tag() + "-dovecot-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("cannot create " + tmpl + ": " + std::strerror(errno));
  ::chmod(tmpl.c_str(), 0711);  // Dovecot's mail user must reach the Maildir inside
  return tmpl;
}

// A loopback port nobody listens on now (the kernel's choice for port 0).
unsigned short free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  const bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  if (fd >= 0) ::close(fd);
  if (!ok) throw std::runtime_error(std::string("cannot find a free loopback port: ") + std::strerror(errno));
  return ntohs(a.sin_port);
}

bool accepts(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  const bool ok = fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  if (fd >= 0) ::close(fd);
  return ok;
}

struct MailUser {
  uid_t uid;
  gid_t gid;
};
MailUser mail_user() {
  const passwd* pw = ::getpwnam("dovecot");
  if (!pw || !::getpwnam("dovenull"))
    throw std::runtime_error("the users dovecot and dovenull are missing (apt-get install dovecot-imapd)");
  return {pw->pw_uid, pw->pw_gid};
}

std::string config(const fs::path& dir, unsigned short port, const MailUser& user) {
  const std::string d = dir.string();
  return "# A private instance for imap_select: nothing here touches the system's Dovecot.\n"
         "base_dir = " +
         d + "/run\nstate_dir = " + d +
         "/state\n"
         "log_path = " +
         d + "/dovecot.log\ninfo_log_path = " + d +
         "/dovecot.log\n"
         "protocols = imap\nlisten = 127.0.0.1\nssl = no\n"
         "disable_plaintext_auth = no\nauth_mechanisms = plain login\n"
         "first_valid_uid = " +
         std::to_string(user.uid) +
         "\n"
         "default_internal_user = dovecot\ndefault_login_user = dovenull\n"
         "mail_location = maildir:" +
         d +
         "/Maildir\n"
         "# the burst logs 12 clients in as one user from one address (the default allows 10)\n"
         "mail_max_userip_connections = 1000\n"
         "service imap-login {\n  inet_listener imap {\n    address = 127.0.0.1\n    port = " +
         std::to_string(port) +
         "\n  }\n  inet_listener imaps {\n    port = 0\n  }\n}\n"
         "passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u " +
         d +
         "/passwd\n}\n"
         "userdb {\n  driver = static\n  args = uid=" +
         std::to_string(user.uid) + " gid=" + std::to_string(user.gid) + " home=" + d + "/Maildir\n}\n";
}

}  // namespace

fs::path dovecot_program() {
  if (const char* env = std::getenv("PERFGATE_DOVECOT"); env && *env) return env;
  return "/usr/sbin/dovecot";
}

PrivateDovecot::PrivateDovecot(const std::string& fixture_dir, double ready_timeout_s) {
  const fs::path program = dovecot_program();
  if (!fs::exists(program))
    throw std::runtime_error(program.string() + " is missing: install dovecot-imapd (scripts/setup.sh does)");
  const MailUser user = mail_user();
  dir_ = make_private_dir();
  try {
    maildir_ = write_maildir(fixture_dir, dir_ / "Maildir", user.uid, user.gid);
    const auto [login, password] = fixture_login(fixture_dir);
    std::ofstream(dir_ / "passwd") << login << ":{PLAIN}" << password << "\n";
    port_ = free_loopback_port();
    std::ofstream(dir_ / "dovecot.conf") << config(dir_, port_, user);
    const pid_t parent = ::getpid();
    master_ = bp::child(
        program.string(), bp::args({"-F", "-c", (dir_ / "dovecot.conf").string()}),
        bp::std_in<bp::null, bp::std_out>(dir_ / "master.out").string(), bp::std_err > (dir_ / "master.out").string(),
        bp::extend::on_exec_setup = [parent](auto&) {
          // Before exec: its own process group (stopped as one), default signals, and death
          // with us even if we are SIGKILLed.
          ::setpgid(0, 0);
          sigset_t none;
          sigemptyset(&none);
          ::sigprocmask(SIG_SETMASK, &none, nullptr);
          ::prctl(PR_SET_PDEATHSIG, SIGKILL);
          if (::getppid() != parent) ::_exit(1);
        });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(ready_timeout_s);
    while (!accepts(port_)) {
      if (!master_.running()) throw std::runtime_error("dovecot exited before it listened");
      if (std::chrono::steady_clock::now() > deadline) throw std::runtime_error("dovecot did not listen in time");
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  } catch (const std::exception& e) {
    const std::string why = std::string(e.what()) + "; " + log_tail();
    stop();
    throw std::runtime_error(why);
  }
}

PrivateDovecot::~PrivateDovecot() { stop(); }

std::string PrivateDovecot::log_tail() const {
  std::string tail;
  for (const char* name : {"master.out", "dovecot.log"}) {
    std::ifstream in(dir_ / name);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!all.empty()) tail += std::string(name) + ": " + all.substr(all.size() > 1500 ? all.size() - 1500 : 0);
  }
  return tail.empty() ? "(dovecot wrote no log)" : tail;
}

// SIGKILL to the whole group at once: the instance is thrown away with its directory, and
// the master's orderly shutdown takes seconds (longer than the harness's stop grace).
void PrivateDovecot::stop() noexcept {
  try {
    if (master_.valid()) {
      ::kill(-master_.id(), SIGKILL);
      if (master_.running()) master_.terminate();
      master_.wait();
    }
  } catch (...) {
  }
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

}  // namespace imap_select::dovecot
