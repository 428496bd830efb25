// glibc starts with blocks of 128 KB or more mapped on their own (mmap), but raises that
// threshold to the size of each such block freed: later blocks of that size then come from the
// heap, and stay in it after they are freed. In a long run the heaps keep whatever its largest
// short-lived buffers were: a 100,000-archive `--xlsx` export ended ~5 MB above a 10,000-
// archive one (the close's deflate buffers, long rows' buffers). Setting the threshold
// explicitly also turns the raising off (mallopt(3)); the cost is an mmap and munmap per
// large block, ~170 more of each in a 10k `--xlsx` run.
#include <malloc.h>

#include "CMallocPolicy.h"

int rk_malloc_return_large_blocks(void) { return mallopt(M_MMAP_THRESHOLD, 128 * 1024); }

unsigned long rk_malloc_mapped_blocks(void) { return (unsigned long)mallinfo2().hblks; }

unsigned long rk_malloc_free_heap_bytes(void) { return (unsigned long)mallinfo2().fordblks; }
