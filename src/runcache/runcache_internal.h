/* Private helpers of the run cache. */
#ifndef NPUIFY_RUNCACHE_INTERNAL_H
#define NPUIFY_RUNCACHE_INTERNAL_H

#include <sys/stat.h>

#include "runcache/runcache.h"

/* A temporary of the cache: ".tmp-" + 6 of [A-Za-z0-9] (mkdtemp). */
#define NFY__RC_TMP_PREFIX ".tmp-"
bool nfy__runcache_is_tmp_name(const char *name);

/* The names in directory dirfd (malloc'd each) that keep accepts (NULL:
 * all), by name when sorted. */
typedef NFY_VEC(char *) nfy__rc_names;
nfy_status nfy__runcache_dir_names(int dirfd, bool sorted,
                                   bool (*keep)(const char *name),
                                   nfy__rc_names *out);
void nfy__runcache_names_free(nfy__rc_names *names);

/* rm -r dirfd/name, never through a link (a link is removed itself);
 * absent is fine. Directories are made writable first (they are ours). */
nfy_status nfy__runcache_remove_at(int dirfd, const char *name);
/* Everything inside the directory dirfd (dirfd itself stays). */
nfy_status nfy__runcache_rm_contents(int dirfd);

/*
 * Temporaries (.tmp-XXXXXX) whose builder is gone: each builder holds an
 * flock on its temporary while it builds, so one that can be locked and
 * is older than a few seconds (the moment between mkdtemp and flock) was
 * left by a killed run, and is removed.
 */
void nfy__runcache_remove_stale(int rootfd);

/*
 * Open the cache root (creating it 0700 when create), following a link in
 * the name the user gave, and check it as ssh and git's safe.directory
 * do: owned by the effective user and writable by nobody else, and every
 * directory above it owned by the user or root and not writable by others
 * unless sticky (/tmp). *fd: the root; *real: its real path (arena a).
 * NFY_EACCES with a diagnostic when it is not safe.
 */
nfy_status nfy__runcache_open_root(nfy_arena *a, const char *root, bool create,
                                   int *fd, const char **real,
                                   nfy_diags *diags);
/* st is owned by the effective user and (links aside) writable by no one
 * else; else a diagnostic naming path and NFY_EACCES. */
nfy_status nfy__runcache_check_owned(const struct stat *st, const char *path,
                                     nfy_diags *diags);

/*
 * Walk the directory dirfd in sorted (byte) order, each directory before
 * what it holds, never through a link (each step an openat with
 * O_NOFOLLOW from its parent). fn gets the entry's parent directory, its
 * name, its path relative to the start and its lstat; it returns 0 to go
 * on, 1 to stop, 2 not to enter the directory it was given.
 */
typedef int (*nfy__fdwalk_fn)(void *ctx, int dirfd, const char *name,
                              const char *rel, const struct stat *st);
nfy_status nfy__runcache_fdwalk(int dirfd, nfy__fdwalk_fn fn, void *ctx);

/* SHA-256 of an open file's bytes from its offset on, streamed. */
nfy_status nfy__runcache_hash_fd(int fd, uint8_t digest[NFY_SHA256_BYTES]);

/*
 * Hash opts' identity (project: the real path it is keyed under) and every
 * file below walk_root (the project, or its snapshot) into key; the
 * per-file lines go to manifest ("hex<TAB>rel\n"). FIFOs, sockets and
 * devices are no part of it (never copied).
 */
nfy_status nfy__runcache_key(const nfy_runcache_opts *opts,
                             const char *walk_root, const char *project,
                             char key[NFY_SHA256_HEX], nfy_buf *manifest,
                             nfy_diags *diags);

/*
 * Copy project (walked as convert walks it, .git and __pycache__ and skip
 * left out) into the new directory dst: the bytes converted are then
 * exactly the bytes hashed, whatever happens to the project meanwhile.
 * FIFOs, sockets and devices are named with a warning and left out.
 */
nfy_status nfy__runcache_snapshot(const char *project, const char *skip,
                                  const char *dst, nfy_diags *diags);

/*
 * Make each symbolic link of the converted tree (treefd) point where
 * Python running the project would land: a link that resolves inside the
 * project (real path) to the converted copy there (a relative link), one
 * that resolves outside to that real file (absolute). Dangling links stay.
 */
nfy_status nfy__runcache_fix_links(int treefd, const char *project,
                                   nfy_diags *diags);

/*
 * The manifest of a converted tree (tree.tsv): one line per entry, in walk
 * order, with kind, size, mtime, ctime, inode and SHA-256 (of a link: of
 * its target). Files and directories are made writable by the owner only
 * first. __pycache__ is not listed.
 */
nfy_status nfy__runcache_tree_record(int treefd, nfy_buf *out);

typedef enum {
    NFY__TREE_INTACT, /* every listed entry is as built */
    NFY__TREE_CHANGED /* *what: the first entry changed, gone or replaced */
} nfy__tree_state;

/*
 * Check the tree against its manifest, no link followed: size, mtime,
 * ctime and inode first, the SHA-256 where those changed. Entries added
 * since (a script's outputs, __pycache__) are not part of it. NFY_EACCES
 * with a diagnostic for an entry not owned by the user or writable by
 * others (tree_path names it).
 */
nfy_status nfy__runcache_tree_check(int treefd, nfy_str manifest,
                                    const char *tree_path, nfy_arena *a,
                                    nfy__tree_state *state, const char **what,
                                    nfy_diags *diags);

#endif
