/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi2_client.c - PMI-2 wire client (pmi2_client.h, spec/pmi2_wire.txt):
 * what a process needs under `srun --mpi=pmi2`: the PMI-1 init line asking
 * for version 2, then fullinit, job-getid,
 * info-getjobattr (PMI_process_mapping), kvs-put, kvs-fence, kvs-get,
 * finalize, abort.
 */
#include "runtime/pmi2_client.h"
#include "runtime/runtime.h"
#include "util/pmi2_wire.h"
#include "util/pmi_wire.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int pmi2_fd = -1;
static char pmi2_jobid[256];

static int send_cmd(xb_pmi2_out_t *o, const char *what)
{
    if (xb_pmi2_end(o))
        return xb_err_set(XB_ERR_ARG, "the PMI-2 command '%s' is longer than %d bytes", what,
                          XB_PMI2_CMD_MAX);
    xb_log(XB_LOG_PMI, XB_LOG_DEBUG, "pmi2 send: %s", o->buf);
    for (size_t off = 0; off < o->len;) {
        ssize_t n = send(pmi2_fd, o->buf + off, o->len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            struct pollfd p = { .fd = pmi2_fd, .events = POLLOUT };
            (void)poll(&p, 1, -1);
            continue;
        }
        if (n <= 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "cannot send the PMI-2 command '%s' to the "
                              "launcher (fd %d)", what, pmi2_fd);
        off += (size_t)n;
    }
    return XB_OK;
}

/* Exactly len bytes, waiting as needed. */
static int read_exact(char *buf, size_t len, const char *what)
{
    for (size_t off = 0; off < len;) {
        ssize_t n = read(pmi2_fd, buf + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            struct pollfd p = { .fd = pmi2_fd, .events = POLLIN };
            (void)poll(&p, 1, -1);
            continue;
        }
        if (n < 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "cannot read the launcher's PMI-2 answer "
                              "to '%s'", what);
        if (n == 0)
            return xb_err_set(XB_ERR_OTHER, "the launcher closed the PMI-2 connection while "
                              "this process waited for the answer to '%s'; the job is probably "
                              "being ended", what);
        off += (size_t)n;
    }
    return XB_OK;
}

static int recv_cmd(xb_pmi2_msg_t *m, const char *what)
{
    char field[XB_PMI2_LENLEN], body[XB_PMI2_CMD_MAX], err[160];
    int rc = read_exact(field, sizeof field, what);
    if (rc)
        return rc;
    long len = xb_pmi2_parse_len(field);
    if (len < 0)
        return xb_err_set(XB_ERR_OTHER, "the launcher's PMI-2 answer to '%s' has a bad length "
                          "field '%.6s' (is it a PMI-2 server?)", what, field);
    if ((rc = read_exact(body, (size_t)len, what)))
        return rc;
    xb_log(XB_LOG_PMI, XB_LOG_DEBUG, "pmi2 recv: %.6s%.*s", field, (int)len, body);
    if (xb_pmi2_parse(body, (size_t)len, m, err, sizeof err))
        return xb_err_set(XB_ERR_OTHER, "the launcher's PMI-2 answer to '%s' is malformed: %s",
                          what, err);
    return XB_OK;
}

/* Send o, read the answer, check its cmd and rc. */
static int exchange(xb_pmi2_out_t *o, const char *what, const char *expect, xb_pmi2_msg_t *m)
{
    int rc = send_cmd(o, what);
    if (rc == XB_OK)
        rc = recv_cmd(m, what);
    if (rc)
        return rc;
    if (strcmp(xb_pmi2_cmd(m), expect) != 0)
        return xb_err_set(XB_ERR_OTHER, "the launcher answered '%s' to the PMI-2 command '%s' "
                          "(expected '%s')", xb_pmi2_cmd(m), what, expect);
    long v = 0;
    if (xb_pmi2_get_int(m, "rc", &v) == 0 && v != 0) {
        const char *why = xb_pmi2_get(m, "errmsg");
        return xb_err_set(XB_ERR_OTHER, "the launcher failed the PMI-2 command '%s' (rc=%ld%s%s)",
                          what, v, why ? ": " : "", why ? why : "");
    }
    return XB_OK;
}

