// libxlsxwriter's packager opens every zip entry with minizip's zipOpenNewFileInZip4_64 at
// Z_DEFAULT_COMPRESSION (level 6), with no option to choose, and deflates every sheet on the
// closing thread: on a 10,000-archive export that deflate is most of the workbook's close,
// on one core while the others are idle. The definitions below, in the executable, come
// before libminizip's in symbol lookup (the library calls minizip through its PLT).
//
// - The level: changed when the closing thread asked for one.
// - The work: when the closing thread asked for threads, an entry is deflated in blocks of
//   `blockSize` bytes, each primed with the 32 KB before it (as pigz does), on that many
//   worker threads; minizip then stores the blocks as they come back, in order, as a raw
//   entry (method 8, its level in the flag bits), and the entry's CRC-32 and size are ours.
//   A block ends with a sync flush (byte-aligned, not final) and the last with the end of the
//   stream, so the entry is one standard deflate stream. The blocks do not depend on the
//   thread count: a workbook is the same with one worker or eight.
//
// Every other call goes to minizip untouched. Entries stay standard deflate: any reader
// opens them, and minizip records the level in each entry's flag bits (APPNOTE 4.4.4).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "CZipLevel.h"

enum {
  DEFLATED = 8,
  DEFAULT_COMPRESSION = -1,
  RAW_WINDOW_BITS = -15,
  ZIP_OK = 0,
  ZIP_INTERNAL_ERROR = -104,
  // Input per block, and the window each block is primed with.
  blockSize = 128 * 1024,
  dictionarySize = 32 * 1024,
  maximumWorkers = 16,
};

static _Thread_local int chosenLevel = RK_ZIP_LEVEL_LIBRARY_DEFAULT;
static _Thread_local int chosenThreads = 0;
static _Thread_local int entriesOpened = 0;
static _Thread_local int entriesLeveled = 0;
static _Thread_local int entriesInBlocks = 0;

void rk_zip_set_deflate_level(int level) {
  chosenLevel = level >= 1 && level <= 9 ? level : RK_ZIP_LEVEL_LIBRARY_DEFAULT;
  entriesOpened = 0;
  entriesLeveled = 0;
  entriesInBlocks = 0;
}

void rk_zip_set_deflate_threads(int threads) {
  chosenThreads = threads < 0 ? 0 : threads > maximumWorkers ? maximumWorkers : threads;
}

int rk_zip_entries_opened(void) { return entriesOpened; }

int rk_zip_entries_leveled(void) { return entriesLeveled; }

int rk_zip_entries_in_blocks(void) { return entriesInBlocks; }

// minizip's prototypes (zip.h), with its typedefs spelled out: zipFile is a pointer, uInt is
// unsigned int, uLong is unsigned long, ZPOS64_T is a 64-bit unsigned integer.
typedef int (*OpenNewFile)(void *file, const char *filename, const void *fileInfo,
                           const void *extraLocal, unsigned int extraLocalSize,
                           const void *extraGlobal, unsigned int extraGlobalSize,
                           const char *comment, int method, int level, int raw, int windowBits,
                           int memLevel, int strategy, const char *password,
                           unsigned long crcForCrypting, unsigned long versionMadeBy,
                           unsigned long flagBase, int zip64);
typedef int (*WriteInFile)(void *file, const void *buffer, unsigned int length);
typedef int (*CloseFile)(void *file);
typedef int (*CloseZip)(void *file, const char *globalComment);
typedef int (*CloseFileRaw64)(void *file, unsigned long long uncompressedSize,
                              unsigned long crc32);

/// minizip's own definition of `name`, looked up once.
static void *minizipFunction(void **slot, const char *name) {
  void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (!function) {
    function = dlsym(RTLD_NEXT, name);
    if (function) __atomic_store_n(slot, function, __ATOMIC_RELEASE);
  }
  return function;
}

static void *openSlot, *writeSlot, *closeSlot, *closeRawSlot, *closeZipSlot;

// MARK: Blocks

/// One block of an entry: its input (the primed window, then its own bytes) and, once a
/// worker is done with it, its deflated bytes and the CRC-32 of its own bytes.
typedef struct {
  unsigned char *input;
  size_t primed;
  size_t length;
  int last;
  unsigned char *output;
  size_t outputLength;
  size_t outputCapacity;
  unsigned long crc;
  // 0 free or filling, 1 queued, 2 done, -1 failed.
  int state;
  // The block number plus one that the slot was last set up for.
  unsigned long long number;
} Block;

