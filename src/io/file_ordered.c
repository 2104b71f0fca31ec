/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * file_ordered.c - data access with the shared file pointer: the
 * independent calls (read/write_shared and their nonblocking forms), the
 * collective ordered calls (read/write_ordered: rank r's data follows the
 * data of ranks 0..r-1), seek_shared and get_position_shared.
 * The pointer itself and its server: file_shared.c.
 */
#include <stdlib.h>
#include "io/io.h"
#include "coll/coll.h"
#include "xb_impl.h"

static int shared(xb_file_t *fh, void *buf, MPI_Count count, xb_datatype_t *dt,
                  bool write, xb_status_t *st)
{
    int64_t at;
    xb_status_set_empty(st);
    int rc = xb_io_check_count(count);
    if (rc != XB_OK)
        return rc;
    MPI_Offset n = 0;
    rc = xb_io_etypes(fh, dt, count * xb_dt_size(dt), &n);
    if (rc == XB_OK)
        rc = xb_io_shared_fetch_add(fh, n, &at);
    if (rc == XB_OK)
        rc = xb_io_access(fh, at, buf, count, dt, write, st);
    return rc;
}

int xb_io_ordered(xb_file_t *fh, void *buf, MPI_Count count, xb_datatype_t *dt,
                  bool write, xb_status_t *st)
{
    int p = fh->comm->size, me = fh->comm->rank;
    MPI_Offset mine = 0;
    /* a rank that fails here still takes part in the collective steps */
    int erc = xb_io_etypes(fh, dt, count * xb_dt_size(dt), &mine);
    int64_t base = 0, before = 0;
    int64_t *all = malloc((size_t)p * sizeof(*all));
    xb_status_set_empty(st);
    if (all == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for %d ranks' counts", p);
    xb_datatype_t *i64 = xb_dt_from_handle(MPI_INT64_T);
    int64_t m = erc == XB_OK ? mine : 0;
    int rc = xb_coll_allgather(&m, 1, i64, all, 1, i64, fh->comm);
    if (rc == XB_OK && me == 0) {
        int64_t total = 0;
        for (int r = 0; r < p; r++)
            total += all[r];
        rc = xb_io_shared_fetch_add(fh, total, &base);
    }
    for (int r = 0; r < me; r++)
        before += all[r];
    free(all);
    if (rc == XB_OK)
        rc = xb_coll_bcast(&base, 1, i64, 0, fh->comm);
    if (rc == XB_OK && erc != XB_OK)
        rc = erc;
    if (rc == XB_OK)
        rc = xb_io_access(fh, base + before, buf, count, dt, write, st);
    return rc;
}

static int status_rc(int rc, const xb_status_t *st, MPI_Status *status)
{
    if (rc == XB_OK)
        xb_io_status_out(st, status);
    return rc;
}

int xb_impl_file_read_shared(xb_file_t *fh, void *buf, MPI_Count count,
                             xb_datatype_t *datatype, MPI_Status *status)
{
    xb_status_t st;
    return status_rc(shared(fh, buf, count, datatype, false, &st), &st, status);
}

int xb_impl_file_write_shared(xb_file_t *fh, const void *buf, MPI_Count count,
                              xb_datatype_t *datatype, MPI_Status *status)
{
    xb_status_t st;
    return status_rc(shared(fh, (void *)buf, count, datatype, true, &st), &st, status);
}

int xb_impl_file_iread_shared(xb_file_t *fh, void *buf, MPI_Count count,
                              xb_datatype_t *datatype, MPI_Request *request)
{
    xb_status_t st;
    int rc = shared(fh, buf, count, datatype, false, &st);
    return xb_io_done_request(&st, rc, request);
}

int xb_impl_file_iwrite_shared(xb_file_t *fh, const void *buf, MPI_Count count,
                               xb_datatype_t *datatype, MPI_Request *request)
{
    xb_status_t st;
    int rc = shared(fh, (void *)buf, count, datatype, true, &st);
    return xb_io_done_request(&st, rc, request);
}

int xb_impl_file_read_ordered(xb_file_t *fh, void *buf, MPI_Count count,
                              xb_datatype_t *datatype, MPI_Status *status)
{
    xb_status_t st;
    return status_rc(xb_io_ordered(fh, buf, count, datatype, false, &st), &st, status);
}

int xb_impl_file_write_ordered(xb_file_t *fh, const void *buf, MPI_Count count,
                               xb_datatype_t *datatype, MPI_Status *status)
{
    xb_status_t st;
    return status_rc(xb_io_ordered(fh, (void *)buf, count, datatype, true, &st),
                     &st, status);
}

/* Collective: the same (offset, whence) everywhere; rank 0 moves the
 * pointer and tells the others the outcome. */
int xb_impl_file_seek_shared(xb_file_t *fh, MPI_Offset offset, int whence)
{
    int rc = xb_io_agree(fh, offset, "offsets", XB_OK);
    if (rc == XB_OK)
        rc = xb_io_agree(fh, whence, "whence values", XB_OK);
    if (rc != XB_OK)
        return rc;
    int64_t res[2] = { 0, 0 };          /* {error class, new position} */
    if (fh->comm->rank == 0) {
        MPI_Offset pos;
        int lrc = xb_io_seek_pos(fh, fh->sp_value, offset, whence, &pos);
        res[0] = lrc;
        if (lrc == XB_OK)
            fh->sp_value = res[1] = pos;
    }
    rc = xb_coll_bcast(res, 2, xb_dt_from_handle(MPI_INT64_T), 0, fh->comm);
    if (rc == XB_OK && res[0] != XB_OK && fh->comm->rank != 0)
        return xb_err_set((int)res[0], "invalid offset %lld with whence %d for the "
                          "shared file pointer (rank 0 refused it)",
                          (long long)offset, whence);
    return rc != XB_OK ? rc : (int)res[0];
}

int xb_impl_file_get_position_shared(xb_file_t *fh, MPI_Offset *offset)
{
    int64_t v;
    int rc = xb_io_shared_fetch_add(fh, 0, &v);
    if (rc == XB_OK)
        *offset = v;
    return rc;
}
