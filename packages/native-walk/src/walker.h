/* A parallel walk of a directory tree from a descriptor (see walker.c). */
#ifndef DMS_NATIVE_WALK_WALKER_H
#define DMS_NATIVE_WALK_WALKER_H

#include <stdbool.h>

#include "batch.h"

#define MAX_THREADS 4

typedef struct walk walk_t;

/* Hands a batch over (the receiver frees it); false: nobody takes batches any more, stop. */
typedef bool (*deliver_fn)(void *context, batch_t *batch);

/*
 * Starts `threads` threads walking from `root_fd` (duplicated; the caller keeps its own).
 * Batches come through `deliver` from those threads; the last one is `done` and comes once,
 * after every descriptor the walk opened is closed. NULL: nothing started (errno says why).
 */
walk_t *walk_start(int root_fd, int threads, const fold_plan_t *plan, deliver_fn deliver, void *context);
/* Asks the threads to stop at their next directory; the `done` batch still comes. */
void walk_abort(walk_t *walk);
/* Waits until every thread of the walk has returned (after `done`, or after walk_abort). */
void walk_join(walk_t *walk);
/* Frees what walk_start allocated; only after walk_join. */
void walk_free(walk_t *walk);

#endif
