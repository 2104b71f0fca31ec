/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * mpit_env.c - MPI_T_init_thread and MPI_T_finalize (reference counted,
 * usable before MPI_Init and after MPI_Finalize), and the helpers every
 * file of src/mpit uses: error detail, string out-parameters, checks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mpit/mpit.h"
#include "runtime/tunable.h"

pthread_mutex_t xb_mpit_mutex = PTHREAD_MUTEX_INITIALIZER;
int xb_mpit_refs;

int xb_mpit_err(int code, const char *fn, const char *fmt, ...)
{
    char text[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    xb_err_set(XB_ERR_ARG, "%s: %s", fn, text);
    return code;
}

void xb_mpit_strout(const char *src, char *buf, int *len)
{
    int need = (int)strlen(src) + 1;

    if (len == NULL)
        return;
    if (buf == NULL || *len <= 0) {
        *len = need;
        return;
    }
    int n = need <= *len ? need - 1 : *len - 1;
    memcpy(buf, src, (size_t)n);
    buf[n] = '\0';
    *len = n + 1;
}

int xb_mpit_check_index(const char *fn, const char *what, int idx, int n)
{
    if (idx >= 0 && idx < n)
        return MPI_SUCCESS;
    return xb_mpit_err(MPI_T_ERR_INVALID_INDEX, fn, "invalid argument %s: %d "
                       "is not between 0 and %d", what, idx, n - 1);
}

int xb_mpit_check_ptr(const char *fn, const char *arg, const void *p)
{
    if (p != NULL)
        return MPI_SUCCESS;
    return xb_mpit_err(MPI_T_ERR_INVALID, fn, "invalid argument %s: NULL "
                       "(a pointer to the result is required)", arg);
}

static bool valid_level(int level)
{
    return level == MPI_THREAD_SINGLE || level == MPI_THREAD_FUNNELED ||
           level == MPI_THREAD_SERIALIZED || level == MPI_THREAD_MULTIPLE;
}

static int first_init(void)
{
    static const char fn[] = "MPI_T_init_thread";

    if (xb_tunables_load() != XB_OK) {
        char why[300];
        snprintf(why, sizeof why, "%s", xb_err_detail());
        return xb_mpit_err(MPI_T_ERR_CANNOT_INIT, fn, "%s", why);
    }
    if (xb_mpit_pvar_build() != MPI_SUCCESS)
        return xb_mpit_err(MPI_T_ERR_MEMORY, fn, "out of memory for the "
                           "table of performance variables");
    if (xb_mpit_cat_build() != MPI_SUCCESS) {
        xb_mpit_pvar_free();
        return xb_mpit_err(MPI_T_ERR_MEMORY, fn, "out of memory for the "
                           "table of categories");
    }
    return MPI_SUCCESS;
}

/* Everything a tool left allocated goes with the last MPI_T_finalize. */
static void last_fini(void)
{
    xb_mpit_session_fini();
    xb_mpit_cvar_fini();
    xb_mpit_cat_free();
    xb_mpit_pvar_free();
}

XB_EXPORT int PMPI_T_init_thread(int required, int *provided)
{
    static const char fn[] = "MPI_T_init_thread";
    int rc = MPI_SUCCESS;
    bool cs = xb_cs_enter();

    pthread_mutex_lock(&xb_mpit_mutex);
    if (!valid_level(required))
        rc = xb_mpit_err(MPI_T_ERR_INVALID, fn, "invalid argument required: "
                         "%d is not a thread level (MPI_THREAD_SINGLE, "
                         "_FUNNELED, _SERIALIZED or _MULTIPLE)", required);
    else if (provided == NULL)
        rc = xb_mpit_check_ptr(fn, "provided", provided);
    else if (xb_mpit_refs == 0)
        rc = first_init();
    if (rc == MPI_SUCCESS) {
        xb_mpit_refs++;
        *provided = required;     /* every level: the layer locks itself */
    }
    return xb_mpit_end(cs, rc);
}

XB_EXPORT int PMPI_T_finalize(void)
{
    int rc;
    bool cs = xb_mpit_begin(&rc);

    if (rc != MPI_SUCCESS)
        xb_mpit_err(rc, "MPI_T_finalize", "MPI_T is not initialized (more "
                    "MPI_T_finalize calls than MPI_T_init_thread calls)");
    else if (--xb_mpit_refs == 0)
        last_fini();
    return xb_mpit_end(cs, rc);
}

XB_MPIT_ALIAS(MPI_T_init_thread);
XB_MPIT_ALIAS(MPI_T_finalize);
