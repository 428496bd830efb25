// How glibc's malloc gives memory back: set once by the rkexport executable at start.
#ifndef CMALLOCPOLICY_H
#define CMALLOCPOLICY_H

/// Fixes glibc's mmap threshold at its starting 128 KB, so that blocks of that size or more
/// are mapped on their own and go back to the system when freed. Returns 1 when set.
int rk_malloc_return_large_blocks(void);

/// Blocks mapped on their own right now (mallinfo2's `hblks`): how tests see the policy work.
unsigned long rk_malloc_mapped_blocks(void);

/// Free bytes in all heaps, their tops included (mallinfo2's `fordblks`): a larger block can
/// only come from a new mapping or from growing a heap.
unsigned long rk_malloc_free_heap_bytes(void);

#endif
