// Starting the write-back of a file's bytes early, so the fsync that makes an output durable
// finds little left to do.
#ifndef CWRITEBACK_H
#define CWRITEBACK_H

#include <sys/types.h>

/// Starts writing `length` bytes at `offset` of the open file `fd` to disk and returns at once
/// (Linux `sync_file_range` with `SYNC_FILE_RANGE_WRITE`). A hint: 0 when started, -1 when the
/// system cannot (other platforms, other file systems); nothing is promised until `fsync`.
int rk_start_writeback(int fd, off_t offset, off_t length);

#endif