/* The switch to PMI-2 is asked for in a PMI-1 line: "cmd=init
 * pmi_version=2 pmi_subversion=0", answered by a PMI-1 line. */
static int init_v2(void)
{
    static const char req[] = "cmd=init pmi_version=2 pmi_subversion=0\n";
    char line[XB_PMIW_LINE_MAX], err[XB_PMIW_ERR_MAX];
    size_t n = 0;
    xb_pmiw_msg_t m;
    xb_log(XB_LOG_PMI, XB_LOG_DEBUG, "pmi2 send: %.*s", (int)sizeof req - 2, req);
    for (size_t off = 0; off < sizeof req - 1;) {
        ssize_t w = send(pmi2_fd, req + off, sizeof req - 1 - off, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "cannot send the PMI-2 init to the launcher "
                              "(fd %d)", pmi2_fd);
        off += (size_t)w;
    }
    while (n < sizeof line) {             /* one line, byte by byte: it is short */
        int rc = read_exact(line + n, 1, "init");
        if (rc)
            return rc;
        if (line[n++] == '\n')
            break;
    }
    xb_log(XB_LOG_PMI, XB_LOG_DEBUG, "pmi2 recv: %.*s", (int)n - 1, line);
    if (xb_pmiw_parse(line, n, XB_PMIW_RESPONSE, &m, err, sizeof err) ||
        strcmp(xb_pmiw_cmd(&m), "response_to_init") != 0)
        return xb_err_set(XB_ERR_OTHER, "the launcher's answer to the PMI-2 init is not "
                          "response_to_init (%s)", err);
    long ver = 0;
    if (xb_pmiw_rc(&m) != 0 || xb_pmiw_get_int(&m, "pmi_version", &ver) != 0 || ver != 2)
        return xb_err_set(XB_ERR_OTHER, "the launcher refused PMI version 2 (rc=%ld, it offers "
                          "version %ld); XB_PMI_WIRE=1 selects PMI-1", xb_pmiw_rc(&m), ver);
    return XB_OK;
}

static int fullinit(int rank, xb_pmi_job_t *job)
{
    xb_pmi2_out_t o;
    xb_pmi2_msg_t m;
    long v;
    xb_pmi2_begin(&o, "fullinit");
    xb_pmi2_add(&o, "pmijobid", pmi2_jobid);
    xb_pmi2_add_int(&o, "pmirank", rank);
    xb_pmi2_add(&o, "threaded", "FALSE");
    int rc = exchange(&o, "fullinit", "fullinit-response", &m);
    if (rc)
        return rc;
    if (xb_pmi2_get_int(&m, "rank", &v) != 0 || v != rank)
        return xb_err_set(XB_ERR_OTHER, "the launcher's fullinit answer gives rank %s, but "
                          "PMI_RANK=%d", xb_pmi2_get(&m, "rank") ? xb_pmi2_get(&m, "rank") : "none",
                          rank);
    job->rank = rank;
    if (xb_pmi2_get_int(&m, "size", &v) != 0 || v < 1 || v <= rank)
        return xb_err_set(XB_ERR_OTHER, "the launcher's fullinit answer has no valid size");
    job->size = (int)v;
    /* Slurm answers appnum=-1 (it does not track MPMD programs). */
    job->appnum = xb_pmi2_get_int(&m, "appnum", &v) == 0 && v >= 0 ? (int)v : 0;
    job->universe_size = job->size;
    return XB_OK;
}

