#!/usr/bin/env bash
# The main job: install what is missing, build, run the bundled suite at the quick profile
# (embedded defaults: files, SQLite, a throwaway PostgreSQL cluster), print the verdict table,
# then write report.md and its plots. Exits with perfgate's exit code.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh" || exit $?
out="${PERFGATE_OUT:-$root/perfgate-out}"
"$root/build/bin/perfgate" run --profile "${PERFGATE_PROFILE:-quick}" --out "$out" "$@"
rc=$?
if [ -f "$out/results.json" ]; then
  "$root/build/bin/perfgate" report "$out/results.json" -o "$out" || echo "perfgate: the report could not be written" >&2
fi
exit $rc
