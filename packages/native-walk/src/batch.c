/* Folding of a batch's files: the same sums a sink's `file` call per file makes (see FoldedBatch). */
#include "batch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Longer extensions are never counted as such (the sink's bound is 16 UTF-16 units, at most 48 bytes). */
#define EXTENSION_BYTES_MAX 64

static bool grow(void **items, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return true;
  size_t next = *cap == 0 ? 64 : *cap * 2;
  while (next < need) next *= 2;
  void *moved = realloc(*items, next * size);
  if (moved == NULL) return false;
  *items = moved;
  *cap = next;
  return true;
}

static char *copy(const char *text, size_t length) {
  char *out = malloc(length + 1);
  if (out == NULL) return NULL;
  memcpy(out, text, length);
  out[length] = '\0';
  return out;
}

batch_t *batch_new(bool analytics, const fold_plan_t *plan) {
  batch_t *batch = calloc(1, sizeof(batch_t));
  if (batch == NULL) return NULL;
  batch->analytics = analytics;
  if (analytics && plan->largest > 0) {
    batch->largest = calloc((size_t)plan->largest, sizeof(ranked_t));
    if (batch->largest == NULL) {
      free(batch);
      return NULL;
    }
  }
  return batch;
}

void batch_free(batch_t *batch) {
  if (batch == NULL) return;
  free(batch->error_path);
  for (size_t i = 0; i < batch->linked_count; i++) {
    free(batch->linked[i].directory);
    free(batch->linked[i].name);
  }
  free(batch->linked);
  for (size_t i = 0; i < batch->directory_count; i++) free(batch->directories[i].path);
  free(batch->directories);
  for (size_t i = 0; i < batch->extension_cap; i++) free(batch->extensions[i].text);
  free(batch->extensions);
  for (int i = 0; i < batch->largest_count; i++) free(batch->largest[i].path);
  free(batch->largest);
  free(batch);
}

bool batch_empty(const batch_t *batch) {
  return batch->files == 0 && batch->dirs == 0 && batch->linked_count == 0 && batch->directory_count == 0;
}

/* As the sink's bucketOf: the number of bounds the value reaches. */
static int bucket_of(double value, const double *bounds, int count) {
  int index = 0;
  while (index < count && value >= bounds[index]) index++;
  return index;
}

static uint64_t hash_of(const char *text, size_t length) {
  uint64_t hash = 1469598103934665603ULL;
  for (size_t i = 0; i < length; i++) hash = (hash ^ (unsigned char)text[i]) * 1099511628211ULL;
  return hash;
}

static bool add_extension(batch_t *batch, const char *text, size_t length, double bytes) {
  if (batch->extension_count * 2 >= batch->extension_cap) {
    size_t cap = batch->extension_cap == 0 ? 64 : batch->extension_cap * 2;
    extension_t *table = calloc(cap, sizeof(extension_t));
    if (table == NULL) return false;
    for (size_t i = 0; i < batch->extension_cap; i++) {
      extension_t *old = &batch->extensions[i];
      if (old->text == NULL) continue;
      size_t slot = hash_of(old->text, old->length) & (cap - 1);
      while (table[slot].text != NULL) slot = (slot + 1) & (cap - 1);
      table[slot] = *old;
    }
    free(batch->extensions);
    batch->extensions = table;
    batch->extension_cap = cap;
  }
  size_t mask = batch->extension_cap - 1;
  size_t slot = hash_of(text, length) & mask;
  while (batch->extensions[slot].text != NULL) {
    extension_t *entry = &batch->extensions[slot];
    if (entry->length == length && memcmp(entry->text, text, length) == 0) {
      entry->files += 1;
      entry->bytes += bytes;
      return true;
    }
    slot = (slot + 1) & mask;
  }
  char *key = copy(text, length);
  if (key == NULL) return false;
  batch->extensions[slot] = (extension_t){key, length, 1, bytes};
  batch->extension_count++;
  return true;
}

/* Larger first; equal sizes by path in byte order, which is code point order for UTF-8. */
static bool ranks_before(double bytes, const char *path, size_t length, const ranked_t *other) {
  if (bytes != other->bytes) return bytes > other->bytes;
  size_t common = length < other->length ? length : other->length;
  int order = memcmp(path, other->path, common);
  return order != 0 ? order < 0 : length < other->length;
}

