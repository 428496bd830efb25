/* The parse floor of the benchmark: the least a program must do to turn keyed archives into
 * answers. Walk a folder; on every core, open, read and close each file, check and parse its
 * binary plist (every offset and reference bounds-checked), follow UIDs from $top's root
 * through task, step and question results, and write one CSV line per answer value
 * (task,step,item,value). No model, no other table, no statistics, no checks beyond bounds:
 * rkexport does all of that too, so this is the practical limit its CSV time is compared with
 * (issue 6's "careful C reference").
 *
 *   parse_floor DIR OUT.csv [THREADS]    prints files, bytes and answer lines */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char **paths;
static size_t path_count, path_capacity;

static int list(const char *path, const struct stat *info, int kind, struct FTW *ftw) {
  (void)info; (void)ftw;
  if (kind != FTW_F) return 0;
  if (path_count == path_capacity) {
    path_capacity = path_capacity ? 2 * path_capacity : 4096;
    paths = realloc(paths, path_capacity * sizeof *paths);
    if (!paths) { perror("realloc"); exit(1); }
  }
  paths[path_count++] = strdup(path);
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One thread's output, appended to as it goes. */
typedef struct { char *data; size_t used, capacity; unsigned long long lines; } Out;

static void put(Out *out, const void *bytes, size_t count) {
  if (out->used + count > out->capacity) {
    while (out->used + count > out->capacity) out->capacity = out->capacity ? 2 * out->capacity : 1 << 20;
    out->data = realloc(out->data, out->capacity);
    if (!out->data) { perror("realloc"); exit(1); }
  }
  memcpy(out->data + out->used, bytes, count);
  out->used += count;
}

/* A parsed plist: the file's bytes and its trailer. */
typedef struct {
  const uint8_t *b; size_t size;
  unsigned offset_size, ref_size;
  uint64_t objects, table;
  /* $objects: the plist object number of each archive object. */
  uint64_t archive_start; uint64_t archive_count;
} Plist;

static uint64_t big(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++) v = v << 8 | p[i];
  return v;
}

/* Start of object `ref`, or 0 when out of range. */
static size_t start(const Plist *p, uint64_t ref) {
  if (ref >= p->objects) return 0;
  uint64_t offset = big(p->b + p->table + ref * p->offset_size, p->offset_size);
  return offset >= 8 && offset < p->table ? (size_t)offset : 0;
}

/* Marker type, element count and payload start of the object at `at`; 0 on a bad object. */
static int header(const Plist *p, size_t at, unsigned *type, uint64_t *count, size_t *payload) {
  uint8_t marker = p->b[at];
  *type = marker >> 4;
  uint64_t n = marker & 0x0F;
  size_t next = at + 1;
  if (n == 0x0F && *type != 0 && *type != 1 && *type != 2 && *type != 3) {
    if (next >= p->table) return 0;
    uint8_t int_marker = p->b[next];
    if (int_marker >> 4 != 1 || (int_marker & 0x0F) > 3) return 0;
    unsigned width = 1u << (int_marker & 0x0F);
    if (next + 1 + width > p->table) return 0;
    n = big(p->b + next + 1, width);
    next += 1 + width;
  }
  *count = n;
  *payload = next;
  return next <= p->table;
}

/* The value of key `name` in the dictionary object at `at` (its plist reference), or -1. */
static int64_t lookup(const Plist *p, size_t at, const char *name) {
  unsigned type; uint64_t count; size_t payload;
  if (!header(p, at, &type, &count, &payload) || type != 0xD) return -1;
  size_t length = strlen(name);
  if (count > (p->table - payload) / (2 * p->ref_size)) return -1;
  for (uint64_t i = 0; i < count; i++) {
    size_t key = start(p, big(p->b + payload + i * p->ref_size, p->ref_size));
    unsigned key_type; uint64_t key_count; size_t key_payload;
    if (!key || !header(p, key, &key_type, &key_count, &key_payload)) continue;
    if (key_type == 5 && key_count == length && key_payload + length <= p->table &&
        memcmp(p->b + key_payload, name, length) == 0)
      return (int64_t)big(p->b + payload + (count + i) * p->ref_size, p->ref_size);
  }
  return -1;
}

/* Start of archive object `uid` ($objects[uid]), or 0. */
static size_t archive_object(const Plist *p, uint64_t uid) {
  if (uid == 0 || uid >= p->archive_count) return 0;
  return start(p, big(p->b + p->archive_start + uid * p->ref_size, p->ref_size));
}

