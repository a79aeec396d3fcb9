/* Internal to src/resolve: the passes of nfy_resolve beyond the scope walk. */
#ifndef NPUIFY_RESOLVE_INTERNAL_H
#define NPUIFY_RESOLVE_INTERNAL_H

#include "resolve/resolve.h"

/*
 * Instance attributes that hold a module: after `self.torch = torch` in a
 * method, `self.torch.cuda.X` anywhere in the class's methods resolves to
 * torch.cuda.X (kind ALIAS, binding the `self` parameter, head_parts the
 * qualified name's component count minus one, so that component
 * head_parts + i is still the (i + 1)-th name of the chain). Only
 * attributes that every assignment in the class sets to the same resolved
 * name (or None) count. Runs after every use has been resolved.
 */
void nfy__resolve_self_attrs(nfy_resolution *r, nfy_arena *arena);

#endif
