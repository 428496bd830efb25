// SIGBUS in a registered read-only mapping → its message and an exit status; see CMapGuard.h.
// The handler uses only async-signal-safe calls (write, _exit, sigaction) and lock-free reads
// of the slots.
#include "CMapGuard.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define RK_GUARD_SLOTS 32
#define RK_GUARD_MESSAGE 1024

struct rk_guard_slot {
  /// 0 when free; set last (release) once the rest of the slot is filled in.
  _Atomic uintptr_t start;
  uintptr_t end;
  size_t length;
  char message[RK_GUARD_MESSAGE];
  /// Set while the slot belongs to a registration (from `register` to `unregister`).
  atomic_flag busy;
};

static struct rk_guard_slot slots[RK_GUARD_SLOTS];
static struct sigaction previous;
static atomic_int installed;
static int exit_status = 3;

static void rk_guard_handler(int signal_number, siginfo_t *info, void *context) {
  uintptr_t address = (uintptr_t)info->si_addr;
  for (int index = 0; index < RK_GUARD_SLOTS; index++) {
    uintptr_t start = atomic_load_explicit(&slots[index].start, memory_order_acquire);
    if (start != 0 && address >= start && address < slots[index].end) {
      ssize_t ignored = write(STDERR_FILENO, slots[index].message, slots[index].length);
      (void)ignored;
      _exit(exit_status);
    }
  }
  // Not ours: hand the signal to whoever handled it before.
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction != NULL) {
      previous.sa_sigaction(signal_number, info, context);
      return;
    }
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN &&
             previous.sa_handler != NULL) {
    previous.sa_handler(signal_number);
    return;
  }
  // The default action: returning re-runs the faulting access, which now ends the process.
  sigaction(SIGBUS, &previous, NULL);
}

void rk_map_guard_install(int status) {
  int expected = 0;
  if (!atomic_compare_exchange_strong(&installed, &expected, 1)) return;
  exit_status = status;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = rk_guard_handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &previous);
}

int rk_map_guard_register(const void *start, size_t length, const char *message) {
  if (start == NULL || length == 0) return -1;
  for (int index = 0; index < RK_GUARD_SLOTS; index++) {
    struct rk_guard_slot *slot = &slots[index];
    if (atomic_flag_test_and_set(&slot->busy)) continue;  // owned by another registration
    size_t count = strlen(message);
    if (count > RK_GUARD_MESSAGE - 1) count = RK_GUARD_MESSAGE - 1;
    memcpy(slot->message, message, count);
    slot->length = count;
    slot->end = (uintptr_t)start + length;
    atomic_store_explicit(&slot->start, (uintptr_t)start, memory_order_release);
    return index;
  }
  return -1;
}

void rk_map_guard_unregister(int slot) {
  if (slot < 0 || slot >= RK_GUARD_SLOTS) return;
  atomic_store_explicit(&slots[slot].start, 0, memory_order_release);
  atomic_flag_clear(&slots[slot].busy);
}
