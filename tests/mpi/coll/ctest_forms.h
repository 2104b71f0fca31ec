/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * ctest_forms.h - run one collective in its blocking, nonblocking or
 * persistent form (header only). FORM(form, Blocking(args), I(args),
 * Init(args)) calls the form's function; the nonblocking one is waited
 * for with MPI_Wait, the persistent one is started `ct_starts` times
 * (each start completes before the next) and then freed.
 */
#ifndef CTEST_FORMS_H
#define CTEST_FORMS_H

#include "ctest.h"

enum { CT_BLOCKING, CT_NONBLOCKING, CT_PERSISTENT, CT_NFORMS };
static const char *const ct_form_names[CT_NFORMS] = {
    "blocking", "nonblocking", "persistent",
};
static int ct_starts = 2;

static inline int ct_complete(int form, int rc, MPI_Request *req)
{
    if (rc != MPI_SUCCESS || form == CT_BLOCKING)
        return rc;
    if (form == CT_NONBLOCKING) {
        rc = MPI_Wait(req, MPI_STATUS_IGNORE);
        CHECK(*req == MPI_REQUEST_NULL, "request not freed by MPI_Wait");
        return rc;
    }
    for (int k = 0; k < ct_starts && rc == MPI_SUCCESS; k++) {
        rc = MPI_Start(req);
        if (rc == MPI_SUCCESS)
            rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    }
    CHECK(*req != MPI_REQUEST_NULL, "persistent request freed by MPI_Wait");
    int rc2 = MPI_Request_free(req);
    return rc != MPI_SUCCESS ? rc : rc2;
}

/* FORM(form, MPI_Bcast(b, n, t, 0, c), MPI_Ibcast(b, n, t, 0, c, &req_),
 *      MPI_Bcast_init(b, n, t, 0, c, MPI_INFO_NULL, &req_)) */
#define FORM(form, blocking, nonblocking, persistent)                        \
    __extension__({                                                          \
        MPI_Request req_ = MPI_REQUEST_NULL;                                 \
        int rc_ = (form) == CT_BLOCKING ? (blocking)                         \
                : (form) == CT_NONBLOCKING ? (nonblocking) : (persistent);   \
        ct_complete(form, rc_, &req_);                                       \
    })

#endif