/* The object a reference points at: a UID is followed into $objects. */
static size_t resolve(const Plist *p, int64_t ref) {
  if (ref < 0) return 0;
  size_t at = start(p, (uint64_t)ref);
  if (!at || p->b[at] >> 4 != 8) return at;
  unsigned width = (p->b[at] & 0x0F) + 1;
  if (at + 1 + width > p->table) return 0;
  return archive_object(p, big(p->b + at + 1, width));
}

/* The ASCII string at `at` as a span, or 0. */
static int text(const Plist *p, size_t at, const uint8_t **bytes, size_t *length) {
  unsigned type; uint64_t count; size_t payload;
  if (!at || !header(p, at, &type, &count, &payload) || type != 5) return 0;
  if (payload + count > p->table) return 0;
  *bytes = p->b + payload; *length = (size_t)count;
  return 1;
}

/* The class name of the archive object at `at`. */
static int class_name(const Plist *p, size_t at, const uint8_t **name, size_t *length) {
  return text(p, resolve(p, lookup(p, resolve(p, lookup(p, at, "$class")), "$classname")),
              name, length);
}

static int has_suffix(const uint8_t *s, size_t n, const char *suffix) {
  size_t k = strlen(suffix);
  return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static int named(const uint8_t *s, size_t n, const char *name) {
  return n == strlen(name) && memcmp(s, name, n) == 0;
}

/* Appends text as a CSV field, quoted when it holds a comma, quote or line break. */
static void field(Out *out, const uint8_t *bytes, size_t count) {
  size_t i = 0;
  while (i < count && bytes[i] != ',' && bytes[i] != '"' && bytes[i] != '\n' && bytes[i] != '\r')
    i++;
  if (i == count) { put(out, bytes, count); return; }
  put(out, "\"", 1);
  for (i = 0; i < count; i++) {
    if (bytes[i] == '"') put(out, "\"", 1);
    put(out, bytes + i, 1);
  }
  put(out, "\"", 1);
}

/* An integer under `key` of the dictionary at `at`, or `otherwise`. */
static long long integer_at(const Plist *p, size_t at, const char *key, long long otherwise) {
  size_t value = resolve(p, lookup(p, at, key));
  unsigned type; uint64_t count; size_t payload;
  if (!value || !header(p, value, &type, &count, &payload)) return otherwise;
  if (type == 1 && count <= 3 && payload + (1u << count) <= p->table) {
    uint64_t raw = big(p->b + payload, 1u << count);
    return count == 3 ? (long long)(int64_t)raw : (long long)raw;
  }
  if (p->b[value] == 0x08 || p->b[value] == 0x09) return p->b[value] == 0x09;
  return otherwise;
}

/* Appends the scalar at `at` (string, integer, real, boolean, NSDate, NSDecimalNumber up to 64
 * bits of mantissa, NSDateComponents' hour and minute) as CSV text. */
static void scalar(const Plist *p, Out *out, size_t at) {
  char number[64];
  unsigned type; uint64_t count; size_t payload;
  if (!at || !header(p, at, &type, &count, &payload)) return;
  if (type == 5 && payload + count <= p->table) {
    field(out, p->b + payload, (size_t)count);
  } else if (type == 1 && count <= 3 && payload + (1u << count) <= p->table) {
    uint64_t raw = big(p->b + payload, 1u << count);
    int n = count == 3 ? snprintf(number, sizeof number, "%lld", (long long)(int64_t)raw)
                       : snprintf(number, sizeof number, "%llu", (unsigned long long)raw);
    put(out, number, (size_t)n);
  } else if (type == 2 && count == 3 && payload + 8 <= p->table) {
    uint64_t raw = big(p->b + payload, 8);
    double value;
    memcpy(&value, &raw, 8);
    put(out, number, (size_t)snprintf(number, sizeof number, "%.17g", value));
  } else if (p->b[at] == 0x08 || p->b[at] == 0x09) {
    put(out, p->b[at] == 0x09 ? "true" : "false", p->b[at] == 0x09 ? 4 : 5);
  } else if (type == 0xD) {
    size_t time = resolve(p, lookup(p, at, "NS.time"));
    /* Only a real is followed: a hostile NS.time naming its own dictionary ends here. */
    if (time && p->b[time] == 0x23) { scalar(p, out, time); return; }
    size_t mantissa = resolve(p, lookup(p, at, "NS.mantissa"));
    if (mantissa && header(p, mantissa, &type, &count, &payload) && type == 4 && count >= 8 &&
        payload + 8 <= p->table) {
      uint64_t value = 0;
      for (int word = 3; word >= 0; word--)
        value = value << 16 | (uint64_t)p->b[payload + 2 * word + 1] << 8 | p->b[payload + 2 * word];
      long long exponent = integer_at(p, at, "NS.exponent", 0);
      const char *sign = integer_at(p, at, "NS.negative", 0) ? "-" : "";
      put(out, number, (size_t)snprintf(number, sizeof number, "%s%llue%lld", sign,
                                        (unsigned long long)value, exponent));
      return;
    }
    long long hour = integer_at(p, at, "NS.hour", -1);
    if (hour >= 0)
      put(out, number, (size_t)snprintf(number, sizeof number, "%02lld:%02lld", hour,
                                        integer_at(p, at, "NS.minute", 0)));
  }
}

static void line(Out *out, const uint8_t *task, size_t task_n, const uint8_t *step, size_t step_n,
                 const uint8_t *item, size_t item_n) {
  field(out, task, task_n); put(out, ",", 1);
  field(out, step, step_n); put(out, ",", 1);
  field(out, item, item_n); put(out, ",", 1);
}

static const char *answer_keys[] = {
  "typedAnswerOrNoAnswer", "booleanAnswer", "choiceAnswers", "scaleAnswer", "textAnswer",
  "numericAnswer", "dateComponentsAnswer", "intervalAnswer", "dateAnswer", "componentsAnswer",
  "rungPicked", 0};

/* The inline array under NS.objects of the NSArray object at `at`: where its references start
 * and how many there are; 0 when it has none. */
static int ns_objects(const Plist *p, size_t at, size_t *payload, uint64_t *count) {
  size_t elements = at ? resolve(p, lookup(p, at, "NS.objects")) : 0;
  unsigned type;
  if (!elements || !header(p, elements, &type, count, payload) || type != 0xA) return 0;
  return *count <= (p->table - *payload) / p->ref_size;
}

/* Element `index` of such an array, resolved. */
static size_t element(const Plist *p, size_t payload, uint64_t index) {
  return resolve(p, (int64_t)big(p->b + payload + index * p->ref_size, p->ref_size));
}

static int is_array(const Plist *p, size_t at) {
  const uint8_t *name; size_t name_n;
  return at && p->b[at] >> 4 == 0xD && class_name(p, at, &name, &name_n) &&
         (named(name, name_n, "NSArray") || named(name, name_n, "NSMutableArray"));
}

/* One question result: a line per answer value (a line per element of an array answer). */
static void question(const Plist *p, Out *out, size_t at, const uint8_t *task, size_t task_n,
                     const uint8_t *step, size_t step_n) {
  const uint8_t *item = (const uint8_t *)""; size_t item_n = 0;
  text(p, resolve(p, lookup(p, at, "identifier")), &item, &item_n);
  size_t answer = 0;
  for (const char **key = answer_keys; *key && !answer; key++)
    answer = resolve(p, lookup(p, at, *key));
  if (is_array(p, answer)) {
    size_t payload; uint64_t count;
    if (!ns_objects(p, answer, &payload, &count)) return;
    for (uint64_t i = 0; i < count; i++) {
      line(out, task, task_n, step, step_n, item, item_n);
      scalar(p, out, element(p, payload, i));
      put(out, "\n", 1);
      out->lines++;
    }
    return;
  }
  line(out, task, task_n, step, step_n, item, item_n);
  scalar(p, out, answer);
  put(out, "\n", 1);
  out->lines++;
}

static void step_result(const Plist *p, Out *out, size_t at, const uint8_t *task, size_t task_n) {
  if (!at) return;
  const uint8_t *step = (const uint8_t *)""; size_t step_n = 0;
  text(p, resolve(p, lookup(p, at, "identifier")), &step, &step_n);
  size_t payload; uint64_t count;
  if (!ns_objects(p, resolve(p, lookup(p, at, "results")), &payload, &count)) return;
  for (uint64_t i = 0; i < count; i++) {
    size_t result = element(p, payload, i);
    const uint8_t *name; size_t name_n;
    if (result && class_name(p, result, &name, &name_n) && has_suffix(name, name_n, "QuestionResult"))
      question(p, out, result, task, task_n, step, step_n);
  }
}

static void task_result(const Plist *p, Out *out, size_t at) {
  if (!at) return;
  const uint8_t *task = (const uint8_t *)""; size_t task_n = 0;
  text(p, resolve(p, lookup(p, at, "identifier")), &task, &task_n);
  size_t payload; uint64_t count;
  if (!ns_objects(p, resolve(p, lookup(p, at, "results")), &payload, &count)) return;
  for (uint64_t i = 0; i < count; i++) step_result(p, out, element(p, payload, i), task, task_n);
}

/* One archive: its root task result, or an array of them. */
static void archive(const uint8_t *bytes, size_t size, Out *out) {
  Plist p = {.b = bytes, .size = size};
  if (size < 40 || memcmp(bytes, "bplist00", 8) != 0) return;
  const uint8_t *trailer = bytes + size - 32;
  p.offset_size = trailer[6]; p.ref_size = trailer[7];
  p.objects = big(trailer + 8, 8);
  uint64_t top = big(trailer + 16, 8);
  p.table = big(trailer + 24, 8);
  if (p.offset_size < 1 || p.offset_size > 8 || p.ref_size < 1 || p.ref_size > 8) return;
  if (p.table < 8 || p.table >= size - 32 || p.objects > (size - 32 - p.table) / p.offset_size)
    return;
  size_t root_dict = start(&p, top);
  if (!root_dict) return;
  size_t objects = start(&p, (uint64_t)lookup(&p, root_dict, "$objects"));
  size_t top_table = start(&p, (uint64_t)lookup(&p, root_dict, "$top"));
  unsigned type; uint64_t count; size_t payload;
  if (!objects || !top_table || !header(&p, objects, &type, &count, &payload) || type != 0xA) return;
  if (count > (p.table - payload) / p.ref_size) return;
  p.archive_start = payload; p.archive_count = count;
  size_t root = resolve(&p, lookup(&p, top_table, "root"));
  const uint8_t *name; size_t name_n;
  if (!root || !class_name(&p, root, &name, &name_n)) return;
  if (has_suffix(name, name_n, "TaskResult")) {
    task_result(&p, out, root);
  } else if (is_array(&p, root) && ns_objects(&p, root, &payload, &count)) {
    for (uint64_t i = 0; i < count; i++) task_result(&p, out, element(&p, payload, i));
  }
}

typedef struct { size_t first, end; Out out; unsigned long long bytes; } Work;

static void *run(void *argument) {
  Work *work = argument;
  size_t capacity = 1 << 20;
  uint8_t *buffer = malloc(capacity);
  for (size_t i = work->first; i < work->end; i++) {
    int fd = open(paths[i], O_RDONLY);
    if (fd < 0) continue;
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_size <= 0) { close(fd); continue; }
    size_t size = (size_t)info.st_size;
    if (size > capacity) {
      while (size > capacity) capacity *= 2;
      buffer = realloc(buffer, capacity);
    }
    size_t got = 0;
    ssize_t n;
    while (got < size && (n = read(fd, buffer + got, size - got)) > 0) got += (size_t)n;
    close(fd);
    work->bytes += got;
    archive(buffer, got, &work->out);
  }
  free(buffer);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc > 4) { fprintf(stderr, "usage: parse_floor DIR OUT.csv [THREADS]\n"); return 2; }
  long threads = argc == 4 ? atol(argv[3]) : sysconf(_SC_NPROCESSORS_ONLN);
  if (threads < 1) threads = 1;
  if (threads > 64) threads = 64;
  if (nftw(argv[1], list, 64, FTW_PHYS) != 0) { perror(argv[1]); return 1; }
  qsort(paths, path_count, sizeof *paths, by_name);
  Work work[64];
  pthread_t ids[64];
  for (long t = 0; t < threads; t++) {
    work[t] = (Work){.first = path_count * (size_t)t / (size_t)threads,
                     .end = path_count * (size_t)(t + 1) / (size_t)threads};
    pthread_create(&ids[t], 0, run, &work[t]);
  }
  FILE *out = fopen(argv[2], "w");
  if (!out) { perror(argv[2]); return 1; }
  fputs("task,step,item,value\n", out);
  unsigned long long bytes = 0, lines = 0;
  for (long t = 0; t < threads; t++) {
    pthread_join(ids[t], 0);
    fwrite(work[t].out.data, 1, work[t].out.used, out);
    bytes += work[t].bytes;
    lines += work[t].out.lines;
  }
  fclose(out);
  printf("%zu files, %llu bytes, %llu answer lines\n", path_count, bytes, lines);
  return 0;
}
