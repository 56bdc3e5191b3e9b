/*
 * Node-API face of the walker: start(fd, threads, plan | null, onMessage) → handle, abort(handle).
 * Batches cross to the JavaScript thread through a thread-safe function; at most QUEUE wait there,
 * a walker thread waits when JavaScript falls behind instead of piling batches up. The bound is
 * kept here, not by the function's own queue size: its blocking call wakes one waiting thread
 * only when it takes from a full queue, so with two threads waiting one can be left asleep with
 * the queue empty (seen: a walk that never ended). onMessage gets
 * (batch, null) for each batch (the FoldedWalkBatch shape) and (null, end) once at the end:
 * end.errno is 0 or the errno of the first error, end.message its text, end.path its share-relative path.
 */
#include <errno.h>
#include <node_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "walker.h"

#define QUEUE 8

/* Histogram numbers a batch carries: four age rows and two size rows. */
typedef struct binding binding_t;
typedef struct {
  binding_t *binding;
  int histogram_length;
} context_t;

struct binding {
  walk_t *walk;
  context_t context;
  napi_threadsafe_function deliver;
  /* Batches handed over and not yet taken by JavaScript, at most QUEUE. */
  pthread_mutex_t flow_lock;
  pthread_cond_t flow_wake;
  int in_flight;
  /* The function is being finalized (its walk ended, or the environment is torn down): no call may reach it. */
  bool closing;
  /*
   * Freed once the JavaScript handle, the thread-safe function and the walker threads are all
   * gone: at an environment's teardown (a worker thread terminated mid-walk) Node finalizes the
   * first two while the threads may still walk; they then stop at their next hand-over.
   */
  atomic_int holders;
};

static void taken(binding_t *binding) {
  pthread_mutex_lock(&binding->flow_lock);
  binding->in_flight--;
  pthread_cond_broadcast(&binding->flow_wake);
  pthread_mutex_unlock(&binding->flow_lock);
}

#define CHECK(call)                      \
  do {                                   \
    if ((call) != napi_ok) return false; \
  } while (0)

static void drop_holder(binding_t *binding) {
  if (atomic_fetch_sub(&binding->holders, 1) > 1) return;
  walk_free(binding->walk);
  pthread_mutex_destroy(&binding->flow_lock);
  pthread_cond_destroy(&binding->flow_wake);
  free(binding);
}

static bool set_number(napi_env env, napi_value object, const char *key, double number) {
  napi_value value;
  CHECK(napi_create_double(env, number, &value));
  CHECK(napi_set_named_property(env, object, key, value));
  return true;
}

static bool set_string(napi_env env, napi_value object, const char *key, const char *text, size_t length) {
  napi_value value;
  /* Names are bytes: invalid UTF-8 becomes U+FFFD, as in Node's readdir. */
  CHECK(napi_create_string_utf8(env, text, length, &value));
  CHECK(napi_set_named_property(env, object, key, value));
  return true;
}

static bool float64_array(napi_env env, const double *numbers, size_t count, napi_value *out) {
  void *data;
  napi_value buffer;
  CHECK(napi_create_arraybuffer(env, count * sizeof(double), &data, &buffer));
  if (count > 0) memcpy(data, numbers, count * sizeof(double));
  CHECK(napi_create_typedarray(env, napi_float64_array, count, buffer, 0, out));
  return true;
}

static bool folded_of(napi_env env, const batch_t *batch, int histogram_length, napi_value *out) {
  CHECK(napi_create_object(env, out));
  napi_value directories, extensions, largest, value;
  CHECK(napi_create_array_with_length(env, batch->directory_count, &directories));
  for (size_t i = 0; i < batch->directory_count; i++) {
    const folded_dir_t *directory = &batch->directories[i];
    napi_value item;
    CHECK(napi_create_object(env, &item));
    if (!set_string(env, item, "path", directory->path, NAPI_AUTO_LENGTH) ||
        !set_number(env, item, "subdirectories", directory->subdirectories) || !set_number(env, item, "files", directory->files) ||
        !set_number(env, item, "bytes", directory->bytes))
      return false;
    CHECK(napi_set_element(env, directories, (uint32_t)i, item));
  }
  CHECK(napi_set_named_property(env, *out, "directories", directories));
  if (!float64_array(env, batch->histograms, (size_t)histogram_length, &value)) return false;
  CHECK(napi_set_named_property(env, *out, "histograms", value));
  CHECK(napi_get_boolean(env, batch->access_differs, &value));
  CHECK(napi_set_named_property(env, *out, "accessDiffers", value));
  double *totals = malloc((batch->extension_count * 2 + 1) * sizeof(double));
  if (totals == NULL) return false;
  bool ok = napi_create_array_with_length(env, batch->extension_count, &extensions) == napi_ok;
  uint32_t index = 0;
  for (size_t slot = 0; ok && slot < batch->extension_cap; slot++) {
    const extension_t *extension = &batch->extensions[slot];
    if (extension->text == NULL) continue;
    ok = napi_create_string_utf8(env, extension->text, extension->length, &value) == napi_ok &&
         napi_set_element(env, extensions, index, value) == napi_ok;
    totals[2 * index] = extension->files;
    totals[2 * index + 1] = extension->bytes;
    index++;
  }
  ok = ok && float64_array(env, totals, batch->extension_count * 2, &value);
  free(totals);
  if (!ok) return false;
  CHECK(napi_set_named_property(env, *out, "extensionTotals", value));
  CHECK(napi_set_named_property(env, *out, "extensions", extensions));
  CHECK(napi_create_array_with_length(env, (size_t)batch->largest_count, &largest));
  for (int i = 0; i < batch->largest_count; i++) {
    const ranked_t *file = &batch->largest[i];
    napi_value item;
    CHECK(napi_create_object(env, &item));
    if (!set_string(env, item, "path", file->path, file->length) || !set_number(env, item, "bytes", file->bytes) ||
        !set_number(env, item, "modifiedMs", file->modified_ms))
      return false;
    CHECK(napi_set_element(env, largest, (uint32_t)i, item));
  }
  CHECK(napi_set_named_property(env, *out, "largest", largest));
  return true;
}

