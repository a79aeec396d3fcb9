/* Status codes: names and texts generated from the NFY_STATUS_MAP X-macro. */
#include <errno.h>

#include "npuify/core.h"

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
    case ENOTDIR:
        return NFY_ENOENT;
    case EEXIST:
        return NFY_EEXIST;
    case EFBIG:
    case ENAMETOOLONG:
        return NFY_ELIMIT;
    default:
        return NFY_EIO;
    }
}