/// The entry being written in blocks on this thread.
typedef struct {
  void *file;
  int level, memLevel, strategy;
  int workerCount;
  pthread_t workers[maximumWorkers];
  int workersStarted;
  pthread_mutex_t lock;
  pthread_cond_t queued;
  pthread_cond_t done;
  int stopping;
  // Blocks in a ring: block number n lives in slot n % slotCount.
  Block *slots;
  int slotCount;
  unsigned long long submitted, taken, stored;
  unsigned long long uncompressed;
  unsigned long crc;
  int error;
  // Deflate state of the closing thread, when it compresses a block itself.
  z_stream inlineStream;
  int inlineStreamReady;
} BlockedEntry;

static _Thread_local BlockedEntry *current = NULL;

/// Deflates `block` with `stream` (reset here); 0, or -1 when zlib fails.
static int deflateBlock(z_stream *stream, Block *block) {
  if (deflateReset(stream) != Z_OK) return -1;
  if (block->primed > 0 &&
      deflateSetDictionary(stream, block->input, (uInt)block->primed) != Z_OK)
    return -1;
  if (!block->output) {
    size_t capacity = deflateBound(stream, block->length) + 64;
    block->output = malloc(capacity);
    if (!block->output) return -1;
    block->outputCapacity = capacity;
  }
  stream->next_in = block->input + block->primed;
  stream->avail_in = (uInt)block->length;
  stream->next_out = block->output;
  stream->avail_out = (uInt)block->outputCapacity;
  int flush = block->last ? Z_FINISH : Z_SYNC_FLUSH;
  for (;;) {
    int result = deflate(stream, flush);
    if (result == Z_STREAM_ERROR) return -1;
    // Done: the stream's end written, or every byte taken and the flush complete.
    if (block->last ? result == Z_STREAM_END : stream->avail_in == 0 && stream->avail_out > 0)
      break;
    // Not done with room left: zlib would not go on; an error rather than a loop.
    if (stream->avail_out > 0) return -1;
    size_t used = block->outputCapacity - stream->avail_out;
    size_t capacity = 2 * block->outputCapacity;
    unsigned char *grown = realloc(block->output, capacity);
    if (!grown) return -1;
    block->output = grown;
    block->outputCapacity = capacity;
    stream->next_out = grown + used;
    stream->avail_out = (uInt)(capacity - used);
  }
  block->outputLength = block->outputCapacity - stream->avail_out;
  block->crc = crc32(0L, block->input + block->primed, (uInt)block->length);
  return 0;
}

static int initStream(z_stream *stream, const BlockedEntry *entry) {
  memset(stream, 0, sizeof *stream);
  return deflateInit2(stream, entry->level, Z_DEFLATED, RAW_WINDOW_BITS, entry->memLevel,
                      entry->strategy) == Z_OK
             ? 0
             : -1;
}

static void *worker(void *argument) {
  BlockedEntry *entry = argument;
  z_stream stream;
  int ready = initStream(&stream, entry) == 0;
  pthread_mutex_lock(&entry->lock);
  for (;;) {
    while (!entry->stopping && entry->taken == entry->submitted)
      pthread_cond_wait(&entry->queued, &entry->lock);
    if (entry->taken == entry->submitted) break;
    Block *block = &entry->slots[entry->taken % (unsigned long long)entry->slotCount];
    entry->taken += 1;
    pthread_mutex_unlock(&entry->lock);
    int result = ready ? deflateBlock(&stream, block) : -1;
    pthread_mutex_lock(&entry->lock);
    block->state = result == 0 ? 2 : -1;
    pthread_cond_broadcast(&entry->done);
  }
  pthread_mutex_unlock(&entry->lock);
  if (ready) deflateEnd(&stream);
  return NULL;
}

/// Hands the oldest block to minizip once it is deflated (waiting for it when `wait`); 1 when
/// one was stored, 0 when none was ready.
static int storeOldest(BlockedEntry *entry, int wait) {
  if (entry->stored == entry->submitted) return 0;
  Block *block = &entry->slots[entry->stored % (unsigned long long)entry->slotCount];
  pthread_mutex_lock(&entry->lock);
  while (wait && block->state == 1) pthread_cond_wait(&entry->done, &entry->lock);
  int state = block->state;
  pthread_mutex_unlock(&entry->lock);
  if (state == 1) return 0;
  if (state < 0 && entry->error == ZIP_OK) entry->error = ZIP_INTERNAL_ERROR;
  if (state == 2 && entry->error == ZIP_OK) {
    WriteInFile write = (WriteInFile)minizipFunction(&writeSlot, "zipWriteInFileInZip");
    // minizip takes at most UINT_MAX bytes a call; a block's output is far below that.
    int result = write ? write(entry->file, block->output, (unsigned int)block->outputLength)
                       : ZIP_INTERNAL_ERROR;
    if (result != ZIP_OK) entry->error = result;
    entry->crc = crc32_combine(entry->crc, block->crc, (z_off_t)block->length);
  }
  block->state = 0;
  entry->stored += 1;
  return 1;
}

