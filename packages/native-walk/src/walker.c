/*
 * The walk: threads share a stack of directories still to list (mutex + condition variable).
 * A directory is opened when a thread takes it, with openat(parent, name, O_DIRECTORY |
 * O_NOFOLLOW) through its parent's descriptor, kept open while children wait for it: the walk
 * is confined to the tree under the root descriptor by construction, and a symlink is never
 * followed (a component swapped for one fails with ELOOP and is skipped, like a vanished one).
 * At most KEPT_FDS parents keep a descriptor; past that a child is opened from the root one
 * component at a time, the same way, so the descriptors held stay bounded whatever the tree.
 *
 * Counting matches the worker-thread walker: regular files only, sizes as lstat gives them,
 * symlinks neither followed nor counted, a file with several links handed back (`dev:ino`) for
 * the main thread to count once; an entry that vanished (ENOENT/ENOTDIR) is skipped, except the
 * root; any other error ends the walk, reported with the share-relative path where it came.
 */
#define _GNU_SOURCE
#include "walker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEPT_FDS 256
/* A thread hands its batch over after this many files or this long, whichever comes first. */
#define BATCH_FILES 4096
#define BATCH_NS 20000000LL

#define ENTER_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

typedef struct node {
  struct node *parent; /* set until the directory is opened */
  int fd;              /* kept while children wait, else -1 */
  int pending;         /* children not opened yet */
  size_t name_at;      /* where the last component starts in path */
  size_t length;
  char path[]; /* share-relative, '/' for the root */
} node_t;

struct walk {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  node_t **stack;
  size_t stacked, stack_cap;
  int active;
  int kept;
  atomic_bool stop;
  atomic_int running;
  int root_fd;
  int error;
  char *error_path;
  bool analytics;
  fold_plan_t plan;
  deliver_fn deliver;
  void *context;
  pthread_t threads[MAX_THREADS];
  int started;
};

typedef struct {
  walk_t *walk;
  batch_t *batch;
  long long batch_started;
} thread_t;

static long long monotonic_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static bool vanished(int error) { return error == ENOENT || error == ENOTDIR; }

/* As Node's Stats.mtimeMs: seconds * 1e3 + nanoseconds / 1e6, in doubles. */
static double ms_of(struct timespec time) { return (double)time.tv_sec * 1e3 + (double)time.tv_nsec / 1e6; }

#ifdef __APPLE__
#define MTIME(st) ((st).st_mtimespec)
#define ATIME(st) ((st).st_atimespec)
#else
#define MTIME(st) ((st).st_mtim)
#define ATIME(st) ((st).st_atim)
#endif

static node_t *node_new(node_t *parent, const char *name, size_t name_length) {
  bool under_root = parent->length == 1;
  size_t length = (under_root ? 0 : parent->length) + 1 + name_length;
  node_t *node = malloc(sizeof(node_t) + length + 1);
  if (node == NULL) return NULL;
  node->parent = parent;
  node->fd = -1;
  node->pending = 0;
  node->length = length;
  node->name_at = length - name_length;
  if (!under_root) memcpy(node->path, parent->path, parent->length);
  node->path[node->name_at - 1] = '/';
  memcpy(node->path + node->name_at, name, name_length);
  node->path[length] = '\0';
  return node;
}

/* Under the lock: one child of `parent` no longer needs its descriptor. */
static void release_parent(walk_t *walk, node_t *parent) {
  if (--parent->pending > 0) return;
  if (parent->fd >= 0) {
    close(parent->fd);
    walk->kept--;
  }
  free(parent);
}

/* First error wins; every thread stops at its next directory. */
static void fail(walk_t *walk, int error, const char *path) {
  pthread_mutex_lock(&walk->lock);
  if (walk->error == 0) {
    walk->error = error;
    walk->error_path = strdup(path);
  }
  atomic_store(&walk->stop, true);
  pthread_cond_broadcast(&walk->wake);
  pthread_mutex_unlock(&walk->lock);
}

