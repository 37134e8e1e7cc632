// One process-wide flag set by SIGINT/SIGTERM. Waits poll it and throw Interrupted, so every
// child, cgroup, temporary directory and cluster is released by ordinary stack unwinding.
#pragma once

namespace perfgate {

void install_interrupt_handlers();
bool interrupted();
// Throws Interrupted when the flag is set.
void check_interrupted();
// For tests and for `ab` when it must reset between commands.
void clear_interrupt();

}  // namespace perfgate
