// sync_file_range is a GNU extension: Swift's Glibc module does not declare it.
#define _GNU_SOURCE
#include <fcntl.h>

#include "CWriteback.h"

int rk_start_writeback(int fd, off_t offset, off_t length) {
#if defined(__linux__)
  return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
#else
  (void)fd;
  (void)offset;
  (void)length;
  return -1;
#endif
}
