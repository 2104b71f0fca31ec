/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * cvar.c - control variables read and written.
 *
 * The testlist sets XB_SHM_EAGER_MAX=8k, XB_TCP_EAGER_MAX=40000 and
 * XB_SPIN_US=77 in the environment: MPI_T reads those values (before and
 * after MPI_Init). A cvar read once at init (XB_SPIN_US) refuses a write
 * (MPI_T_ERR_CVAR_SET_NEVER); a live one takes the write: with the eager
 * limits written down to 1k, a 4 KiB message that went eagerly goes by
 * rendezvous (the pvars pt2pt_eager_sent / pt2pt_rendezvous_sent move by
 * exactly one). A collective forcing cvar takes an algorithm's name,
 * refuses a name that is none (and keeps its value), and the collective
 * still computes the right result.
 */
#include "mpit_util.h"

enum { MSG = 4096 };

static unsigned long long read_size(const char *name)
{
    unsigned long long v = 0;
    int count = 0;
    MPI_T_cvar_handle h = cvar_handle(name, &count);
    if (h != MPI_T_CVAR_HANDLE_NULL) {
        CHECK_RC(MPI_T_cvar_read(h, &v));
        CHECK_RC(MPI_T_cvar_handle_free(&h));
    }
    return v;
}

static void write_size(const char *name, unsigned long long v)
{
    int count = 0;
    MPI_T_cvar_handle h = cvar_handle(name, &count);
    if (h != MPI_T_CVAR_HANDLE_NULL) {
        CHECK_RC(MPI_T_cvar_write(h, &v));
        CHECK_RC(MPI_T_cvar_handle_free(&h));
    }
}

static void check_env_values(const char *when)
{
    CHECK(read_size("XB_SHM_EAGER_MAX") == 8192, "%s: XB_SHM_EAGER_MAX reads %llu", when,
          read_size("XB_SHM_EAGER_MAX"));
    CHECK(read_size("XB_TCP_EAGER_MAX") == 40000, "%s: XB_TCP_EAGER_MAX reads %llu", when,
          read_size("XB_TCP_EAGER_MAX"));
    int count = 0, v = 0;
    MPI_T_cvar_handle h = cvar_handle("XB_SPIN_US", &count);
    CHECK_RC(MPI_T_cvar_read(h, &v));
    CHECK(v == 77, "%s: XB_SPIN_US reads %d", when, v);
    int scope = 0;
    CHECK_RC(MPI_T_cvar_get_info(cvar_index("XB_SPIN_US"), NULL, NULL, NULL, NULL,
                                 NULL, NULL, NULL, NULL, &scope));
    CHECK(scope == MPI_T_SCOPE_CONSTANT, "XB_SPIN_US scope %d", scope);
    v = 5;
    CHECK_T(MPI_T_cvar_write(h, &v), MPI_T_ERR_CVAR_SET_NEVER);
    CHECK_RC(MPI_T_cvar_read(h, &v));
    CHECK(v == 77, "%s: XB_SPIN_US reads %d after a refused write", when, v);
    CHECK_RC(MPI_T_cvar_handle_free(&h));
}

/* Rank 0 sends one MSG-byte message to the last rank (itself with one
 * rank); returns how the protocol counters moved: eager*1 + rndv*100. */
