#!/usr/bin/env bash
# Debian's dovecot-imapd starts a system Dovecot on port 143 when installed (where an init
# system runs services). imap_select only ever runs private instances (dovecot/private_dovecot),
# so stop the system one and keep it from starting again: through systemd when it is PID 1,
# else through the SysV script (update-rc.d). In a container without an init system nothing
# was started (policy-rc.d refused it); then this only removes what would start it later.
# Idempotent; run by scripts/setup.sh after packages are installed.
set -u
command -v dovecot >/dev/null 2>&1 || exit 0
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ "$(ps -o comm= -p 1 2>/dev/null)" = systemd ] && command -v systemctl >/dev/null 2>&1; then
  $sudo systemctl disable --now dovecot.service dovecot.socket >/dev/null 2>&1 || true
fi
if [ -x /etc/init.d/dovecot ]; then
  $sudo /etc/init.d/dovecot stop >/dev/null 2>&1 || true
  command -v update-rc.d >/dev/null 2>&1 && $sudo update-rc.d dovecot disable >/dev/null 2>&1 || true
fi
# A system master still running (started by hand, or by an init system we do not know):
# its pid file is under the default base_dir. Private instances have their own base_dir.
if [ -r /run/dovecot/master.pid ] && pid=$(cat /run/dovecot/master.pid) && [ -n "$pid" ] &&
   kill -0 "$pid" 2>/dev/null; then
  $sudo kill "$pid" 2>/dev/null || true
fi
exit 0