static bool batch_of(napi_env env, const batch_t *batch, int histogram_length, napi_value *out) {
  CHECK(napi_create_object(env, out));
  if (!set_number(env, *out, "files", batch->files) || !set_number(env, *out, "bytes", batch->bytes) ||
      !set_number(env, *out, "dirs", batch->dirs))
    return false;
  napi_value linked;
  CHECK(napi_create_array_with_length(env, batch->linked_count, &linked));
  for (size_t i = 0; i < batch->linked_count; i++) {
    const linked_t *file = &batch->linked[i];
    napi_value item;
    CHECK(napi_create_object(env, &item));
    if (!set_string(env, item, "key", file->key, NAPI_AUTO_LENGTH) || !set_number(env, item, "bytes", file->bytes) ||
        !set_string(env, item, "directory", file->directory == NULL ? "" : file->directory, NAPI_AUTO_LENGTH) ||
        !set_string(env, item, "name", file->name == NULL ? "" : file->name, NAPI_AUTO_LENGTH) ||
        !set_number(env, item, "modifiedMs", file->modified_ms) || !set_number(env, item, "accessedMs", file->accessed_ms))
      return false;
    CHECK(napi_set_element(env, linked, (uint32_t)i, item));
  }
  CHECK(napi_set_named_property(env, *out, "linked", linked));
  if (batch->analytics) {
    napi_value folded;
    if (!folded_of(env, batch, histogram_length, &folded)) return false;
    CHECK(napi_set_named_property(env, *out, "folded", folded));
  }
  return true;
}

static bool end_of(napi_env env, const batch_t *batch, napi_value *out) {
  CHECK(napi_create_object(env, out));
  if (!set_number(env, *out, "errno", batch->error)) return false;
  const char *message = batch->error == 0 ? "" : strerror(batch->error);
  if (!set_string(env, *out, "message", message, NAPI_AUTO_LENGTH)) return false;
  const char *path = batch->error_path == NULL ? "/" : batch->error_path;
  return set_string(env, *out, "path", path, NAPI_AUTO_LENGTH);
}

static void call_js(napi_env env, napi_value on_message, void *context_data, void *data) {
  batch_t *batch = data;
  context_t *context = context_data;
  if (env != NULL && on_message != NULL) {
    napi_value arguments[2], undefined, null_value;
    napi_get_undefined(env, &undefined);
    napi_get_null(env, &null_value);
    bool made = batch->done ? end_of(env, batch, &arguments[1]) : batch_of(env, batch, context->histogram_length, &arguments[0]);
    if (batch->done)
      arguments[0] = null_value;
    else
      arguments[1] = null_value;
    if (made) napi_call_function(env, undefined, on_message, 2, arguments, NULL);
  }
  batch_free(batch);
  /* env NULL: the queue is emptied after finalize_function, which already joined the threads. */
  if (env != NULL) taken(context->binding);
}

static bool deliver(void *context_data, batch_t *batch) {
  context_t *context = context_data;
  binding_t *binding = context->binding;
  napi_threadsafe_function function = binding->deliver;
  bool done = batch->done;
  pthread_mutex_lock(&binding->flow_lock);
  while (binding->in_flight >= QUEUE && !done && !binding->closing) pthread_cond_wait(&binding->flow_wake, &binding->flow_lock);
  /* Called under the lock: once a call was answered napi_closing, or finalization began, no other may follow. */
  bool handed = !binding->closing && napi_call_threadsafe_function(function, batch, napi_tsfn_nonblocking) == napi_ok;
  if (handed)
    binding->in_flight++;
  else
    binding->closing = true;
  pthread_mutex_unlock(&binding->flow_lock);
  if (!handed) batch_free(batch);
  if (done) {
    /* The walker's last touch of the binding: the threads let go of it here. */
    if (handed) napi_release_threadsafe_function(function, napi_tsfn_release);
    drop_holder(binding);
  }
  return handed;
}

/*
 * On the JavaScript thread, once the walk's last batch released the function, or at the
 * environment's teardown while threads may still walk: they are stopped and joined here, so no
 * thread calls the function after it is gone nor runs this library's code after it is unloaded.
 */
