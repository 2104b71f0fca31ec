/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * shared.c - the shared file pointer: every rank appends records with
 * write_shared and iwrite_shared (every record lands exactly once, none
 * overlap: checked in the plain bytes of the file), while rank 0 is busy
 * elsewhere (it serves the pointer from inside other MPI calls);
 * write_ordered and its split form (the ranks' data in rank order);
 * read_shared and read_ordered back; seek_shared, get_position_shared;
 * a view with a 16-byte etype; atomic mode with overlapping writes.
 */
#include "iotest.h"

#define NREC 40
typedef struct { int rank, seq, check, pad; } rec_t;     /* 16 bytes */

static void check_records(const char *name, long expect_recs)
{
    long len;
    rec_t *f = (rec_t *)io_slurp(name, &len);
    int *seen = calloc((size_t)ct_size * NREC, sizeof(int));
    CHECK(len == expect_recs * (long)sizeof(rec_t), "%s: size %ld", name, len);
    for (long i = 0; f != NULL && i < len / (long)sizeof(rec_t); i++) {
        rec_t r = f[i];
        if (r.rank < 0 || r.rank >= ct_size || r.seq < 0 || r.seq >= NREC ||
            r.check != r.rank * 7 + r.seq * 13) {
            CHECK(0, "%s: record %ld is garbage (%d %d %d)", name, i, r.rank, r.seq, r.check);
            break;
        }
        seen[r.rank * NREC + r.seq]++;
    }
    for (int i = 0; i < ct_size * NREC; i++)
        if (seen[i] != 1) {
            CHECK(0, "%s: record (%d,%d) seen %d times", name, i / NREC, i % NREC, seen[i]);
            break;
        }
    free(seen);
    free(f);
}

static void shared_writes(MPI_File fh)
{
    MPI_Status st;
    MPI_Request rq;
    int n;
    for (int s = 0; s < NREC; s++) {
        rec_t r = { ct_rank, s, ct_rank * 7 + s * 13, 0 };
        if (s % 2 == 0) {
            CHECK_RC(MPI_File_write_shared(fh, &r, 4, MPI_INT, &st));
        } else {
            CHECK_RC(MPI_File_iwrite_shared(fh, &r, 4, MPI_INT, &rq));
            CHECK_RC(MPI_Wait(&rq, &st));
        }
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK(n == 4, "write_shared count %d", n);
        if (ct_rank == 0 && s == 0) {
            /* rank 0 computes a while in other MPI calls: it still serves */
            int x = 0, y;
            for (int i = 0; i < 50; i++)
                MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        }
    }
    MPI_Offset pos;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_RC(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)ct_size * NREC * 16, "shared position %lld", (long long)pos);
}

