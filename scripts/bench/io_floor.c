/* The I/O floor of the benchmark: walk a folder and open, read and close every file, nothing more.
 * No parser can beat this on the same files; rkexport's time is reported against it. */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static unsigned long long files, bytes;
static char buffer[1 << 20];

static int visit(const char *path, const struct stat *info, int kind, struct FTW *ftw) {
  (void)info; (void)ftw;
  if (kind != FTW_F) return 0;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) > 0) bytes += (unsigned long long)n;
  close(fd);
  files++;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: io_floor DIR\n"); return 2; }
  if (nftw(argv[1], visit, 64, FTW_PHYS) != 0) { perror(argv[1]); return 1; }
  printf("%llu files, %llu bytes\n", files, bytes);
  return 0;
}
