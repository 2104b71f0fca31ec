/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi_server.c - the PMI-1 server (spec/pmi_wire.txt): read request lines
 * from a rank's socket, dispatch them through the command table, answer.
 * A request that does not parse is answered with cmd=error (and reported on
 * our stderr), so the rank fails with a clear message instead of hanging.
 */
#include "launcher.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LX_REPLY_WAIT_MS 2000   /* a rank that does not read its answers */
#define LX_BAD_REPORTS   3      /* malformed requests reported per rank */

typedef void handler_t(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m);

void lx_pmi_answer(lx_job_t *job, lx_rank_t *r, xb_pmiw_out_t *o)
{
    char err[XB_PMIW_ERR_MAX];
    if (xb_pmiw_end(o, err, sizeof err)) {
        lx_msg("internal error: cannot format a PMI answer for rank %d: %s", r->rank, err);
        return;
    }
    if (r->remote)
        lx_remote_pmi_send(job, r, o->buf, o->len);
    else
        lx_pmi_write(job, r, o->buf, o->len);
}

void lx_pmi_write(lx_job_t *job, lx_rank_t *r, const char *buf, size_t len)
{
    if (r->pmi_fd < 0)
        return;
    size_t off = 0;
    while (off < len) {
        ssize_t n = send(r->pmi_fd, buf + off, len - off, MSG_NOSIGNAL);
        if (n > 0) {
            off += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        struct pollfd p = { .fd = r->pmi_fd, .events = POLLOUT };
        if (n < 0 && errno == EAGAIN && poll(&p, 1, LX_REPLY_WAIT_MS) > 0)
            continue;
        if (n < 0 && errno == EAGAIN)
            lx_msg("rank %d does not read its PMI answers; closing its PMI connection", r->rank);
        lx_pmi_close(job, r);
        return;
    }
}

void lx_pmi_reply_rc(lx_job_t *job, lx_rank_t *r, const char *cmd, int rc, const char *msg)
{
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, cmd);
    xb_pmiw_add_int(&o, "rc", rc);
    xb_pmiw_add(&o, "msg", msg);
    lx_pmi_answer(job, r, &o);
}

void lx_pmi_reply(lx_job_t *job, lx_rank_t *r, const char *cmd)
{
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, cmd);
    xb_pmiw_add(&o, "rc", "0");
    lx_pmi_answer(job, r, &o);
}

static void h_init(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    long ver = 0;
    xb_pmiw_out_t o;
    bool ok = xb_pmiw_get_int(m, "pmi_version", &ver) == 0 && ver == 1;
    xb_pmiw_begin(&o, "response_to_init");
    xb_pmiw_add_int(&o, "rc", ok ? 0 : -1);
    xb_pmiw_add(&o, "pmi_version", "1");
    xb_pmiw_add(&o, "pmi_subversion", "1");
    lx_pmi_answer(job, r, &o);
    r->pmi_init = r->pmi_init || ok;
}

static void h_maxes(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    xb_pmiw_out_t o;
    (void)m;
    xb_pmiw_begin(&o, "maxes");
    xb_pmiw_add(&o, "rc", "0");
    xb_pmiw_add_int(&o, "kvsname_max", XB_PMIW_KVSNAME_MAX);
    xb_pmiw_add_int(&o, "keylen_max", XB_PMIW_KEY_MAX);
    xb_pmiw_add_int(&o, "vallen_max", XB_PMIW_VAL_MAX);
    lx_pmi_answer(job, r, &o);
}

static void h_appnum(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    xb_pmiw_out_t o;
    (void)m;
    xb_pmiw_begin(&o, "appnum");
    xb_pmiw_add(&o, "rc", "0");
    xb_pmiw_add_int(&o, "appnum", r->app);
    lx_pmi_answer(job, r, &o);
}

static void h_universe(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    xb_pmiw_out_t o;
    (void)m;
    xb_pmiw_begin(&o, "universe_size");
    xb_pmiw_add(&o, "rc", "0");
    xb_pmiw_add_int(&o, "size", job->n);
    lx_pmi_answer(job, r, &o);
}

static void h_kvsname(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    xb_pmiw_out_t o;
    (void)m;
    xb_pmiw_begin(&o, "my_kvsname");
    xb_pmiw_add(&o, "rc", "0");
    xb_pmiw_add(&o, "kvsname", job->kvsname);
    lx_pmi_answer(job, r, &o);
}

static void h_put(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    const char *key = xb_pmiw_get(m, "key");
    if (strcmp(xb_pmiw_get(m, "kvsname"), job->kvsname) != 0)
        lx_pmi_reply_rc(job, r, "put_result", -1, "unknown_kvsname");
    else if (strncmp(key, "PMI_", 4) == 0)
        lx_pmi_reply_rc(job, r, "put_result", -1, "keys_starting_with_PMI_are_reserved");
    else if (lx_kvs_put(job->kvs, key, xb_pmiw_get(m, "value")))
        lx_pmi_reply_rc(job, r, "put_result", -1, "out_of_memory");
    else
        lx_pmi_reply_rc(job, r, "put_result", 0, "success");
}

static void h_get(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    const char *key = xb_pmiw_get(m, "key");
    const char *val = strcmp(key, "PMI_process_mapping") == 0 ? job->mapping
                                                              : lx_kvs_get(job->kvs, key);
    if (strcmp(xb_pmiw_get(m, "kvsname"), job->kvsname) != 0) {
        lx_pmi_reply_rc(job, r, "get_result", -1, "unknown_kvsname");
        return;
    }
    if (!val) {
        lx_pmi_reply_rc(job, r, "get_result", -1, "key_not_found");
        return;
    }
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, "get_result");
    xb_pmiw_add(&o, "rc", "0");
    xb_pmiw_add(&o, "msg", "success");
    xb_pmiw_add(&o, "value", val);
    lx_pmi_answer(job, r, &o);
}