static void ordered(MPI_File fh)
{
    /* rank r writes r+1 records, in rank order, twice (plain and split) */
    rec_t r[64];
    MPI_Status st;
    int n;
    for (int i = 0; i < ct_rank + 1; i++)
        r[i] = (rec_t){ ct_rank, i, ct_rank * 7 + i * 13, 0 };
    CHECK_RC(MPI_File_seek_shared(fh, 0, MPI_SEEK_END));
    MPI_Offset start;
    CHECK_RC(MPI_File_get_position_shared(fh, &start));
    CHECK_RC(MPI_File_write_ordered(fh, r, (ct_rank + 1) * 4, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == (ct_rank + 1) * 4, "write_ordered count %d", n);
    CHECK_RC(MPI_File_write_ordered_begin(fh, r, (ct_rank + 1) * 4, MPI_INT));
    CHECK_RC(MPI_File_write_ordered_end(fh, r, &st));
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    long len;
    rec_t *f = (rec_t *)io_slurp("sh", &len);
    long per = (long)ct_size * (ct_size + 1) / 2;
    CHECK(len == start + 2 * per * 16, "file size after ordered %ld", len);
    for (int pass = 0; f != NULL && pass < 2 && len == start + 2 * per * 16; pass++) {
        rec_t *o = f + start / 16 + pass * per;
        int k = 0;
        for (int rk = 0; rk < ct_size; rk++)
            for (int i = 0; i <= rk; i++, k++)
                if (o[k].rank != rk || o[k].seq != i) {
                    CHECK(0, "ordered pass %d record %d: (%d,%d), expected (%d,%d)", pass,
                          k, o[k].rank, o[k].seq, rk, i);
                    rk = ct_size;
                    break;
                }
    }
    free(f);
    /* read them back: read_ordered gives each rank its own records */
    CHECK_RC(MPI_File_seek_shared(fh, start, MPI_SEEK_SET));
    rec_t back[64];
    CHECK_RC(MPI_File_read_ordered(fh, back, (ct_rank + 1) * 4, MPI_INT, &st));
    for (int i = 0; i <= ct_rank; i++)
        CHECK(back[i].rank == ct_rank && back[i].seq == i, "read_ordered %d: (%d,%d)",
              i, back[i].rank, back[i].seq);
    CHECK_RC(MPI_File_read_ordered_begin(fh, back, (ct_rank + 1) * 4, MPI_INT));
    CHECK_RC(MPI_File_read_ordered_end(fh, back, &st));
    CHECK(back[ct_rank].rank == ct_rank, "split read_ordered (%d)", back[ct_rank].rank);
    /* read_shared: all records of the second pass, each exactly once */
    CHECK_RC(MPI_File_seek_shared(fh, start + per * 16, MPI_SEEK_SET));
    MPI_Offset pos;
    CHECK_RC(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == start + per * 16, "seek_shared %lld", (long long)pos);
    MPI_Barrier(MPI_COMM_WORLD);       /* nobody reads before all have looked */
    int got = 0, total;
    rec_t one;
    MPI_Request rq;
    for (;;) {
        CHECK_RC(MPI_File_iread_shared(fh, &one, 4, MPI_INT, &rq));
        CHECK_RC(MPI_Wait(&rq, &st));
        MPI_Get_count(&st, MPI_INT, &n);
        if (n == 0)
            break;
        CHECK(n == 4 && one.check == one.rank * 7 + one.seq * 13, "read_shared record");
        got++;
        CHECK_RC(MPI_File_read_shared(fh, &one, 4, MPI_INT, &st));
        MPI_Get_count(&st, MPI_INT, &n);
        if (n == 0)
            break;
        got++;
    }
    MPI_Allreduce(&got, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == per, "read_shared read %d records, expected %ld", total, per);
}

/* Atomic mode: ranks write overlapping ranges; each range comes out whole. */
static void atomic_mode(void)
{
    MPI_File fh;
    enum { L = 1 << 16 };
    char *buf = malloc(L);
    memset(buf, 'a' + ct_rank % 26, L);
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("at"), MPI_MODE_RDWR | MPI_MODE_CREATE |
                           MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh));
    CHECK_RC(MPI_File_set_atomicity(fh, 1));
    for (int i = 0; i < 5; i++)
        CHECK_RC(MPI_File_write_at(fh, 0, buf, L, MPI_CHAR, MPI_STATUS_IGNORE));
    CHECK_RC(MPI_File_read_at(fh, 0, buf, L, MPI_CHAR, MPI_STATUS_IGNORE));
    for (int i = 1; i < L; i++)
        if (buf[i] != buf[0]) {
            CHECK(0, "atomic write torn at byte %d", i);
            break;
        }
    CHECK_RC(MPI_File_close(&fh));
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Datatype rt;
    ct_init(&argc, &argv);
    io_setup();
    CHECK_RC(MPI_File_open(MPI_COMM_WORLD, io_path("sh"), MPI_MODE_RDWR | MPI_MODE_CREATE,
                           MPI_INFO_NULL, &fh));
    shared_writes(fh);
    CHECK_RC(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    check_records("sh", (long)ct_size * NREC);
    /* a 16-byte etype: pointers count records */
    MPI_Type_contiguous(4, MPI_INT, &rt);
    MPI_Type_commit(&rt);
    CHECK_RC(MPI_File_set_view(fh, 0, rt, rt, "native", MPI_INFO_NULL));
    MPI_Offset pos;
    CHECK_RC(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == 0, "set_view resets the shared pointer: %lld", (long long)pos);
    CHECK_RC(MPI_File_seek_shared(fh, 0, MPI_SEEK_END));
    CHECK_RC(MPI_File_get_position_shared(fh, &pos));
    CHECK(pos == (MPI_Offset)ct_size * NREC, "SEEK_END in records: %lld", (long long)pos);
    CHECK_RC(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    ordered(fh);
    CHECK_RC(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == 0)
        CHECK_RC(MPI_File_delete(io_path("sh"), MPI_INFO_NULL));
    atomic_mode();
    MPI_Type_free(&rt);
    io_teardown();
    return ct_finish();
}
