/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * session.c - the sessions model without MPI_Init: Session_init, the
 * process sets (count, names with the length query, mpi_size in their
 * info), Group_from_session_pset for mpi://WORLD and mpi://SELF,
 * Comm_create_from_group used for a collective and point-to-point, a
 * session errhandler that is called by Session_call_errhandler and by a
 * failing call on the session (unknown pset), two sessions at once, and
 * Session_finalize. Errors are counted locally and summed over the
 * communicator made from mpi://WORLD.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi.h"

static int errors, handler_calls, last_code;

#define CHECK(c, ...) do { if (!(c)) { errors++; printf("FAIL %d: ", __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static void on_error(MPI_Session *s, int *code, ...)
{
    (void)s;
    handler_calls++;
    last_code = *code;
}

int main(void)
{
    MPI_Session s, s2;
    MPI_Errhandler eh;
    MPI_Session_create_errhandler(on_error, &eh);
    CHECK(MPI_Session_init(MPI_INFO_NULL, eh, &s) == MPI_SUCCESS, "session_init");
    int n = 0;
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    CHECK(n >= 2, "num_psets %d", n);
    int found_world = 0, found_self = 0;
    for (int i = 0; i < n; i++) {
        int len = 0;
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL);
        char *name = malloc((size_t)len);
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
        CHECK((int)strlen(name) + 1 == len, "pset %d length %d for %s", i, len, name);
        found_world += strcmp(name, "mpi://WORLD") == 0;
        found_self += strcmp(name, "mpi://SELF") == 0;
        free(name);
    }
    CHECK(found_world == 1 && found_self == 1, "psets world %d self %d", found_world,
          found_self);

    MPI_Group wg, sg;
    CHECK(MPI_Group_from_session_pset(s, "mpi://WORLD", &wg) == MPI_SUCCESS, "world group");
    MPI_Group_from_session_pset(s, "mpi://SELF", &sg);
    int wsize, wrank, ssize;
    MPI_Group_size(wg, &wsize);
    MPI_Group_rank(wg, &wrank);
    MPI_Group_size(sg, &ssize);
    CHECK(ssize == 1, "self group size %d", ssize);
    MPI_Info pinfo;
    MPI_Session_get_pset_info(s, "mpi://WORLD", &pinfo);
    char v[32];
    int flag = 0;
    MPI_Info_get(pinfo, "mpi_size", 31, v, &flag);
    CHECK(flag && atoi(v) == wsize, "mpi_size %s", flag ? v : "-");
    MPI_Info_free(&pinfo);

    MPI_Comm c;
    CHECK(MPI_Comm_create_from_group(wg, "crossbar.session.test", MPI_INFO_NULL,
                                     MPI_ERRORS_RETURN, &c) == MPI_SUCCESS, "from_group");
    int size, rank;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &rank);
    CHECK(size == wsize && rank == wrank, "comm %d/%d", rank, size);
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == size * (size - 1) / 2, "allreduce %d", sum);
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 0, c, MPI_STATUS_IGNORE);
    CHECK(got == (rank + size - 1) % size, "ring %d", got);

    /* second session, its own communicator from SELF */
    CHECK(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2) == MPI_SUCCESS, "second");
    MPI_Group sg2;
    MPI_Comm cs;
    MPI_Group_from_session_pset(s2, "mpi://SELF", &sg2);
    CHECK(MPI_Comm_create_from_group(sg2, "self", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                     &cs) == MPI_SUCCESS, "self comm");
    MPI_Comm_size(cs, &ssize);
    CHECK(ssize == 1, "self comm size %d", ssize);
    MPI_Comm_free(&cs);
    MPI_Group_free(&sg2);

    /* errhandlers */
    MPI_Session_call_errhandler(s, MPI_ERR_OTHER);
    CHECK(handler_calls == 1 && last_code == MPI_ERR_OTHER, "call_errhandler %d",
          handler_calls);
    MPI_Group bad;
    int rc = MPI_Group_from_session_pset(s, "mpi://NOPE", &bad);
    CHECK(rc != MPI_SUCCESS && handler_calls == 2, "failing call: rc %d calls %d", rc,
          handler_calls);
    int cls = -1;
    MPI_Error_class(last_code, &cls);
    CHECK(cls == MPI_ERR_ARG, "failing call class %d", cls);
    MPI_Errhandler got_eh;
    MPI_Session_get_errhandler(s, &got_eh);
    CHECK(got_eh == eh, "get_errhandler");
    MPI_Errhandler_free(&got_eh);
    rc = MPI_Comm_set_errhandler(c, eh);
    CHECK(rc != MPI_SUCCESS, "session errhandler accepted on a communicator");

    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, c);
    if (rank == 0)
        printf(total == 0 ? "No Errors\n" : "Found %d errors\n", total);
    MPI_Comm_free(&c);
    MPI_Group_free(&wg);
    MPI_Group_free(&sg);
    MPI_Errhandler_free(&eh);
    MPI_Session_finalize(&s2);
    CHECK(MPI_Session_finalize(&s) == MPI_SUCCESS, "finalize");
    return total != 0;
}