/* Opens a directory the walk listed, never through a symlink; -1 with errno. */
static int enter(walk_t *walk, node_t *node) {
  node_t *parent = node->parent;
  int fd;
  if (parent->fd >= 0) {
    fd = openat(parent->fd, node->path + node->name_at, ENTER_FLAGS);
  } else {
    /* Its parent gave its descriptor up: from the root, one component at a time. */
    int at = walk->root_fd;
    const char *component = node->path + 1;
    fd = -1;
    for (;;) {
      const char *slash = strchr(component, '/');
      size_t length = slash == NULL ? strlen(component) : (size_t)(slash - component);
      char name[256];
      if (length >= sizeof(name)) {
        errno = ENAMETOOLONG;
        fd = -1;
        break;
      }
      memcpy(name, component, length);
      name[length] = '\0';
      fd = openat(at, name, ENTER_FLAGS);
      int saved = errno;
      if (at != walk->root_fd) close(at);
      errno = saved;
      if (fd < 0 || slash == NULL) break;
      at = fd;
      component = slash + 1;
    }
  }
  int saved = errno;
  pthread_mutex_lock(&walk->lock);
  release_parent(walk, parent);
  pthread_mutex_unlock(&walk->lock);
  node->parent = NULL;
  errno = saved;
  return fd;
}

static void flush(thread_t *thread) {
  walk_t *walk = thread->walk;
  if (!batch_empty(thread->batch)) {
    if (!walk->deliver(walk->context, thread->batch)) atomic_store(&walk->stop, true);
    thread->batch = batch_new(walk->analytics, &walk->plan);
    if (thread->batch == NULL) fail(walk, ENOMEM, "/");
  }
  thread->batch_started = monotonic_ns();
}

/* Subdirectory names of the directory being listed, back to back with their lengths. */
typedef struct {
  char *bytes;
  size_t used, cap;
  size_t count;
} names_t;

static bool names_add(names_t *names, const char *name, size_t length) {
  size_t need = names->used + sizeof(size_t) + length;
  if (need > names->cap) {
    size_t cap = names->cap == 0 ? 4096 : names->cap * 2;
    while (cap < need) cap *= 2;
    char *moved = realloc(names->bytes, cap);
    if (moved == NULL) return false;
    names->bytes = moved;
    names->cap = cap;
  }
  memcpy(names->bytes + names->used, &length, sizeof(size_t));
  memcpy(names->bytes + names->used + sizeof(size_t), name, length);
  names->used = need;
  names->count++;
  return true;
}

/* The path of `name` in `node` for an error message. */
static void fail_at(walk_t *walk, int error, node_t *node, const char *name) {
  size_t length = node->length + 1 + strlen(name) + 1;
  char *path = malloc(length);
  if (path == NULL) return fail(walk, error, node->path);
  snprintf(path, length, "%s%s%s", node->length == 1 ? "" : node->path, "/", name);
  fail(walk, error, path);
  free(path);
}

