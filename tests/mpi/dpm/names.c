/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * names.c - MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name inside
 * one job (the scope is the job's mpiexec): the last rank opens a port and
 * publishes it under a service name; every rank looks it up (after a
 * barrier) and gets the same name; rank 0 connects (MPI_COMM_SELF) and the
 * publisher accepts, they exchange a message. Errors with
 * MPI_ERRORS_RETURN: lookup of an unknown service (MPI_ERR_NAME), a second
 * publish of the same name (MPI_ERR_SERVICE), unpublish of an unknown
 * service or with another port (MPI_ERR_SERVICE), after unpublish the lookup
 * fails again. One rank: the publisher connects to itself is not possible,
 * so only the name calls run.
 */
#include "ctest.h"

static void expect_class(int rc, int cls, const char *what)
{
    int c = rc == MPI_SUCCESS ? MPI_SUCCESS : -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &c);
    CHECK(c == cls, "%s: class %d, expected %d", what, c, cls);
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    char svc[64], port[MPI_MAX_PORT_NAME] = "", found[MPI_MAX_PORT_NAME] = "";
    snprintf(svc, sizeof(svc), "xb-test-names-%d", ct_size);
    int pub = ct_size - 1;
    expect_class(MPI_Lookup_name("xb-no-such-service", MPI_INFO_NULL, found),
                 MPI_ERR_NAME, "lookup of an unknown service");
    if (ct_rank == pub) {
        CHECK_RC(MPI_Open_port(MPI_INFO_NULL, port));
        CHECK_RC(MPI_Publish_name(svc, MPI_INFO_NULL, port));
        expect_class(MPI_Publish_name(svc, MPI_INFO_NULL, port), MPI_ERR_SERVICE,
                     "second publish");
        expect_class(MPI_Unpublish_name("xb-no-such-service", MPI_INFO_NULL, port),
                     MPI_ERR_SERVICE, "unpublish of an unknown service");
        expect_class(MPI_Unpublish_name(svc, MPI_INFO_NULL, "xbport:1:0:1.2.3.4:5"),
                     MPI_ERR_SERVICE, "unpublish with another port");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_RC(MPI_Lookup_name(svc, MPI_INFO_NULL, found));
    if (ct_rank == pub)
        CHECK(strcmp(found, port) == 0, "lookup gave '%s', published '%s'", found, port);
    if (ct_size > 1 && (ct_rank == 0 || ct_rank == pub)) {
        MPI_Comm ic;
        int v = ct_rank, got = -1;
        if (ct_rank == 0)
            CHECK_RC(MPI_Comm_connect(found, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
        else
            CHECK_RC(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &ic));
        MPI_Sendrecv(&v, 1, MPI_INT, 0, 0, &got, 1, MPI_INT, 0, 0, ic, MPI_STATUS_IGNORE);
        CHECK(got == (ct_rank == 0 ? pub : 0), "got %d", got);
        MPI_Comm_disconnect(&ic);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (ct_rank == pub) {
        CHECK_RC(MPI_Unpublish_name(svc, MPI_INFO_NULL, port));
        CHECK_RC(MPI_Close_port(port));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    expect_class(MPI_Lookup_name(svc, MPI_INFO_NULL, found), MPI_ERR_NAME,
                 "lookup after unpublish");
    return ct_finish();
}