static void h_barrier(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    (void)m;
    lx_barrier_enter(job, r);
}

static void h_finalize(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    xb_pmiw_out_t o;
    (void)m;
    r->finalized = true;
    xb_pmiw_begin(&o, "finalize_ack");
    xb_pmiw_add(&o, "rc", "0");
    lx_pmi_answer(job, r, &o);
}

static void h_abort(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    long code = 1;
    char text[600] = "";
    const char *msg = xb_pmiw_get(m, "message");
    if (xb_pmiw_get_int(m, "exitcode", &code) != 0)
        code = 1;
    if (msg)
        xb_pmiw_pct_decode(msg, text, sizeof text);
    r->aborted = true;
    /* An exit status keeps 8 bits; a nonzero code must stay nonzero. */
    int status = (int)(code & 0xff);
    if (status == 0 && code != 0)
        status = 1;
    lx_fail(job, status, "rank %d (pid %d) on %s called MPI_Abort with code %ld%s%s; "
            "ending the job", r->rank, (int)r->pid, lx_rank_host(job, r), code, text[0] ? ": " : "", text);
}

static void h_publish(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    lx_names_publish(job, r, xb_pmiw_get(m, "service"), xb_pmiw_get(m, "port"));
}

static void h_unpublish(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    lx_names_unpublish(job, r, xb_pmiw_get(m, "service"));
}

static void h_lookup(lx_job_t *job, lx_rank_t *r, const xb_pmiw_msg_t *m)
{
    lx_names_lookup(job, r, xb_pmiw_get(m, "service"));
}

static const struct {
    const char *cmd;
    handler_t  *fn;
} command_table[] = {
    { "init", h_init },
    { "get_maxes", h_maxes },
    { "get_appnum", h_appnum },
    { "get_universe_size", h_universe },
    { "get_my_kvsname", h_kvsname },
    { "put", h_put },
    { "get", h_get },
    { "barrier_in", h_barrier },
    { "finalize", h_finalize },
    { "abort", h_abort },
    { "publish_name", h_publish },
    { "unpublish_name", h_unpublish },
    { "lookup_name", h_lookup },
};

static void bad_request(lx_job_t *job, lx_rank_t *r, const char *why)
{
    char msg[XB_PMIW_ERR_MAX];
    if (r->nbad++ < LX_BAD_REPORTS)
        lx_msg("rank %d sent a PMI request mpiexec cannot serve: %s", r->rank, why);
    snprintf(msg, sizeof msg, "%s", why);
    xb_pmiw_underscore(msg);
    lx_pmi_reply_rc(job, r, "error", -1, msg);
}

void lx_pmi_dispatch(lx_job_t *job, lx_rank_t *r, const char *line, size_t len)
{
    static xb_pmiw_msg_t m;       /* 3 KiB; one thread */
    char err[XB_PMIW_ERR_MAX];
    if (r->mcmd != NULL || xb_pmiw_is_mcmd(line, len)) {
        if (job->opt.verbose)
            lx_msg("rank %d PMI: %.*s", r->rank, (int)len, line);
        lx_spawn_line(job, r, line, len);   /* spawn.c */
        return;
    }
    if (xb_pmiw_parse(line, len, XB_PMIW_REQUEST, &m, err, sizeof err)) {
        bad_request(job, r, err);
        return;
    }
    if (job->opt.verbose)                /* printable: the parser checked */
        lx_msg("rank %d PMI: %.*s", r->rank, (int)len, line);
    for (size_t i = 0; i < sizeof command_table / sizeof command_table[0]; i++)
        if (strcmp(command_table[i].cmd, xb_pmiw_cmd(&m)) == 0) {
            command_table[i].fn(job, r, &m);
            return;
        }
    snprintf(err, sizeof err, "command '%s' is not served by this mpiexec", xb_pmiw_cmd(&m));
    bad_request(job, r, err);
}

int lx_pmi_readable(lx_job_t *job, lx_rank_t *r)
{
    char err[XB_PMIW_ERR_MAX];
    long n = xb_pmiw_reader_fill(&r->rd, r->pmi_fd);
    bool closed = n == 0 || (n < 0 && errno != EAGAIN && errno != ENOBUFS);
    for (;;) {
        const char *line;
        size_t len;
        int got = xb_pmiw_reader_next(&r->rd, &line, &len, err, sizeof err);
        if (got == 0)
            break;
        if (got < 0)
            bad_request(job, r, err);
        else if (job->opt.proxy_mode)     /* mpiexec serves it */
            (void)lx_chan_send(&job->up, LX_F_PMI, r->rank, line, len);
        else
            lx_pmi_dispatch(job, r, line, len);
        if (r->pmi_fd < 0)
            return 0;
    }
    if (closed) {                  /* end of stream, or an error */
        if (xb_pmiw_reader_pending(&r->rd) && r->nbad++ < LX_BAD_REPORTS)
            lx_msg("rank %d closed its PMI connection in the middle of a request", r->rank);
        lx_pmi_close(job, r);
    }
    return n > 0;
}

void lx_pmi_close(lx_job_t *job, lx_rank_t *r)
{
    (void)job;
    if (r->pmi_fd >= 0)
        close(r->pmi_fd);
    r->pmi_fd = -1;
}