/* Lists one directory: counts its files into the thread's batch, pushes its subdirectories. */
static void list(thread_t *thread, node_t *node, names_t *subdirectories) {
  walk_t *walk = thread->walk;
  bool root = node->parent == NULL && node->length == 1;
  int fd = root ? fcntl(walk->root_fd, F_DUPFD_CLOEXEC, 0) : enter(walk, node);
  if (fd < 0) {
    int error = errno;
    batch_add_directory(thread->batch, node->path, 0, 0, 0);
    if (root || !(vanished(error) || error == ELOOP)) fail(walk, error, node->path);
    free(node);
    return;
  }
  /* readdir advances the offset of a shared open file description: a duplicate is listed, the
     descriptor itself stays for the children's openat. */
  int listed_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
  DIR *dir = listed_fd < 0 ? NULL : fdopendir(listed_fd);
  if (dir == NULL) {
    int error = errno;
    if (listed_fd >= 0) close(listed_fd);
    close(fd);
    batch_add_directory(thread->batch, node->path, 0, 0, 0);
    if (root || !vanished(error)) fail(walk, error, node->path);
    free(node);
    return;
  }
  subdirectories->used = 0;
  subdirectories->count = 0;
  double files = 0, bytes = 0;
  bool ok = true;
  for (size_t entries = 1;; entries++) {
    /* A stop (abort, another thread's error) is also seen inside a directory of millions of entries. */
    if (entries % 1024 == 0 && atomic_load(&walk->stop)) {
      ok = false;
      break;
    }
    errno = 0;
    struct dirent *entry = readdir(dir);
    if (entry == NULL) {
      if (errno != 0 && !vanished(errno)) {
        fail(walk, errno, node->path);
        ok = false;
      }
      break;
    }
    const char *name = entry->d_name;
    if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
    unsigned char type = entry->d_type;
    if (type != DT_DIR && type != DT_REG && type != DT_UNKNOWN) continue;
    size_t name_length = strlen(name);
    if (type == DT_DIR) {
      if (!names_add(subdirectories, name, name_length)) {
        fail(walk, ENOMEM, node->path);
        ok = false;
        break;
      }
      continue;
    }
    struct stat st;
    if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (vanished(errno)) continue;
      fail_at(walk, errno, node, name);
      ok = false;
      break;
    }
    if (type == DT_UNKNOWN && S_ISDIR(st.st_mode)) {
      if (!names_add(subdirectories, name, name_length)) {
        fail(walk, ENOMEM, node->path);
        ok = false;
        break;
      }
      continue;
    }
    /* Checked again: the entry may have been replaced since it was listed. */
    if (!S_ISREG(st.st_mode)) continue;
    double size = (double)st.st_size;
    double modified = ms_of(MTIME(st));
    double accessed = ms_of(ATIME(st));
    bool added;
    if (st.st_nlink > 1) {
      char key[48];
      snprintf(key, sizeof(key), "%" PRIuMAX ":%" PRIuMAX, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino);
      added = batch_add_linked(thread->batch, key, node->path, name, size, modified, accessed);
    } else {
      files += 1;
      bytes += size;
      added = batch_add_file(thread->batch, &walk->plan, node->path, node->length, name, name_length, size, modified, accessed);
    }
    if (!added) {
      fail(walk, ENOMEM, node->path);
      ok = false;
      break;
    }
  }
  closedir(dir);
  if (!ok) {
    close(fd);
    batch_add_directory(thread->batch, node->path, 0, files, bytes);
    free(node);
    return;
  }
  thread->batch->dirs += 1;
  size_t count = subdirectories->count;
  batch_add_directory(thread->batch, node->path, (double)count, files, bytes);
  if (count == 0) {
    close(fd);
    free(node);
    return;
  }
  node_t **children = malloc(count * sizeof(node_t *));
  size_t made = 0;
  if (children != NULL) {
    for (size_t at = 0; made < count; made++) {
      size_t length;
      memcpy(&length, subdirectories->bytes + at, sizeof(size_t));
      children[made] = node_new(node, subdirectories->bytes + at + sizeof(size_t), length);
      if (children[made] == NULL) break;
      at += sizeof(size_t) + length;
    }
  }
  pthread_mutex_lock(&walk->lock);
  if (children == NULL || made < count || walk->stacked + count > walk->stack_cap) {
    size_t cap = walk->stack_cap == 0 ? 1024 : walk->stack_cap;
    while (cap < walk->stacked + count) cap *= 2;
    node_t **moved = children == NULL || made < count ? NULL : realloc(walk->stack, cap * sizeof(node_t *));
    if (moved == NULL) {
      pthread_mutex_unlock(&walk->lock);
      for (size_t i = 0; i < made; i++) free(children[i]);
      free(children);
      close(fd);
      free(node);
      fail(walk, ENOMEM, "/");
      return;
    }
    walk->stack = moved;
    walk->stack_cap = cap;
  }
  node->pending = (int)count;
  if (walk->kept < KEPT_FDS) {
    node->fd = fd;
    walk->kept++;
  } else {
    close(fd);
  }
  /* Pushed in reverse so they are taken in listing order. */
  for (size_t i = count; i > 0; i--) walk->stack[walk->stacked++] = children[i - 1];
  pthread_cond_broadcast(&walk->wake);
  pthread_mutex_unlock(&walk->lock);
  free(children);
}

static void finish(walk_t *walk) {
  /* Every thread has left: what is still stacked is dropped, which closes the parents kept for it. */
  pthread_mutex_lock(&walk->lock);
  for (size_t i = 0; i < walk->stacked; i++) {
    node_t *node = walk->stack[i];
    if (node->parent != NULL) release_parent(walk, node->parent);
    free(node);
  }
  walk->stacked = 0;
  pthread_mutex_unlock(&walk->lock);
  close(walk->root_fd);
  walk->root_fd = -1;
  batch_t *done = batch_new(false, &walk->plan);
  if (done == NULL) return; /* nothing can be said any more; the receiver never hears of the end */
  done->done = true;
  done->error = walk->error;
  done->error_path = walk->error_path;
  walk->error_path = NULL;
  walk->deliver(walk->context, done);
}

