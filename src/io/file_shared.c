/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_shared.c - the shared file pointer: its server, and
 * MPI_File_read/write_shared, iread/iwrite_shared, read/write_ordered,
 * seek_shared, get_position_shared.
 *
 * The pointer (in etypes of the view) lives in the memory of rank 0 of the
 * file's private communicator. Other ranks fetch-and-add it with a message
 * {op, value, reply tag} to rank 0 and a reply {old value} on a tag of
 * their own (unique per call in the process, so threads never take each
 * other's replies). Rank 0 keeps one receive posted (ANY_SOURCE) and serves
 * it from a progress hook, so a request is answered whenever rank 0 is
 * inside any MPI call that makes progress; rank 0's own operations touch the
 * value directly. Nothing lives outside the processes: a crash leaves no
 * residue, and it works for ranks on any hosts that share the file.
 */
#include <stdlib.h>
#include "io/io.h"
#include "coll/coll.h"
#include "pt2pt/pt2pt.h"
#include "xb_impl.h"

enum { SP_ADD = 1, SP_SET = 2 };
enum { SP_TAG_REQ = 1, SP_TAG_REPLY0 = 16 };   /* reply tags: 16 .. 2^30-1 */

static xb_file_t *servers;       /* rank 0 of their files: open servers    */
static int nservers;             /* arms the progress hook                 */
static bool hook_added;
static uint32_t reply_seq;

static xb_datatype_t *i64(void)
{
    return xb_dt_from_handle(MPI_INT64_T);
}

static int post(xb_file_t *fh)
{
    return xb_pt2pt_irecv(fh->sp_msg, 3, i64(), MPI_ANY_SOURCE, SP_TAG_REQ,
                          fh->comm, 0, &fh->sp_req);
}

static void free_extra(xb_request_t *r)
{
    free(r->extra);
}

/* Send value to rank src on tag (no request kept: the reply frees itself). */
static int reply(xb_file_t *fh, int src, int tag, int64_t value)
{
    int rc = xb_pt2pt_send_eager_now(&value, 1, i64(), src, tag, fh->comm, 0);
    if (rc != XB_ERR_AGAIN)
        return rc;
    int64_t *box = malloc(sizeof(*box));
    xb_request_t *r = box != NULL ? xb_request_alloc(XB_REQ_SEND) : NULL;
    if (r == NULL) {
        free(box);
        return xb_err_set(XB_ERR_NO_MEM, "no memory to answer a shared file "
                          "pointer request");
    }
    *box = value;
    r->buf = box;
    r->count = 1;
    r->dt = i64();
    r->comm = fh->comm;
    xb_comm_retain(r->comm);
    r->peer = src;
    r->tag = tag;
    r->ctx = fh->comm->ctx;
    r->mode = XB_MODE_STANDARD;
    r->flags = XB_REQ_F_AUTOFREE | XB_REQ_F_INTERNAL;
    r->extra = box;
    r->on_complete = free_extra;
    rc = xb_pt2pt_start(r);
    if (rc < 0) {
        free(box);
        xb_request_free(r);
    }
    return rc;
}

static int64_t apply(xb_file_t *fh, int64_t op, int64_t value)
{
    int64_t old = fh->sp_value;
    if (op == SP_ADD)
        fh->sp_value += value;
    else
        fh->sp_value = value;
    return old;
}

/* The progress hook: answer every request that has arrived. */
static int serve_hook(xb_progress_t *pc)
{
    (void)pc;
    int n = 0;
    for (xb_file_t *fh = servers; fh != NULL; fh = fh->sp_next) {
        while (fh->sp_req != NULL && xb_request_is_done(fh->sp_req)) {
            int src = fh->sp_req->status.source;
            xb_request_release(fh->sp_req);
            fh->sp_req = NULL;
            int64_t old = apply(fh, fh->sp_msg[0], fh->sp_msg[1]);
            (void)reply(fh, src, (int)fh->sp_msg[2], old);
            (void)post(fh);
            n++;
        }
    }
    return n;
}

int xb_io_shared_open(xb_file_t *fh)
{
    fh->sp_value = 0;
    if (fh->comm->rank != 0)
        return XB_OK;
    if (!hook_added) {
        int rc = xb_progress_hook_add(serve_hook, &nservers);
        if (rc != XB_OK)
            return rc;
        hook_added = true;
    }
    int rc = post(fh);
    if (rc != XB_OK)
        return rc;
    fh->sp_next = servers;
    servers = fh;
    nservers++;
    return XB_OK;
}

void xb_io_shared_close(xb_file_t *fh)
{
    if (fh->sp_req == NULL)
        return;
    for (xb_file_t **p = &servers; *p != NULL; p = &(*p)->sp_next)
        if (*p == fh) {
            *p = fh->sp_next;
            nservers--;
            break;
        }
    (void)xb_pt2pt_cancel(fh->sp_req);
    (void)xb_request_wait(fh->sp_req, NULL);
    xb_request_release(fh->sp_req);
    fh->sp_req = NULL;
}

/* MPI_Finalize (after every file is closed): the hook is gone with the
 * progress context. */
void xb_io_shared_fini(void)
{
    hook_added = false;
}

static int remote(xb_file_t *fh, int64_t op, int64_t value, int64_t *old_p)
{
    int tag = SP_TAG_REPLY0 + (int)(reply_seq++ % (uint32_t)((1 << 30) - SP_TAG_REPLY0));
    int64_t msg[3] = { op, value, tag };
    xb_request_t *r;
    int rc = xb_pt2pt_irecv(old_p, 1, i64(), 0, tag, fh->comm, 0, &r);
    if (rc != XB_OK)
        return rc;
    rc = xb_pt2pt_send(msg, 3, i64(), 0, SP_TAG_REQ, fh->comm, 0);
    if (rc != XB_OK) {
        (void)xb_pt2pt_cancel(r);
    }
    int wrc = xb_request_wait(r, NULL);
    xb_request_release(r);
    return rc != XB_OK ? rc : wrc;
}

int xb_io_shared_fetch_add(xb_file_t *fh, int64_t add, int64_t *old_p)
{
    if (fh->comm->rank == 0) {
        *old_p = apply(fh, SP_ADD, add);
        return XB_OK;
    }
    return remote(fh, SP_ADD, add, old_p);
}
