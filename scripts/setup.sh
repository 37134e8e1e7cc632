#!/usr/bin/env bash
# Installs whatever Debian packages perfgate needs that are missing, then configures and
# builds. Idempotent: apt-get runs only when something is missing. Used by both README
# commands and by .ci/run (through scripts/test.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(
  build-essential cmake pkg-config git
  libboost-dev libboost-filesystem-dev        # Boost.Process (v1), Asio, Beast
  libcli11-dev nlohmann-json3-dev             # CLI, JSON
  libvalijson-dev                             # results files checked against docs/results.schema.json
  libxxhash-dev libssl-dev zlib1g-dev         # digests, gzip
  libpq-dev postgresql                        # PostgreSQL scenarios: libpq + a server to run throwaway clusters
  libsqlite3-dev sqlite3                      # SQLite scenarios and history
  libargon2-dev                               # auth_herd
  libgtest-dev libgmock-dev libbenchmark-dev  # unit tests, microbenchmarks
  libbenchmark-tools python3-scipy            # compare.py, the anchor test_gbench.py reads our export with
  python3 python3-matplotlib python3-numpy python3-pytest python3-jsonschema  # reports, e2e tests
  wrk procps util-linux                       # load-generator reference; ps/pgrep; taskset
  valgrind                                    # --measure instructions (cachegrind counts Ir)
  lld                                         # layout builds: lld shuffles the sections (docs/layout.md)
  dovecot-imapd                               # imap_select's reference server (private instances only)
  hyperfine zstd lz4 gzip                     # scripts/vs-hyperfine.sh and ab's end-to-end tests: real programs beside hyperfine
  chromium chromium-driver python3-selenium python3-pil  # the history site in a real browser, its screenshots (test_history_site.py)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
bash "$root/scenarios/imap_select/dovecot/disable-system-dovecot.sh"  # the package starts a daemon on :143

build="${PERFGATE_BUILD_DIR:-$root/build}"
# A unity build (eight sources compiled as one) parses the heavy headers (JSON, Boost, gtest) an
# eighth as often: a fresh build on 2 cores takes about half the time. PERFGATE_UNITY_BUILD=OFF
# for an incremental developer's build, where touching one file rebuilds its unit of eight.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="${PERFGATE_BUILD_TYPE:-Release}" \
  -DCMAKE_UNITY_BUILD="${PERFGATE_UNITY_BUILD:-ON}" >/dev/null
cmake --build "$build" -j"$(nproc)"
