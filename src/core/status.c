/* Status codes: names and texts generated from the NFY_STATUS_MAP X-macro. */
#include <errno.h>

#include "core/core.h"

const char *nfy_status_name(nfy_status st)
{
    switch (st) {
#define NAME_CASE(name, text)                                                  \
    case NFY_##name:                                                           \
        return #name;
        NFY_STATUS_MAP(NAME_CASE)
#undef NAME_CASE
    }
    return "UNKNOWN";
}

const char *nfy_status_str(nfy_status st)
{
    switch (st) {
#define TEXT_CASE(name, text)                                                  \
    case NFY_##name:                                                           \
        return text;
        NFY_STATUS_MAP(TEXT_CASE)
#undef TEXT_CASE
    }
    return "unknown status";
}

nfy_status nfy_status_from_errno(int err)
{
    switch (err) {
    case 0:
        return NFY_OK;
    case ENOMEM:
        return NFY_ENOMEM;
    case ENOENT:
        return NFY_ENOENT;
    case ENOTDIR:
        return NFY_ENOTDIR;
    case EISDIR:
        return NFY_EISDIR;
    case EACCES:
    case EPERM:
        return NFY_EACCES;
    case ENOSPC:
    case EDQUOT:
        return NFY_ENOSPC;
    case EROFS:
        return NFY_EROFS;
    case ELOOP:
        return NFY_ESYMLINK;
    case ENODEV:
    case ENXIO:
        return NFY_ENOTREG;
    case EBUSY:
    case ETXTBSY:
        return NFY_EBUSY;
    case EEXIST:
        return NFY_EEXIST;
    case EFBIG:
        return NFY_ELIMIT;
    case ENAMETOOLONG:
        return NFY_ENAMETOOLONG;
    default:
        return NFY_EIO;
    }
}
