/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * errors.c - every MPI_T error path answers its class and leaves MPI_T
 * (and MPI) usable: not initialised (before MPI_T_init_thread, after the
 * last MPI_T_finalize), bad index, bad name, NULL pointers, bad and freed
 * handles, a handle used with the wrong session, a freed session, events
 * (there are none). MPI_COMM_WORLD keeps MPI_ERRORS_ARE_FATAL: MPI_T
 * errors must not invoke it (the program would end).
 */
#include "mpit_util.h"

static void not_initialized(void)
{
    int n;
    MPI_T_pvar_session s;
    CHECK_T(MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_pvar_session_create(&s), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_source_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
}

static void bad_indices(void)
{
    int ncv, npv, ncat, x;
    MPI_T_cvar_get_num(&ncv);
    MPI_T_pvar_get_num(&npv);
    MPI_T_category_get_num(&ncat);
    int bad[2][3] = { { -1, -1, -1 }, { ncv, npv, ncat } };
    for (int b = 0; b < 2; b++) {
        MPI_T_cvar_handle ch;
        CHECK_T(MPI_T_cvar_get_info(bad[b][0], NULL, NULL, NULL, NULL, NULL, NULL,
                                    NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
        CHECK_T(MPI_T_cvar_handle_alloc(bad[b][0], NULL, &ch, &x), MPI_T_ERR_INVALID_INDEX);
        CHECK_T(MPI_T_pvar_get_info(bad[b][1], NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                    NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
        CHECK_T(MPI_T_category_get_info(bad[b][2], NULL, NULL, NULL, NULL, NULL, NULL,
                                        NULL), MPI_T_ERR_INVALID_INDEX);
        CHECK_T(MPI_T_category_get_cvars(bad[b][2], 0, NULL), MPI_T_ERR_INVALID_INDEX);
        CHECK_T(MPI_T_category_get_num_events(bad[b][2], &x), MPI_T_ERR_INVALID_INDEX);
        CHECK_T(MPI_T_source_get_info(b ? 1 : -1, NULL, NULL, NULL, NULL, NULL, NULL,
                                      NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    }
    CHECK_T(MPI_T_category_get_cvars(0, -1, &x), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_get_index("XB_NO_SUCH_TUNABLE", &x), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_cvar_get_index("SHM_EAGER_MAX", &x), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_pvar_get_index("no_such_pvar", MPI_T_PVAR_CLASS_COUNTER, &x),
            MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_category_get_index("no_such_category", &x), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_cvar_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_cvar_get_index(NULL, &x), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_pvar_get_num(NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_init_thread(12345, &x), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_init_thread(MPI_THREAD_SINGLE, NULL), MPI_T_ERR_INVALID);
}

static void bad_cvar_handles(void)
{
    int count, v = 0;
    MPI_T_cvar_handle h = cvar_handle("XB_PARAM_CHECK", &count), freed;
    CHECK_T(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_read(h, NULL), MPI_T_ERR_INVALID);
    v = 2;
    CHECK_T(MPI_T_cvar_write(h, &v), MPI_T_ERR_INVALID);     /* a bool: 0 or 1 */
    CHECK_T(MPI_T_cvar_handle_alloc(0, NULL, NULL, &count), MPI_T_ERR_INVALID);
    freed = h;
    CHECK_RC(MPI_T_cvar_handle_free(&h));
    CHECK_T(MPI_T_cvar_read(freed, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_cvar_handle_free(&freed), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &v, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
}

static void bad_sessions(void)
{
    MPI_T_pvar_session a, b, freed;
    MPI_T_pvar_handle ha, hl;
    int count;
    unsigned long long v = 0;
    int ci = pvar_index("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER);
    CHECK_RC(MPI_T_pvar_session_create(&a));
    CHECK_RC(MPI_T_pvar_session_create(&b));
    CHECK_RC(MPI_T_pvar_handle_alloc(a, ci, NULL, &ha, &count));
    CHECK_RC(MPI_T_pvar_handle_alloc(a, pvar_index("pt2pt_unexpected_queue_length",
             MPI_T_PVAR_CLASS_LEVEL), NULL, &hl, &count));
    /* the wrong session */
    CHECK_T(MPI_T_pvar_read(b, ha, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_start(b, ha), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_handle_free(b, &ha), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_read(a, MPI_T_PVAR_HANDLE_NULL, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_read(a, MPI_T_PVAR_ALL_HANDLES, &v), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_read(a, ha, NULL), MPI_T_ERR_INVALID);
    CHECK_T(MPI_T_pvar_handle_alloc(a, -1, NULL, &ha, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_pvar_handle_alloc(MPI_T_PVAR_SESSION_NULL, ci, NULL, &ha, &count),
            MPI_T_ERR_INVALID_SESSION);
    /* a communicator-bound variable needs a communicator */
    MPI_T_pvar_handle hc;
    MPI_Comm nullcomm = MPI_COMM_NULL;
    int cqi = pvar_index("pt2pt_comm_posted_length", MPI_T_PVAR_CLASS_LEVEL);
    CHECK_T(MPI_T_pvar_handle_alloc(a, cqi, NULL, &hc, &count), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_pvar_handle_alloc(a, cqi, &nullcomm, &hc, &count), MPI_T_ERR_INVALID_HANDLE);
    /* class rules */
    CHECK_T(MPI_T_pvar_write(a, hl, &v), MPI_T_ERR_PVAR_NO_WRITE);
    CHECK_T(MPI_T_pvar_start(a, hl), MPI_T_ERR_PVAR_NO_STARTSTOP);
    CHECK_RC(MPI_T_pvar_start(a, MPI_T_PVAR_ALL_HANDLES));     /* skips the level */
    CHECK_RC(MPI_T_pvar_reset(a, MPI_T_PVAR_ALL_HANDLES));
    /* a freed session and its handles */
    freed = a;
    CHECK_RC(MPI_T_pvar_session_free(&a));
    CHECK(a == MPI_T_PVAR_SESSION_NULL, "session not nulled");
    CHECK_T(MPI_T_pvar_read(freed, ha, &v), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_pvar_session_free(&freed), MPI_T_ERR_INVALID_SESSION);
    CHECK_T(MPI_T_pvar_session_free(NULL), MPI_T_ERR_INVALID);
    CHECK_RC(MPI_T_pvar_session_free(&b));
}

static void no_events(void)
{
    int x;
    MPI_T_event_registration reg = NULL;
    MPI_Count ts;
    CHECK_T(MPI_T_event_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                 NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(MPI_T_event_get_index("anything", &x), MPI_T_ERR_INVALID_NAME);
    CHECK_T(MPI_T_event_handle_free(reg, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_set_dropped_handler(reg, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_event_get_timestamp(NULL, &ts), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(MPI_T_source_get_timestamp(1, &ts), MPI_T_ERR_INVALID_INDEX);
}

int main(int argc, char **argv)
{
    int provided;
    not_initialized();
    ct_init(&argc, &argv);
    not_initialized();
    CHECK_RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    bad_indices();
    bad_cvar_handles();
    bad_sessions();
    no_events();
    /* the MPI_T classes are error classes: MPI_Error_string and _class */
    for (int c = MPI_T_ERR_CANNOT_INIT; c <= MPI_T_ERR_PVAR_NO_ATOMIC; c++) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0, cls = -1;
        CHECK_RC(MPI_Error_string(c, text, &len));
        CHECK(strncmp(text, "MPI_T_ERR_", 10) == 0 && len == (int)strlen(text),
              "MPI_Error_string(%d): '%s'", c, text);
        CHECK_RC(MPI_Error_class(c, &cls));
        CHECK(cls == c, "MPI_Error_class(%d) = %d", c, cls);
    }
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(MPI_T_ERR_INVALID_INDEX, text, &len);
    CHECK(strstr(text, "INVALID_INDEX") != NULL, "'%s'", text);
    /* still usable */
    int n = 0;
    CHECK_RC(MPI_T_cvar_get_num(&n));
    CHECK(n > 0, "%d cvars after the errors", n);
    CHECK_RC(MPI_T_finalize());
    not_initialized();
    return ct_finish();
}
