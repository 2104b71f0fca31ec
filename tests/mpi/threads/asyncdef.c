/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/* The defaults the progress thread chooses (docs/design/threads.md, "The
 * progress thread"): with XB_ASYNC_PROGRESS=1 a tunable that nobody set
 * takes the progress thread's value; one set in the environment keeps it;
 * without the thread the ordinary default stands. Read through MPI_T after
 * MPI_Init, and a 4 MiB rendezvous message checked under each setting.
 *
 *   asyncdef async   XB_ASYNC_PROGRESS=1: XB_SHM_HELP_MIN is 0 (no split
 *                    copy), XB_SPIN_US 20
 *   asyncdef user    XB_ASYNC_PROGRESS=1 XB_SHM_HELP_MIN=64k XB_SPIN_US=77:
 *                    65536 and 77
 *   asyncdef plain   no progress thread: the split copy is on (> 0) and
 *                    the spin is not the progress thread's (not 20)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

#define LEN (1 << 20)        /* ints: 4 MiB */

static int errs;

static MPI_T_cvar_handle handle_of(const char *name)
{
    int idx, count;
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS) {
        printf("no control variable %s\n", name);
        errs++;
    }
    return h;
}

/* The value of control variable `name` into *v (left as it is when the
 * variable is missing or cannot be read: an error is counted). */
static void read_cvar(const char *name, void *v)
{
    MPI_T_cvar_handle h = handle_of(name);
    if (h == MPI_T_CVAR_HANDLE_NULL)
        return;
    if (MPI_T_cvar_read(h, v) != MPI_SUCCESS) {
        printf("MPI_T_cvar_read(%s) failed\n", name);
        errs++;
    }
    MPI_T_cvar_handle_free(&h);
}

/* The message still arrives whole, whichever copy moves it. */
static void transfer(int rank, int size)
{
    int *buf = malloc(LEN * sizeof(int));
    for (int it = 0; it < 3 && size >= 2 && rank < 2; it++) {
        if (rank == 0) {
            for (int i = 0; i < LEN; i++)
                buf[i] = i * 7 + it;
            MPI_Send(buf, LEN, MPI_INT, 1, it, MPI_COMM_WORLD);
            continue;
        }
        memset(buf, 0, LEN * sizeof(int));
        MPI_Recv(buf, LEN, MPI_INT, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < LEN; i++)
            if (buf[i] != i * 7 + it) {
                printf("iter %d: buf[%d] = %d, not %d\n", it, i, buf[i], i * 7 + it);
                errs++;
                break;
            }
    }
    free(buf);
}

int main(int argc, char **argv)
{
    int rank, size, provided;
    const char *mode = argc > 1 ? argv[1] : "plain";
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int async = -1, spin = -1;
    unsigned long long help = ~0ull;
    read_cvar("XB_ASYNC_PROGRESS", &async);
    read_cvar("XB_SPIN_US", &spin);
    read_cvar("XB_SHM_HELP_MIN", &help);
    if (strcmp(mode, "async") == 0 && (async != 1 || help != 0 || spin != 20)) {
        printf("rank %d: XB_ASYNC_PROGRESS=%d XB_SHM_HELP_MIN=%llu XB_SPIN_US=%d; with "
               "the progress thread and neither set, the split copy must be off (0) "
               "and the spin 20 us\n", rank, async, help, spin);
        errs++;
    } else if (strcmp(mode, "user") == 0 && (async != 1 || help != 65536 || spin != 77)) {
        printf("rank %d: XB_ASYNC_PROGRESS=%d XB_SHM_HELP_MIN=%llu XB_SPIN_US=%d; the "
               "user's 64k and 77 must win over the progress thread's defaults\n",
               rank, async, help, spin);
        errs++;
    } else if (strcmp(mode, "plain") == 0 &&
               (async != 0 || help == 0 || help == ~0ull || spin == 20 || spin < 0)) {
        printf("rank %d: XB_ASYNC_PROGRESS=%d XB_SHM_HELP_MIN=%llu XB_SPIN_US=%d; without "
               "the progress thread the split copy stays on and the spin is the "
               "ordinary one\n", rank, async, help, spin);
        errs++;
    } else if (strcmp(mode, "async") != 0 && strcmp(mode, "user") != 0 &&
               strcmp(mode, "plain") != 0) {
        printf("unknown mode '%s' (async, user or plain)\n", mode);
        errs++;
    }
    transfer(rank, size);
    int total = 0;
    MPI_Reduce(&errs, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    MPI_T_finalize();
    if (rank == 0)
        printf(total ? " Found %d errors\n" : " No Errors\n", total);
    return errs != 0;
}