/// The block being filled (number `submitted`), ready to take bytes: its slot freed (stored),
/// its buffer allocated and primed with the last 32 KB of the block before it (a full one:
/// only the last block is short).
static Block *fillingBlock(BlockedEntry *entry) {
  while (entry->submitted - entry->stored >= (unsigned long long)entry->slotCount)
    storeOldest(entry, 1);
  Block *block = &entry->slots[entry->submitted % (unsigned long long)entry->slotCount];
  if (block->number == entry->submitted + 1) return block;
  if (!block->input) {
    block->input = malloc(dictionarySize + blockSize);
    if (!block->input) return NULL;
  }
  block->number = entry->submitted + 1;
  block->length = 0;
  block->primed = 0;
  if (entry->submitted > 0) {
    const Block *previous =
        &entry->slots[(entry->submitted - 1) % (unsigned long long)entry->slotCount];
    block->primed = dictionarySize;
    memcpy(block->input, previous->input + previous->primed + previous->length - dictionarySize,
           dictionarySize);
  }
  return block;
}

/// Queues the filling block (the entry's last when `last`), starting the workers with the
/// first full one; with no workers wanted, the closing thread deflates it itself.
static void submit(BlockedEntry *entry, Block *block, int last) {
  block->last = last;
  if (entry->workerCount == 0 || (last && entry->workersStarted == 0)) {
    // No workers (or a small entry, one block in all): deflated here, as minizip would.
    if (!entry->inlineStreamReady)
      entry->inlineStreamReady = initStream(&entry->inlineStream, entry) == 0;
    int result = entry->inlineStreamReady ? deflateBlock(&entry->inlineStream, block) : -1;
    block->state = result == 0 ? 2 : -1;
    entry->submitted += 1;
    return;
  }
  if (entry->workersStarted < entry->workerCount) {
    for (int index = entry->workersStarted; index < entry->workerCount; index++) {
      if (pthread_create(&entry->workers[index], NULL, worker, entry) != 0) break;
      entry->workersStarted += 1;
    }
  }
  pthread_mutex_lock(&entry->lock);
  if (entry->workersStarted == 0) {
    pthread_mutex_unlock(&entry->lock);
    entry->workerCount = 0;
    submit(entry, block, last);
    return;
  }
  block->state = 1;
  entry->submitted += 1;
  pthread_cond_signal(&entry->queued);
  pthread_mutex_unlock(&entry->lock);
}

static void freeEntry(BlockedEntry *entry) {
  pthread_mutex_lock(&entry->lock);
  entry->stopping = 1;
  pthread_cond_broadcast(&entry->queued);
  pthread_mutex_unlock(&entry->lock);
  for (int index = 0; index < entry->workersStarted; index++)
    pthread_join(entry->workers[index], NULL);
  for (int index = 0; index < entry->slotCount; index++) {
    free(entry->slots[index].input);
    free(entry->slots[index].output);
  }
  free(entry->slots);
  if (entry->inlineStreamReady) deflateEnd(&entry->inlineStream);
  pthread_cond_destroy(&entry->queued);
  pthread_cond_destroy(&entry->done);
  pthread_mutex_destroy(&entry->lock);
  free(entry);
}

static BlockedEntry *newEntry(void *file, int level, int memLevel, int strategy, int workers) {
  BlockedEntry *entry = calloc(1, sizeof *entry);
  if (!entry) return NULL;
  entry->file = file;
  entry->level = level;
  entry->memLevel = memLevel;
  entry->strategy = strategy;
  entry->workerCount = workers > 1 ? workers : 0;
  // Two blocks per worker in flight, one being stored and one being filled.
  entry->slotCount = 2 * (entry->workerCount > 0 ? entry->workerCount : 1) + 2;
  entry->slots = calloc((size_t)entry->slotCount, sizeof(Block));
  entry->crc = crc32(0L, Z_NULL, 0);
  if (!entry->slots) {
    free(entry);
    return NULL;
  }
  pthread_mutex_init(&entry->lock, NULL);
  pthread_cond_init(&entry->queued, NULL);
  pthread_cond_init(&entry->done, NULL);
  return entry;
}

// MARK: minizip's entry points