static void finalize_function(napi_env env, void *finalize_data, void *hint) {
  (void)env;
  (void)hint;
  binding_t *binding = ((context_t *)finalize_data)->binding;
  pthread_mutex_lock(&binding->flow_lock);
  binding->closing = true;
  pthread_cond_broadcast(&binding->flow_wake);
  pthread_mutex_unlock(&binding->flow_lock);
  if (binding->walk != NULL) {
    walk_abort(binding->walk);
    walk_join(binding->walk);
  }
  drop_holder(binding);
}

static void finalize_handle(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  drop_holder(data);
}

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

static bool read_bounds(napi_env env, napi_value plan, const char *key, double *bounds, int *count) {
  napi_value array, value;
  uint32_t length;
  CHECK(napi_get_named_property(env, plan, key, &array));
  CHECK(napi_get_array_length(env, array, &length));
  if (length > MAX_BOUNDS) return false;
  for (uint32_t i = 0; i < length; i++) {
    CHECK(napi_get_element(env, array, i, &value));
    CHECK(napi_get_value_double(env, value, &bounds[i]));
  }
  *count = (int)length;
  return true;
}

static bool read_plan(napi_env env, napi_value object, fold_plan_t *plan) {
  napi_value value;
  CHECK(napi_get_named_property(env, object, "now", &value));
  CHECK(napi_get_value_double(env, value, &plan->now));
  CHECK(napi_get_named_property(env, object, "largestFiles", &value));
  CHECK(napi_get_value_int32(env, value, &plan->largest));
  if (plan->largest < 0 || plan->largest > 10000) return false;
  return read_bounds(env, object, "ageBounds", plan->age_bounds, &plan->age_count) &&
         read_bounds(env, object, "sizeBounds", plan->size_bounds, &plan->size_count);
}

static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) return throw_error(env, "start(fd, threads, plan, onMessage)");
  int32_t fd, threads;
  if (napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) return throw_error(env, "fd must be a descriptor");
  if (napi_get_value_int32(env, argv[1], &threads) != napi_ok) return throw_error(env, "threads must be a number");
  napi_valuetype plan_type;
  napi_typeof(env, argv[2], &plan_type);
  fold_plan_t plan = {0};
  bool analytics = plan_type == napi_object;
  if (analytics && !read_plan(env, argv[2], &plan)) return throw_error(env, "plan must be a ScanFoldPlan (at most 8 bounds a row)");
  binding_t *binding = calloc(1, sizeof(binding_t));
  if (binding == NULL) return throw_error(env, "out of memory");
  context_t *context = &binding->context;
  atomic_init(&binding->holders, 3);
  pthread_mutex_init(&binding->flow_lock, NULL);
  pthread_cond_init(&binding->flow_wake, NULL);
  context->binding = binding;
  context->histogram_length = 4 * (plan.age_count + 1) + 2 * (plan.size_count + 1);
  napi_value name, handle;
  napi_create_string_utf8(env, "dms-native-walk", NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, argv[3], NULL, name, 0, 1, context, finalize_function, context, call_js, &binding->deliver) !=
      napi_ok) {
    pthread_mutex_destroy(&binding->flow_lock);
    pthread_cond_destroy(&binding->flow_wake);
    free(binding);
    return throw_error(env, "cannot create the walk's callback");
  }
  if (napi_create_external(env, binding, finalize_handle, NULL, &handle) != napi_ok) {
    /* No walk, no handle: the thread-safe function's finalizer drops the last holder. */
    atomic_store(&binding->holders, 1);
    napi_release_threadsafe_function(binding->deliver, napi_tsfn_abort);
    return throw_error(env, "cannot create the walk's handle");
  }
  binding->walk = walk_start(fd, threads, analytics ? &plan : NULL, deliver, context);
  if (binding->walk == NULL) {
    int error = errno;
    drop_holder(binding); /* no threads */
    napi_release_threadsafe_function(binding->deliver, napi_tsfn_abort);
    napi_value code, message, thrown;
    napi_create_string_utf8(env, "walk", NAPI_AUTO_LENGTH, &code);
    napi_create_string_utf8(env, strerror(error), NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, code, message, &thrown);
    napi_value number;
    napi_create_int32(env, error, &number);
    napi_set_named_property(env, thrown, "errno", number);
    napi_throw(env, thrown);
    return NULL;
  }
  return handle;
}

static napi_value abort_walk(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || napi_get_value_external(env, argv[0], &data) != napi_ok)
    return throw_error(env, "abort(handle)");
  binding_t *binding = data;
  if (binding->walk != NULL) walk_abort(binding->walk);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value function;
  napi_create_function(env, "start", NAPI_AUTO_LENGTH, start, NULL, &function);
  napi_set_named_property(env, exports, "start", function);
  napi_create_function(env, "abort", NAPI_AUTO_LENGTH, abort_walk, NULL, &function);
  napi_set_named_property(env, exports, "abort", function);
  napi_value threads;
  napi_create_int32(env, MAX_THREADS, &threads);
  napi_set_named_property(env, exports, "maxThreads", threads);
  return exports;
}
