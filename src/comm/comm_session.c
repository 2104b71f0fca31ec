/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * comm_session.c - MPI_Comm_create_from_group: a communicator from a group
 * alone (the sessions model: no parent communicator). Collective over the
 * group's members; the context id is agreed on the bootstrap communicator
 * with a tag derived from the string tag, so concurrent calls on
 * overlapping groups with different string tags do not mix (two string
 * tags with the same 30-bit hash used at once on overlapping groups
 * would: FNV-1a makes that unlikely).
 */
#include "comm/comm_int.h"
#include "core/errhandler.h"
#include "xb_impl.h"

int xb_impl_comm_create_from_group(xb_group_t *group, const char *stringtag,
                                   xb_info_t *info, xb_errhandler_t *errhandler,
                                   MPI_Comm *newcomm)
{
    if (group->rank == MPI_UNDEFINED)
        return xb_err_set(XB_ERR_GROUP, "invalid argument group: the calling "
                          "process is not a member");
    if (errhandler != NULL && errhandler->obj != XB_ERRH_OBJ_ANY &&
        errhandler->obj != XB_ERRH_OBJ_COMM)
        return xb_err_set(XB_ERR_ARG, "invalid argument errhandler: it was not "
                          "made for communicators");
    uint32_t ctx;
    int rc = xb_comm_ctx_agree_group(group, xb_comm_stringtag_hash(stringtag), &ctx);
    if (rc != XB_OK)
        return rc;
    xb_comm_t *c = xb_comm_new(group, ctx, NULL);
    if (c == NULL)
        return XB_ERR_NO_MEM;
    if (errhandler != NULL) {
        xb_errhandler_retain(errhandler);
        xb_errhandler_release(c->errh);
        c->errh = errhandler;
    }
    c->session_bbuf = xb_bbuf_retain(group->session_bbuf);
    rc = xb_comm_finish(c, NULL, false, false, info, false);
    if (rc == XB_OK)
        *newcomm = xb_comm_to_handle(c);
    return rc;
}
