#!/usr/bin/env python3
"""CPU that one sleep/wake costs a thread on this machine: sleep PERIOD_US at a time for 2 s,
pinned to one core, and divide the process CPU time by the wake-ups.

  taskset -c 1 python3 tools/wake_cost.py 50 200 1000

On a VM every wake-up from idle can cost a host exit and entry; then a load generator's CPU is
set by how often it sleeps, not by how many requests it sends (see the README)."""
import os
import sys
import time

for period_us in [int(a) for a in sys.argv[1:]] or [50, 200, 1000]:
    n = int(2.0 / (period_us * 1e-6))
    cpu0 = time.process_time()
    t = time.monotonic()
    for _ in range(n):
        t += period_us * 1e-6
        d = t - time.monotonic()
        if d > 0:
            time.sleep(d)
    cpu = time.process_time() - cpu0
    print(f"period {period_us} us: {n} wake-ups, {cpu:.3f} s CPU, {cpu / n * 1e6:.1f} us per wake-up")
