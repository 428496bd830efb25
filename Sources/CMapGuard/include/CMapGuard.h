// A clear error instead of a crash when a file mapped for reading is cut short by another
// program: reading a page past the new end raises SIGBUS.
#ifndef CMAPGUARD_H
#define CMAPGUARD_H

#include <stddef.h>

/// Installs the SIGBUS handler once (later calls do nothing). A fault inside a registered
/// mapping writes that mapping's message to standard error and exits with `status`; any other
/// SIGBUS goes to the handler installed before (the Swift runtime's crash report, or the
/// default action).
void rk_map_guard_install(int status);

/// Registers `length` bytes mapped at `start` with the message to print (copied; at most 1023
/// bytes are kept). Returns the slot to unregister, or -1 when every slot is taken (the
/// mapping is then unguarded: a fault is a crash, as without the guard).
int rk_map_guard_register(const void *start, size_t length, const char *message);

/// Forgets a registration before its mapping goes away. Does nothing for -1.
void rk_map_guard_unregister(int slot);

#endif