static int send_one(MPI_T_pvar_session s, MPI_T_pvar_handle eager, MPI_T_pvar_handle rndv)
{
    static char buf[MSG];
    int peer = ct_size - 1, moved = 0;
    CHECK_RC(MPI_T_pvar_reset(s, MPI_T_PVAR_ALL_HANDLES));
    if (ct_rank == 0) {
        MPI_Request r;
        MPI_Isend(buf, MSG, MPI_CHAR, peer, 5, MPI_COMM_WORLD, &r);
        if (peer == 0)
            MPI_Recv(buf, MSG, MPI_CHAR, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        moved = (int)(read_pvar(s, eager) + 100 * read_pvar(s, rndv));
    } else if (ct_rank == peer) {
        MPI_Recv(buf, MSG, MPI_CHAR, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return moved;
}

static void check_eager_write(void)
{
    MPI_T_pvar_session s;
    MPI_T_pvar_handle eager, rndv;
    int count;
    CHECK_RC(MPI_T_pvar_session_create(&s));
    CHECK_RC(MPI_T_pvar_handle_alloc(s, pvar_index("pt2pt_eager_sent",
             MPI_T_PVAR_CLASS_COUNTER), NULL, &eager, &count));
    CHECK_RC(MPI_T_pvar_handle_alloc(s, pvar_index("pt2pt_rendezvous_sent",
             MPI_T_PVAR_CLASS_COUNTER), NULL, &rndv, &count));
    CHECK_RC(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES));
    int moved = send_one(s, eager, rndv);
    CHECK(ct_rank != 0 || moved == 1, "before the write: %d (want 1: eager)", moved);
    write_size("XB_SHM_EAGER_MAX", 1024);
    write_size("XB_TCP_EAGER_MAX", 1024);
    write_size("XB_SELF_EAGER_MAX", 1024);
    CHECK(read_size("XB_SHM_EAGER_MAX") == 1024, "XB_SHM_EAGER_MAX not written");
    MPI_Barrier(MPI_COMM_WORLD);
    moved = send_one(s, eager, rndv);
    CHECK(ct_rank != 0 || moved == 100, "after the write: %d (want 100: rendezvous)", moved);
    write_size("XB_SHM_EAGER_MAX", 8192);
    write_size("XB_TCP_EAGER_MAX", 40000);
    write_size("XB_SELF_EAGER_MAX", 65536);
    MPI_Barrier(MPI_COMM_WORLD);
    moved = send_one(s, eager, rndv);
    CHECK(ct_rank != 0 || moved == 1, "after writing back: %d (want 1: eager)", moved);
    CHECK_RC(MPI_T_pvar_session_free(&s));
}

static void check_coll_write(void)
{
    int count = 0, scope = 0;
    char val[512];
    MPI_T_cvar_handle h = cvar_handle("XB_COLL_ALLREDUCE", &count);
    CHECK(count >= 64, "string count %d", count);
    CHECK_RC(MPI_T_cvar_get_info(cvar_index("XB_COLL_ALLREDUCE"), NULL, NULL, NULL, NULL,
                                 NULL, NULL, NULL, NULL, &scope));
    CHECK(scope == MPI_T_SCOPE_ALL_EQ, "XB_COLL_ALLREDUCE scope %d", scope);
    CHECK_T(MPI_T_cvar_write(h, "no_such_algorithm"), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_cvar_read(h, val));
    CHECK(strcmp(val, "") == 0, "after a refused write: '%s'", val);
    const char *algos[] = { "reduce_bcast", "recdbl", "ring", "" };
    for (int a = 0; a < 4; a++) {
        CHECK_RC(MPI_T_cvar_write(h, algos[a]));
        CHECK_RC(MPI_T_cvar_read(h, val));
        CHECK(strcmp(val, algos[a]) == 0, "read '%s' after writing '%s'", val, algos[a]);
        int in[3] = { ct_rank, 1, -ct_rank }, out[3] = { 0, 0, 0 };
        MPI_Allreduce(in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int want = ct_size * (ct_size - 1) / 2;
        CHECK(out[0] == want && out[1] == ct_size && out[2] == -want,
              "allreduce with '%s': %d %d %d", algos[a], out[0], out[1], out[2]);
    }
    CHECK_RC(MPI_T_cvar_handle_free(&h));
}

int main(int argc, char **argv)
{
    int provided;
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    check_env_values("before MPI_Init");
    ct_init(&argc, &argv);
    check_env_values("after MPI_Init");
    check_eager_write();
    check_coll_write();
    CHECK_RC(MPI_T_finalize());
    return ct_finish();
}