static bool offer_largest(batch_t *batch, const fold_plan_t *plan, const char *directory, size_t directory_length, const char *name,
                          size_t name_length, double bytes, double modified_ms) {
  int limit = plan->largest;
  if (limit <= 0) return true;
  /* Most files are smaller than the batch's last kept one: turned away before a path is built. */
  if (batch->largest_count == limit && bytes < batch->largest[limit - 1].bytes) return true;
  bool root = directory_length == 1;
  size_t length = (root ? 0 : directory_length) + 1 + name_length;
  char *path = malloc(length + 1);
  if (path == NULL) return false;
  if (!root) memcpy(path, directory, directory_length);
  path[root ? 0 : directory_length] = '/';
  memcpy(path + (root ? 1 : directory_length + 1), name, name_length);
  path[length] = '\0';
  int at = batch->largest_count;
  while (at > 0 && ranks_before(bytes, path, length, &batch->largest[at - 1])) at--;
  if (at >= limit) {
    free(path);
    return true;
  }
  if (batch->largest_count == limit) {
    free(batch->largest[limit - 1].path);
    batch->largest_count--;
  }
  memmove(&batch->largest[at + 1], &batch->largest[at], (size_t)(batch->largest_count - at) * sizeof(ranked_t));
  batch->largest[at] = (ranked_t){path, length, bytes, modified_ms};
  batch->largest_count++;
  return true;
}

bool batch_add_file(batch_t *batch, const fold_plan_t *plan, const char *directory, size_t directory_length, const char *name,
                    size_t name_length, double bytes, double modified_ms, double accessed_ms) {
  batch->files += 1;
  batch->bytes += bytes;
  if (!batch->analytics) return true;
  int ages = plan->age_count + 1;
  int sizes = plan->size_count + 1;
  double *rows = batch->histograms;
  int age = bucket_of(plan->now - modified_ms, plan->age_bounds, plan->age_count);
  rows[age] += 1;
  rows[ages + age] += bytes;
  int access = bucket_of(plan->now - accessed_ms, plan->age_bounds, plan->age_count);
  rows[2 * ages + access] += 1;
  rows[3 * ages + access] += bytes;
  if (accessed_ms != modified_ms) batch->access_differs = true;
  int size = bucket_of(bytes, plan->size_bounds, plan->size_count);
  rows[4 * ages + size] += 1;
  rows[4 * ages + sizes + size] += bytes;

  /* The text after the last dot when text comes before it; the sink applies its own rules again. */
  const char *dot = NULL;
  for (size_t i = name_length; i > 0; i--) {
    if (name[i - 1] == '.') {
      dot = name + i - 1;
      break;
    }
  }
  char lowered[EXTENSION_BYTES_MAX];
  size_t length = 0;
  if (dot != NULL && dot != name) {
    size_t after = name_length - (size_t)(dot - name) - 1;
    if (after <= EXTENSION_BYTES_MAX) {
      for (size_t i = 0; i < after; i++) {
        char c = dot[1 + i];
        lowered[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
      }
      length = after;
    }
  }
  if (!add_extension(batch, lowered, length, bytes)) return false;
  return offer_largest(batch, plan, directory, directory_length, name, name_length, bytes, modified_ms);
}

bool batch_add_linked(batch_t *batch, const char *key, const char *directory, const char *name, double bytes, double modified_ms,
                      double accessed_ms) {
  if (!grow((void **)&batch->linked, &batch->linked_cap, batch->linked_count + 1, sizeof(linked_t))) return false;
  linked_t *file = &batch->linked[batch->linked_count];
  memset(file, 0, sizeof(*file));
  strncpy(file->key, key, sizeof(file->key) - 1);
  file->bytes = bytes;
  file->modified_ms = modified_ms;
  file->accessed_ms = accessed_ms;
  if (batch->analytics) {
    file->directory = strdup(directory);
    file->name = strdup(name);
    if (file->directory == NULL || file->name == NULL) {
      free(file->directory);
      free(file->name);
      return false;
    }
  }
  batch->linked_count++;
  return true;
}

bool batch_add_directory(batch_t *batch, const char *path, double subdirectories, double files, double bytes) {
  if (!batch->analytics) return true;
  if (!grow((void **)&batch->directories, &batch->directory_cap, batch->directory_count + 1, sizeof(folded_dir_t))) return false;
  char *copied = strdup(path);
  if (copied == NULL) return false;
  batch->directories[batch->directory_count++] = (folded_dir_t){copied, subdirectories, files, bytes};
  return true;
}
