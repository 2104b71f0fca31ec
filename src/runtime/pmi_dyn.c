/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi_dyn.c - the PMI-1 requests of dynamic processes (runtime.h): the
 * multi-line spawn request (spec/pmi_wire.txt section 7) and the name
 * service (publish_name, unpublish_name, lookup_name). They exist on the
 * PMI-1 wire only: a singleton or a PMI-2 launcher gets a sentence saying
 * so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/runtime.h"
#include "runtime/pmi_client.h"

enum { SPAWN_BUF = 8192 };

static int no_dyn(const char *what, int cls)
{
    int mode = xb_pmi_mode();
    return xb_err_set(cls, "%s needs a launcher with dynamic processes, and this "
                      "process runs %s", what,
                      mode == XB_PMI_MODE_SINGLETON ? "as a singleton (started without "
                      "mpiexec)" : mode == XB_PMI_MODE_PMI2 ? "under a PMI-2 launcher "
                      "(srun --mpi=pmi2), whose spawn Crossbar does not speak" :
                      "without a PMI connection");
}

/* The request text grows in a malloc'd buffer. */
typedef struct text {
    char  *buf;
    size_t len, cap;
    int    bad;                 /* the first error, XB_OK if none */
} text_t;

static void line(text_t *t, const char *key, const char *val)
{
    if (t->bad != XB_OK)
        return;
    size_t kl = strlen(key), vl = val != NULL ? strlen(val) : 0;
    for (size_t i = 0; i < vl; i++)
        if ((unsigned char)val[i] < 0x20 || (unsigned char)val[i] > 0x7e) {
            t->bad = xb_err_set(-MPI_ERR_SPAWN, "'%s' of the spawn request has a byte "
                                "(0x%02x) the PMI wire cannot carry", key,
                                (unsigned char)val[i]);
            return;
        }
    if (vl > XB_PMIW_VAL_MAX) {
        t->bad = xb_err_set(-MPI_ERR_SPAWN, "'%s' of the spawn request is longer than "
                            "%d bytes", key, XB_PMIW_VAL_MAX);
        return;
    }
    if (t->len + kl + vl + 3 > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : SPAWN_BUF;
        while (cap < t->len + kl + vl + 3)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        if (b == NULL) {
            t->bad = xb_err_set(XB_ERR_NO_MEM, "out of memory for a spawn request");
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    t->len += (size_t)sprintf(t->buf + t->len, "%s%s%s\n", key, val != NULL ? "=" : "",
                              val != NULL ? val : "");
}

static void line_int(text_t *t, const char *key, long v)
{
    char num[32];
    snprintf(num, sizeof(num), "%ld", v);
    line(t, key, num);
}

static void block(text_t *t, int i, int ncmds, const xb_rt_spawn_cmd_t *c, int npre,
                  const char *const *pk, const char *const *pv)
{
    char key[48];
    int argc = 0;
    while (c->argv != NULL && c->argv[argc] != NULL)
        argc++;
    line(t, "mcmd=spawn", NULL);
    line_int(t, "nprocs", c->maxprocs);
    line(t, "execname", c->command);
    line_int(t, "totspawns", ncmds);
    line_int(t, "spawnssofar", i + 1);
    line_int(t, "argcnt", argc);
    for (int a = 0; a < argc; a++) {
        snprintf(key, sizeof(key), "arg%d", a + 1);
        line(t, key, c->argv[a]);
    }
    line_int(t, "preput_num", npre);
    for (int k = 0; k < npre; k++) {
        snprintf(key, sizeof(key), "preput_key_%d", k);
        line(t, key, pk[k]);
        snprintf(key, sizeof(key), "preput_val_%d", k);
        line(t, key, pv[k]);
    }
    line_int(t, "info_num", c->ninfo);
    for (int k = 0; k < c->ninfo; k++) {
        snprintf(key, sizeof(key), "info_key_%d", k);
        line(t, key, c->info_keys[k]);
        snprintf(key, sizeof(key), "info_val_%d", k);
        line(t, key, c->info_vals[k]);
    }
    line(t, "endcmd", NULL);
}

/* "a_b_c" -> "a b c" (msg values carry spaces as underscores). */
static void spaces(char *s)
{
    for (; *s; s++)
        if (*s == '_')
            *s = ' ';
}

int xb_rt_spawn(int ncmds, const xb_rt_spawn_cmd_t *cmds, int npreput,
                const char *const *pre_keys, const char *const *pre_vals)
{
    if (xb_pmi_mode() != XB_PMI_MODE_PMI1)
        return no_dyn("MPI_Comm_spawn", -MPI_ERR_SPAWN);
    text_t t = { NULL, 0, 0, XB_OK };
    for (int i = 0; i < ncmds; i++)
        block(&t, i, ncmds, &cmds[i], npreput, pre_keys, pre_vals);
    int rc = t.bad;
    if (rc == XB_OK)
        rc = xb_pmi_send_raw(t.buf, t.len, "spawn");
    free(t.buf);
    xb_pmiw_msg_t m;
    if (rc == XB_OK)
        rc = xb_pmi_recv(&m, "spawn");
    if (rc != XB_OK)
        return rc;
    const char *msg = xb_pmiw_get(&m, "msg");
    char why[XB_PMIW_VAL_MAX + 1];
    snprintf(why, sizeof(why), "%s", msg != NULL ? msg : "no reason given");
    spaces(why);
    if (strcmp(xb_pmiw_cmd(&m), "spawn_result") != 0)
        return xb_err_set(-MPI_ERR_SPAWN, "the launcher answered '%s' to spawn: %s",
                          xb_pmiw_cmd(&m), why);
    if (xb_pmiw_rc(&m) != 0)
        return xb_err_set(-MPI_ERR_SPAWN, "the launcher could not start the processes: "
                          "%s", why);
    return XB_OK;
}

/* One name-service request; *m holds the answer. */
static int name_req(const char *cmd, const char *expect, const char *service,
                    const char *port, xb_pmiw_msg_t *m)
{
    if (xb_pmi_mode() != XB_PMI_MODE_PMI1)
        return no_dyn("the name service", -MPI_ERR_NAME);
    if (!xb_pmiw_value_ok(service, XB_PMIW_VAL_MAX) || *service == '\0')
        return xb_err_set(XB_ERR_ARG, "invalid service_name '%.100s': empty, or it "
                          "holds a space or a non-printable byte (the launcher's name "
                          "service cannot store it)", service);
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, cmd);
    xb_pmiw_add(&o, "service", service);
    if (port != NULL)
        xb_pmiw_add(&o, "port", port);
    return xb_pmi_exchange(&o, cmd, expect, m);
}

int xb_rt_publish(const char *service, const char *port)
{
    xb_pmiw_msg_t m;
    int rc = name_req("publish_name", "publish_result", service, port, &m);
    if (rc == XB_OK && xb_pmiw_rc(&m) != 0)
        rc = xb_err_set(-MPI_ERR_SERVICE, "service '%.100s' is published already (by "
                        "this or another process of this mpiexec)", service);
    return rc;
}

int xb_rt_unpublish(const char *service)
{
    xb_pmiw_msg_t m;
    int rc = name_req("unpublish_name", "unpublish_result", service, NULL, &m);
    if (rc == XB_OK && xb_pmiw_rc(&m) != 0)
        rc = xb_err_set(-MPI_ERR_SERVICE, "service '%.100s' is not published",
                        service);
    return rc;
}

int xb_rt_lookup(const char *service, char *port, size_t len)
{
    xb_pmiw_msg_t m;
    int rc = name_req("lookup_name", "lookup_result", service, NULL, &m);
    if (rc != XB_OK)
        return rc;
    const char *p = xb_pmiw_get(&m, "port");
    if (xb_pmiw_rc(&m) != 0 || p == NULL)
        return xb_err_set(-MPI_ERR_NAME, "service '%.100s' is not published", service);
    if (strlen(p) >= len)
        return xb_err_set(XB_ERR_OTHER, "the port of service '%.100s' is longer than %zu "
                          "bytes", service, len - 1);
    memcpy(port, p, strlen(p) + 1);
    return XB_OK;
}