int zipOpenNewFileInZip4_64(void *file, const char *filename, const void *fileInfo,
                            const void *extraLocal, unsigned int extraLocalSize,
                            const void *extraGlobal, unsigned int extraGlobalSize,
                            const char *comment, int method, int level, int raw,
                            int windowBits, int memLevel, int strategy, const char *password,
                            unsigned long crcForCrypting, unsigned long versionMadeBy,
                            unsigned long flagBase, int zip64) {
  OpenNewFile next = (OpenNewFile)minizipFunction(&openSlot, "zipOpenNewFileInZip4_64");
  if (!next) return ZIP_INTERNAL_ERROR;
  entriesOpened += 1;
  if (chosenLevel != RK_ZIP_LEVEL_LIBRARY_DEFAULT && method == DEFLATED &&
      level == DEFAULT_COMPRESSION && !raw) {
    level = chosenLevel;
    entriesLeveled += 1;
  }
  // An entry left open by a failed write is not ours any more.
  if (current) {
    freeEntry(current);
    current = NULL;
  }
  int inBlocks = chosenThreads > 0 && method == DEFLATED && !raw && !password &&
                 windowBits == RAW_WINDOW_BITS &&
                 minizipFunction(&writeSlot, "zipWriteInFileInZip") &&
                 minizipFunction(&closeRawSlot, "zipCloseFileInZipRaw64");
  BlockedEntry *entry =
      inBlocks ? newEntry(file, level, memLevel, strategy, chosenThreads) : NULL;
  // raw = 1: minizip stores what it is given; the level still sets the flag bits.
  int result = next(file, filename, fileInfo, extraLocal, extraLocalSize, extraGlobal,
                    extraGlobalSize, comment, method, level, entry ? 1 : raw, windowBits,
                    memLevel, strategy, password, crcForCrypting, versionMadeBy, flagBase,
                    zip64);
  if (entry && result == ZIP_OK) {
    current = entry;
    entriesInBlocks += 1;
  } else if (entry) {
    freeEntry(entry);
  }
  return result;
}

int zipWriteInFileInZip(void *file, const void *buffer, unsigned int length) {
  BlockedEntry *entry = current;
  if (!entry || entry->file != file) {
    WriteInFile next = (WriteInFile)minizipFunction(&writeSlot, "zipWriteInFileInZip");
    return next ? next(file, buffer, length) : ZIP_INTERNAL_ERROR;
  }
  const unsigned char *bytes = buffer;
  while (length > 0 && entry->error == ZIP_OK) {
    Block *block = fillingBlock(entry);
    if (!block) {
      entry->error = ZIP_INTERNAL_ERROR;
      break;
    }
    size_t room = blockSize - block->length;
    size_t taken = length < room ? length : room;
    memcpy(block->input + block->primed + block->length, bytes, taken);
    block->length += taken;
    entry->uncompressed += taken;
    bytes += taken;
    length -= (unsigned int)taken;
    if (block->length == blockSize) {
      submit(entry, block, 0);
      // Store what is ready without waiting, so finished blocks do not pile up.
      while (storeOldest(entry, 0)) {
      }
    }
  }
  return entry->error;
}

int zipCloseFileInZip(void *file) {
  BlockedEntry *entry = current;
  if (!entry || entry->file != file) {
    CloseFile next = (CloseFile)minizipFunction(&closeSlot, "zipCloseFileInZip");
    return next ? next(file) : ZIP_INTERNAL_ERROR;
  }
  current = NULL;
  if (entry->error == ZIP_OK) {
    Block *block = fillingBlock(entry);
    if (block) {
      submit(entry, block, 1);
    } else {
      entry->error = ZIP_INTERNAL_ERROR;
    }
  }
  while (storeOldest(entry, 1)) {
  }
  CloseFileRaw64 close =
      (CloseFileRaw64)minizipFunction(&closeRawSlot, "zipCloseFileInZipRaw64");
  // minizip closes the entry either way (its header, its directory record); an error is
  // reported after.
  int result = close(file, entry->uncompressed, entry->crc);
  int error = entry->error != ZIP_OK ? entry->error : result;
  freeEntry(entry);
  return error;
}

int zipClose(void *file, const char *globalComment) {
  // An entry the library left open after a failed write: its workers stop, its blocks go.
  BlockedEntry *entry = current;
  if (entry && entry->file == file) {
    current = NULL;
    freeEntry(entry);
  }
  CloseZip next = (CloseZip)minizipFunction(&closeZipSlot, "zipClose");
  return next ? next(file, globalComment) : ZIP_INTERNAL_ERROR;
}
