#!/usr/bin/env bash
# Every test: install what is missing, build, run the C++ unit tests (CTest) and the Python
# tests (report package and end-to-end CLI tests, pytest).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
ctest --test-dir "$root/build" --output-on-failure -j2 --timeout 900
cd "$root"
/usr/bin/python3 -m pytest -q --durations=30