static void *run(void *argument) {
  walk_t *walk = argument;
  thread_t thread = {walk, batch_new(walk->analytics, &walk->plan), monotonic_ns()};
  names_t subdirectories = {0};
  if (thread.batch == NULL) fail(walk, ENOMEM, "/");
  pthread_mutex_lock(&walk->lock);
  while (!atomic_load(&walk->stop)) {
    if (walk->stacked > 0) {
      node_t *node = walk->stack[--walk->stacked];
      walk->active++;
      pthread_mutex_unlock(&walk->lock);
      list(&thread, node, &subdirectories);
      if (thread.batch != NULL &&
          (thread.batch->files + (double)thread.batch->linked_count >= BATCH_FILES || monotonic_ns() - thread.batch_started >= BATCH_NS))
        flush(&thread);
      pthread_mutex_lock(&walk->lock);
      walk->active--;
      if (walk->active == 0 && walk->stacked == 0) pthread_cond_broadcast(&walk->wake);
      continue;
    }
    if (walk->active == 0) break;
    if (thread.batch != NULL && !batch_empty(thread.batch)) {
      /* Nothing to take now: what this thread holds goes out before it waits. */
      pthread_mutex_unlock(&walk->lock);
      flush(&thread);
      pthread_mutex_lock(&walk->lock);
      continue;
    }
    pthread_cond_wait(&walk->wake, &walk->lock);
  }
  pthread_mutex_unlock(&walk->lock);
  if (thread.batch != NULL) {
    if (!atomic_load(&walk->stop) || walk->error != 0) flush(&thread);
    batch_free(thread.batch);
  }
  free(subdirectories.bytes);
  if (atomic_fetch_sub(&walk->running, 1) == 1) finish(walk);
  return NULL;
}

walk_t *walk_start(int root_fd, int threads, const fold_plan_t *plan, deliver_fn deliver, void *context) {
  walk_t *walk = calloc(1, sizeof(walk_t));
  if (walk == NULL) return NULL;
  pthread_mutex_init(&walk->lock, NULL);
  pthread_cond_init(&walk->wake, NULL);
  walk->analytics = plan != NULL;
  if (plan != NULL) walk->plan = *plan;
  walk->deliver = deliver;
  walk->context = context;
  walk->root_fd = fcntl(root_fd, F_DUPFD_CLOEXEC, 0);
  node_t *root = malloc(sizeof(node_t) + 2);
  walk->stack = malloc(1024 * sizeof(node_t *));
  if (walk->root_fd < 0 || root == NULL || walk->stack == NULL) {
    int error = walk->root_fd < 0 ? errno : ENOMEM;
    if (walk->root_fd >= 0) close(walk->root_fd);
    free(root);
    walk_free(walk);
    errno = error;
    return NULL;
  }
  *root = (node_t){NULL, -1, 0, 1, 1};
  memcpy(root->path, "/", 2);
  walk->stack_cap = 1024;
  walk->stack[walk->stacked++] = root;
  if (threads < 1) threads = 1;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  atomic_store(&walk->running, threads);
  for (int i = 0; i < threads; i++) {
    if (pthread_create(&walk->threads[i], NULL, run, walk) == 0) {
      walk->started++;
      continue;
    }
    /* Fewer threads walk; none at all: the walk ends here, the `done` batch says so. */
    if (i == 0) fail(walk, EAGAIN, "/");
    if (atomic_fetch_sub(&walk->running, threads - i) == threads - i) finish(walk);
    break;
  }
  return walk;
}

void walk_abort(walk_t *walk) {
  pthread_mutex_lock(&walk->lock);
  atomic_store(&walk->stop, true);
  pthread_cond_broadcast(&walk->wake);
  pthread_mutex_unlock(&walk->lock);
}

void walk_join(walk_t *walk) {
  for (int i = 0; i < walk->started; i++) pthread_join(walk->threads[i], NULL);
  walk->started = 0;
}

void walk_free(walk_t *walk) {
  if (walk == NULL) return;
  free(walk->stack);
  free(walk->error_path);
  pthread_mutex_destroy(&walk->lock);
  pthread_cond_destroy(&walk->wake);
  free(walk);
}