int xb_pmi2c_init(int fd, const char *jobid, int rank, xb_pmi_job_t *job)
{
    xb_pmi2_out_t o;
    xb_pmi2_msg_t m;
    pmi2_fd = fd;
    snprintf(pmi2_jobid, sizeof pmi2_jobid, "%s", jobid ? jobid : "");
    int rc = init_v2();
    if (rc == XB_OK)
        rc = fullinit(rank, job);
    if (rc)
        return rc;
    xb_pmi2_begin(&o, "job-getid");
    if ((rc = exchange(&o, "job-getid", "job-getid-response", &m)))
        return rc;
    const char *id = xb_pmi2_get(&m, "jobid");
    if (!id || !*id || strlen(id) >= sizeof job->kvsname)
        return xb_err_set(XB_ERR_OTHER, "the launcher's job-getid answer has no usable jobid");
    snprintf(job->kvsname, sizeof job->kvsname, "%s", id);
    snprintf(pmi2_jobid, sizeof pmi2_jobid, "%s", id);
    xb_pmi2_begin(&o, "info-getjobattr");
    xb_pmi2_add(&o, "key", "PMI_process_mapping");
    if ((rc = exchange(&o, "info-getjobattr", "info-getjobattr-response", &m)))
        return rc;
    const char *map = xb_pmi2_get(&m, "value");
    job->process_mapping[0] = '\0';       /* unknown: the ranks compare host names */
    if (xb_pmi2_get_bool(&m, "found") == 1 && map && strlen(map) < sizeof job->process_mapping)
        snprintf(job->process_mapping, sizeof job->process_mapping, "%s", map);
    return XB_OK;
}

int xb_pmi2c_put(const char *key, const char *value)
{
    xb_pmi2_out_t o;
    xb_pmi2_msg_t m;
    xb_pmi2_begin(&o, "kvs-put");
    xb_pmi2_add(&o, "key", key);
    xb_pmi2_add(&o, "value", value);
    return exchange(&o, "kvs-put", "kvs-put-response", &m);
}

int xb_pmi2c_get(const char *key, char *value, size_t len)
{
    xb_pmi2_out_t o;
    xb_pmi2_msg_t m;
    xb_pmi2_begin(&o, "kvs-get");
    xb_pmi2_add(&o, "jobid", pmi2_jobid);
    xb_pmi2_add_int(&o, "srcid", -1);
    xb_pmi2_add(&o, "key", key);
    int rc = exchange(&o, "kvs-get", "kvs-get-response", &m);
    if (rc)
        return rc;
    const char *val = xb_pmi2_get(&m, "value");
    if (xb_pmi2_get_bool(&m, "found") != 1 || !val)
        return xb_err_set(XB_ERR_OTHER, "PMI key '%s' is not in the launcher's KVS", key);
    size_t n = strlen(val);
    if (n >= len)
        return xb_err_set(XB_ERR_OTHER, "PMI value of key '%s' has %zu bytes, more than the "
                          "%zu-byte buffer", key, n, len ? len - 1 : 0);
    memcpy(value, val, n + 1);
    return XB_OK;
}

int xb_pmi2c_fence(void)
{
    xb_pmi2_out_t o;
    xb_pmi2_msg_t m;
    xb_pmi2_begin(&o, "kvs-fence");
    return exchange(&o, "kvs-fence", "kvs-fence-response", &m);
}

int xb_pmi2c_finalize(void)
{
    xb_pmi2_out_t o;
    xb_pmi2_msg_t m;
    xb_pmi2_begin(&o, "finalize");
    int rc = exchange(&o, "finalize", "finalize-response", &m);
    pmi2_fd = -1;
    return rc;
}

/* No answer comes: Slurm ends the job step (isworld=TRUE). */
void xb_pmi2c_abort(int code, const char *msg)
{
    xb_pmi2_out_t o;
    if (pmi2_fd < 0)
        return;
    char text[512];
    snprintf(text, sizeof text, "%s", msg ? msg : "");
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';                     /* one line, whatever the caller wrote */
    xb_pmi2_begin(&o, "abort");
    xb_pmi2_add(&o, "isworld", "TRUE");
    xb_pmi2_add_int(&o, "exitcode", code);
    if (text[0])
        xb_pmi2_add(&o, "message", text);
    (void)send_cmd(&o, "abort");
}
