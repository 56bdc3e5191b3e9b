/* What one walker thread gathers between two hand-overs to JavaScript (see walk.c). */
#ifndef DMS_NATIVE_WALK_BATCH_H
#define DMS_NATIVE_WALK_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#define MAX_BOUNDS 8
/* Six histogram rows (files and bytes by modification age, by access age, by size). */
#define MAX_HISTOGRAM (6 * (MAX_BOUNDS + 1))

/* The sink's bucket and ranking rules (ScanFoldPlan), copied once per walk. */
typedef struct {
  double now;
  double age_bounds[MAX_BOUNDS];
  int age_count;
  double size_bounds[MAX_BOUNDS];
  int size_count;
  int largest;
} fold_plan_t;

/* A file with several hard links: counted once by the main thread, whichever thread met it. */
typedef struct {
  char key[48];
  double bytes, modified_ms, accessed_ms;
  char *directory; /* NULL without analytics */
  char *name;
} linked_t;

typedef struct {
  char *path;
  double subdirectories, files, bytes;
} folded_dir_t;

typedef struct {
  char *text; /* NULL: free slot */
  size_t length;
  double files, bytes;
} extension_t;

typedef struct {
  char *path;
  size_t length;
  double bytes, modified_ms;
} ranked_t;

typedef struct {
  bool done;
  /* done: the walk's first error (errno, share-relative path) or 0. */
  int error;
  char *error_path;

  double files, bytes, dirs;
  linked_t *linked;
  size_t linked_count, linked_cap;

  bool analytics;
  folded_dir_t *directories;
  size_t directory_count, directory_cap;
  double histograms[MAX_HISTOGRAM];
  bool access_differs;
  extension_t *extensions; /* open addressing, power-of-two capacity */
  size_t extension_count, extension_cap;
  ranked_t *largest; /* sorted, largest first */
  int largest_count;
} batch_t;

batch_t *batch_new(bool analytics, const fold_plan_t *plan);
void batch_free(batch_t *batch);
bool batch_empty(const batch_t *batch);
/* Counts one regular file (with one link) of `directory`. Returns false when out of memory. */
bool batch_add_file(batch_t *batch, const fold_plan_t *plan, const char *directory, size_t directory_length, const char *name,
                    size_t name_length, double bytes, double modified_ms, double accessed_ms);
bool batch_add_linked(batch_t *batch, const char *key, const char *directory, const char *name, double bytes, double modified_ms,
                      double accessed_ms);
bool batch_add_directory(batch_t *batch, const char *path, double subdirectories, double files, double bytes);

#endif
