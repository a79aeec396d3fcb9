/* Private helpers of the run cache. */
#ifndef NPUIFY_RUNCACHE_INTERNAL_H
#define NPUIFY_RUNCACHE_INTERNAL_H

#include "runcache/runcache.h"

/* rm -r path (links are removed, not followed); absent is fine. */
nfy_status nfy__runcache_rmtree(const char *path);

/* SHA-256 of a file's bytes, streamed. */
nfy_status nfy__runcache_hash_file(const char *path,
                                   uint8_t digest[NFY_SHA256_BYTES]);

/*
 * Hash opts' identity and every file of the project (see runcache.h) into
 * key; the per-file lines go to manifest ("hex<TAB>rel\n").
 */
nfy_status nfy__runcache_key(const nfy_runcache_opts *opts, const char *project,
                             char key[NFY_SHA256_HEX], nfy_buf *manifest,
                             nfy_diags *diags);

#endif
