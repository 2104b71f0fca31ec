/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pair_ahead.c - rooted collectives whose writers run far ahead of the
 * reader: NCALL back-to-back calls of BLOCK-byte blocks (beyond a flow
 * cell: at two ranks these go by point-to-point messages), the reader
 * asleep outside MPI while the writers fill the rings; every result is
 * checked. Bcast and scatter: the root runs ahead; gather and reduce: the
 * other ranks do.
 *
 * At two ranks on shared memory the reader's blocking receives take from
 * the ring only what each call needs (xb_am_yield, method.h): the MPI_T
 * counter pt2pt_unexpected_arrived must not move while it reads (checked
 * when the shm method carried messages meanwhile). Not for scatter and
 * reduce: beyond a cell their writer announces its message in its cell's
 * header word (pair_cell.c), and the reader's wait for that header runs
 * progress, which may take the message before its receive is posted (a
 * copy more; seen in 3 of 10 runs under AddressSanitizer, 2026-12-06).
 */
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "ctest.h"
#include "ct_pvar.h"

enum { NCALL = 200, BLOCK = 4096, N = BLOCK / 4 };

static MPI_T_pvar_session ses;
static MPI_T_pvar_handle h_unexp = MPI_T_PVAR_HANDLE_NULL, h_shm = MPI_T_PVAR_HANDLE_NULL;

static uint32_t val(int call, int rank, int k)
{
    return (uint32_t)(call * 2654435761u) ^ (uint32_t)(rank * 40503 + k * 7);
}

static void nap(void)
{
    struct timespec ts = { 0, 30000000 };
    nanosleep(&ts, NULL);
}

static uint32_t buf[NCALL][N];
static uint32_t *all;                    /* ct_size blocks */

/* The reader (reader_is_root: the root reads) sleeps first; the counters
 * around its calls. */
static void run(const char *what, int root, bool reader_is_root, bool check_unexpected,
                void (*call)(int c, int root))
{
    bool reader = (ct_rank == root) == reader_is_root;
    MPI_Barrier(MPI_COMM_WORLD);
    unsigned long long u0 = 0, s0 = 0;
    if (reader) {
        nap();
        u0 = ct_pvar_read(ses, h_unexp);
        s0 = ct_pvar_read(ses, h_shm);
    }
    for (int c = 0; c < NCALL; c++)
        call(c, root);
    if (reader && ct_size == 2 && check_unexpected) {
        unsigned long long du = ct_pvar_read(ses, h_unexp) - u0;
        unsigned long long ds = ct_pvar_read(ses, h_shm) - s0;
        CHECK(ds == 0 || du == 0, "%s root %d: %llu of %d messages went through the "
              "unexpected queue though the reader waited for each", what, root, du, NCALL);
    }
}

static void bcast(int c, int root)
{
    for (int k = 0; k < N; k++)
        buf[c][k] = ct_rank == root ? val(c, root, k) : 0;
    CHECK_RC(MPI_Bcast(buf[c], N, MPI_UINT32_T, root, MPI_COMM_WORLD));
    for (int k = 0; k < N; k++)
        if (buf[c][k] != val(c, root, k)) {
            CHECK(0, "bcast call %d root %d: [%d] = %u, want %u", c, root, k, buf[c][k],
                  val(c, root, k));
            break;
        }
}

static void gather(int c, int root)
{
    for (int k = 0; k < N; k++)
        buf[c][k] = val(c, ct_rank, k);
    CHECK_RC(MPI_Gather(buf[c], N, MPI_UINT32_T, all, N, MPI_UINT32_T, root,
                        MPI_COMM_WORLD));
    for (int r = 0; ct_rank == root && r < ct_size; r++)
        for (int k = 0; k < N; k++)
            if (all[r * N + k] != val(c, r, k)) {
                CHECK(0, "gather call %d root %d: block %d [%d] = %u, want %u", c, root, r,
                      k, all[r * N + k], val(c, r, k));
                break;
            }
}

static void scatter(int c, int root)
{
    for (int r = 0; ct_rank == root && r < ct_size; r++)
        for (int k = 0; k < N; k++)
            all[r * N + k] = val(c, r, k);
    memset(buf[c], 0, sizeof buf[c]);
    CHECK_RC(MPI_Scatter(all, N, MPI_UINT32_T, buf[c], N, MPI_UINT32_T, root,
                         MPI_COMM_WORLD));
    for (int k = 0; k < N; k++)
        if (buf[c][k] != val(c, ct_rank, k)) {
            CHECK(0, "scatter call %d root %d: [%d] = %u, want %u", c, root, k, buf[c][k],
                  val(c, ct_rank, k));
            break;
        }
}

static void reduce(int c, int root)
{
    static uint32_t out[N];
    for (int k = 0; k < N; k++)
        buf[c][k] = val(c, ct_rank, k) & 0xffffu;
    CHECK_RC(MPI_Reduce(buf[c], out, N, MPI_UINT32_T, MPI_SUM, root, MPI_COMM_WORLD));
    for (int k = 0; ct_rank == root && k < N; k++) {
        uint32_t want = 0;
        for (int r = 0; r < ct_size; r++)
            want += val(c, r, k) & 0xffffu;
        if (out[k] != want) {
            CHECK(0, "reduce call %d root %d: [%d] = %u, want %u", c, root, k, out[k], want);
            break;
        }
    }
}

int main(int argc, char **argv)
{
    int provided;
    ct_init(&argc, &argv);
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    CHECK_RC(MPI_T_pvar_session_create(&ses));
    h_unexp = ct_pvar_counter(ses, "pt2pt_unexpected_arrived");
    h_shm = ct_pvar_counter(ses, "method_shm_am_received");
    all = malloc((size_t)ct_size * BLOCK);
    for (int root = 0; root < 2 && root < ct_size; root++) {
        run("bcast", root, false, true, bcast);
        run("scatter", root, false, false, scatter);
        run("gather", root, true, true, gather);
        run("reduce", root, true, false, reduce);
    }
    free(all);
    if (h_unexp != MPI_T_PVAR_HANDLE_NULL)
        CHECK_RC(MPI_T_pvar_handle_free(ses, &h_unexp));
    if (h_shm != MPI_T_PVAR_HANDLE_NULL)
        CHECK_RC(MPI_T_pvar_handle_free(ses, &h_shm));
    CHECK_RC(MPI_T_pvar_session_free(&ses));
    MPI_T_finalize();
    return ct_finish();
}
