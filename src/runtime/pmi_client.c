/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * pmi_client.c - the process side of PMI-1 (spec/pmi_wire.txt), for our
 * mpiexec, Hydra (PMI_FD or -pmi-port), Slurm --mpi=pmi2 and Flux, plus the
 * singleton case. See pmi_client.h for the contract.
 */
#include "runtime/pmi_client.h"
#include "runtime/pmi2_client.h"
#include "runtime/runtime.h"
#include "runtime/tunable.h"
#include "util/pmi2_wire.h"
#include "util/pmi_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct local_kv {          /* the singleton's KVS */
    struct local_kv *next;
    char *key, *val;
} local_kv_t;

XB_TUNABLE(PMI_WIRE, XB_TT_STRING, "auto", XB_TL_USER,
           "PMI wire protocol on PMI_FD: 1 (PMI-1 lines), 2 (PMI-2 commands, Slurm "
           "srun --mpi=pmi2) or auto (2 when PMI_JOBID is set, as Slurm does)");

static struct {
    bool   up;
    bool   singleton;
    bool   v2;                     /* PMI-2 wire (pmi2_client.c) */
    int    fd;
    int    rank, size;
    size_t keylen_max, vallen_max;
    char   kvsname[XB_PMIW_KVSNAME_MAX];
    local_kv_t *local;
    xb_pmiw_reader_t rd;
} pmi = { .fd = -1 };

/* ---- environment ------------------------------------------------------- */

/* -1 absent, 0 parsed into *v, 1 present but not a non-negative integer */
static int env_int(const char *name, long *v)
{
    const char *s = getenv(name);
    char *end;
    if (!s)
        return -1;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (!*s || *end || errno || x < 0 || x > 0x7fffffff)
        return 1;
    *v = x;
    return 0;
}

static int bad_env(const char *name)
{
    return xb_err_set(XB_ERR_OTHER,
                      "the launcher variable %s='%s' is not a valid non-negative number",
                      name, getenv(name));
}

/* ---- transport --------------------------------------------------------- */

static int send_line(const char *line, size_t len, const char *what)
{
    size_t off = 0;
    while (off < len) {
        ssize_t n = send(pmi.fd, line + off, len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK)
            n = write(pmi.fd, line + off, len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN) {
            struct pollfd p = { .fd = pmi.fd, .events = POLLOUT };
            (void)poll(&p, 1, -1);
            continue;
        }
        if (n <= 0)
            return xb_err_sys(XB_ERR_OTHER, errno,
                              "cannot send '%s' to the launcher over PMI (fd %d)", what, pmi.fd);
        off += (size_t)n;
    }
    return XB_OK;
}

/* Blocking read of the next line from the launcher, parsed as a response. */
static int recv_msg(xb_pmiw_msg_t *m, const char *what)
{
    char err[XB_PMIW_ERR_MAX];
    const char *line;
    size_t len;
    for (;;) {
        int got = xb_pmiw_reader_next(&pmi.rd, &line, &len, err, sizeof err);
        if (got < 0)
            return xb_err_set(XB_ERR_OTHER, "the launcher's answer to '%s' is malformed: %s",
                              what, err);
        if (got > 0)
            break;
        long n = xb_pmiw_reader_fill(&pmi.rd, pmi.fd);
        if (n < 0 && errno == EAGAIN) {
            struct pollfd p = { .fd = pmi.fd, .events = POLLIN };
            (void)poll(&p, 1, -1);
            continue;
        }
        if (n < 0)
            return xb_err_sys(XB_ERR_OTHER, errno,
                              "cannot read the launcher's answer to '%s' over PMI", what);
        if (n == 0)
            return xb_err_set(XB_ERR_OTHER,
                              "the launcher closed the PMI connection while this process waited "
                              "for the answer to '%s'; the job is probably being ended", what);
    }
    xb_log(XB_LOG_PMI, XB_LOG_DEBUG, "pmi recv: %.*s", (int)len, line);
    if (xb_pmiw_parse(line, len, XB_PMIW_RESPONSE, m, err, sizeof err))
        return xb_err_set(XB_ERR_OTHER, "the launcher's answer to '%s' is malformed: %s",
                          what, err);
    return XB_OK;
}

/* One lock-step exchange: send o, receive a response whose cmd is `expect`.
 * rc != 0 in the response is left to the caller. */
static int exchange(xb_pmiw_out_t *o, const char *what, const char *expect, xb_pmiw_msg_t *m)
{
    char err[XB_PMIW_ERR_MAX];
    if (xb_pmiw_end(o, err, sizeof err))
        return xb_err_set(XB_ERR_ARG, "cannot build the PMI request '%s': %s", what, err);
    xb_log(XB_LOG_PMI, XB_LOG_DEBUG, "pmi send: %.*s", (int)o->len - 1, o->buf);
    int rc = send_line(o->buf, o->len, what);
    if (rc)
        return rc;
    rc = recv_msg(m, what);
    if (rc)
        return rc;
    const char *cmd = xb_pmiw_cmd(m);
    if (strcmp(cmd, "error") == 0) {
        const char *why = xb_pmiw_get(m, "msg");
        return xb_err_set(XB_ERR_OTHER, "the launcher rejected the PMI request '%s': %s",
                          what, why ? why : "no reason given");
    }
    if (strcmp(cmd, expect) != 0)
        return xb_err_set(XB_ERR_OTHER, "the launcher answered '%s' to the PMI request '%s' "
                          "(expected '%s')", cmd, what, expect);
    return XB_OK;
}

/* For pmi_dyn.c (spawn, names): the transport, and how the job was started. */
int xb_pmi_exchange(xb_pmiw_out_t *o, const char *what, const char *expect,
                    xb_pmiw_msg_t *m)
{
    return exchange(o, what, expect, m);
}

int xb_pmi_send_raw(const char *buf, size_t len, const char *what)
{
    xb_log(XB_LOG_PMI, XB_LOG_DEBUG, "pmi send: %.*s", (int)len, buf);
    return send_line(buf, len, what);
}

int xb_pmi_recv(xb_pmiw_msg_t *m, const char *what)
{
    return recv_msg(m, what);
}

int xb_pmi_mode(void)
{
    return !pmi.up ? XB_PMI_MODE_NONE : pmi.singleton ? XB_PMI_MODE_SINGLETON
         : pmi.v2 ? XB_PMI_MODE_PMI2 : XB_PMI_MODE_PMI1;
}

static int simple_query(const char *cmd, const char *expect, xb_pmiw_msg_t *m)
{
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, cmd);
    int rc = exchange(&o, cmd, expect, m);
    if (rc == XB_OK && xb_pmiw_rc(m) != 0)
        rc = xb_err_set(XB_ERR_OTHER, "the launcher failed the PMI request '%s' (rc=%ld, %s)",
                        cmd, xb_pmiw_rc(m), xb_pmiw_get(m, "msg") ? xb_pmiw_get(m, "msg") : "");
    return rc;
}

/* ---- connecting -------------------------------------------------------- */

static int connect_port(const char *hostport)
{
    char host[256];
    const char *colon = strrchr(hostport, ':');
    if (!colon || colon == hostport || (size_t)(colon - hostport) >= sizeof host || !colon[1])
        return xb_err_set(XB_ERR_OTHER, "PMI_PORT='%s' is not of the form host:port", hostport);
    memcpy(host, hostport, (size_t)(colon - hostport));
    host[colon - hostport] = '\0';
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
    int gai = getaddrinfo(host, colon + 1, &hints, &res);
    if (gai)
        return xb_err_set(XB_ERR_OTHER, "cannot resolve PMI_PORT='%s': %s", hostport,
                          gai_strerror(gai));
    int fd = -1, saved = 0;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        saved = errno;
        if (fd >= 0)
            close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0)
        return xb_err_sys(XB_ERR_OTHER, saved, "cannot connect to the launcher at PMI_PORT='%s'",
                          hostport);
    pmi.fd = fd;
    return XB_OK;
}

/* Hydra -pmi-port: initack, then "set size", "set rank", "set debug". */
static int port_handshake(long id)
{
    xb_pmiw_out_t o;
    xb_pmiw_msg_t m;
    xb_pmiw_begin(&o, "initack");
    xb_pmiw_add_int(&o, "pmiid", id);
    int rc = exchange(&o, "initack", "initack", &m);
    bool have_rank = false, have_size = false;
    for (int i = 0; rc == XB_OK && i < 3; i++) {
        long v;
        rc = recv_msg(&m, "initack");
        if (rc)
            break;
        if (strcmp(xb_pmiw_cmd(&m), "set") != 0)
            return xb_err_set(XB_ERR_OTHER, "the launcher answered '%s' after initack "
                              "(expected 'set')", xb_pmiw_cmd(&m));
        if (xb_pmiw_get_int(&m, "size", &v) == 0) {
            pmi.size = (int)v;
            have_size = true;
        }
        if (xb_pmiw_get_int(&m, "rank", &v) == 0) {
            pmi.rank = (int)v;
            have_rank = true;
        }
    }
    if (rc == XB_OK && (!have_rank || !have_size))
        rc = xb_err_set(XB_ERR_OTHER, "the launcher did not send rank and size after initack");
    return rc;
}

/* PMI-1 or PMI-2 on PMI_FD (XB_PMI_WIRE). Slurm's pmi2 plugin serves both
 * and sets PMI_JOBID; our mpiexec and Hydra serve PMI-1 and do not. Before
 * MPI_Init reads the tunables (lhelper) the value is NULL: auto. */
static int choose_wire(void)
{
    const char *w = xb_tn_PMI_WIRE.v.s ? xb_tn_PMI_WIRE.v.s : "auto";
    if (strcmp(w, "auto") == 0)
        pmi.v2 = getenv("PMI_JOBID") != NULL;
    else if (strcmp(w, "1") == 0 || strcmp(w, "2") == 0)
        pmi.v2 = w[0] == '2';
    else
        return xb_err_set(XB_ERR_ARG, "XB_PMI_WIRE='%s' is not 1, 2 or auto", w);
    return XB_OK;
}

/* Decide how we were started; sets pmi.fd / rank / size or singleton. */
static int find_launcher(void)
{
    long fd = -1, rank = -1, size = -1, id = -1;
    int has_fd = env_int("PMI_FD", &fd), has_rank = env_int("PMI_RANK", &rank);
    int has_size = env_int("PMI_SIZE", &size), has_id = env_int("PMI_ID", &id);
    const char *port = getenv("PMI_PORT");

    if (has_fd > 0) return bad_env("PMI_FD");
    if (has_rank > 0) return bad_env("PMI_RANK");
    if (has_size > 0) return bad_env("PMI_SIZE");
    if (has_id > 0) return bad_env("PMI_ID");
    if (has_fd == 0) {
        if (has_rank < 0 || has_size < 0)
            return xb_err_set(XB_ERR_OTHER, "PMI_FD is set but %s is not: the launcher's "
                              "variables are inconsistent", has_rank < 0 ? "PMI_RANK" : "PMI_SIZE");
        if (fcntl((int)fd, F_GETFD) < 0)
            return xb_err_sys(XB_ERR_OTHER, errno, "PMI_FD=%ld names no open file descriptor "
                              "(was the program started through a wrapper that closes fds?)", fd);
        struct stat st;
        if (fstat((int)fd, &st) == 0 && !S_ISSOCK(st.st_mode))
            return xb_err_set(XB_ERR_OTHER, "PMI_FD=%ld is not a socket: the launcher's "
                              "variables are stale or inconsistent", fd);
        pmi.fd = (int)fd;
        pmi.rank = (int)rank;
        pmi.size = (int)size;
        (void)fcntl(pmi.fd, F_SETFD, FD_CLOEXEC);   /* not for the user's children */
        int rc = choose_wire();
        if (rc)
            return rc;
    } else if (port) {
        if (has_id < 0 && has_rank < 0)
            return xb_err_set(XB_ERR_OTHER, "PMI_PORT is set but neither PMI_ID nor PMI_RANK is");
        int rc = connect_port(port);
        if (rc)
            return rc;
        rc = port_handshake(has_id == 0 ? id : rank);
        if (rc)
            return rc;
    } else if (has_rank == 0 || has_size == 0) {
        return xb_err_set(XB_ERR_OTHER, "%s is set but neither PMI_FD nor PMI_PORT is: the "
                          "launcher's variables are inconsistent (was the program started by a "
                          "launcher for another MPI, or are leftover PMI_ variables exported?)",
                          has_rank == 0 ? "PMI_RANK" : "PMI_SIZE");
    } else {
        pmi.singleton = true;
        pmi.rank = 0;
        pmi.size = 1;
        return XB_OK;
    }
    if (pmi.size < 1 || pmi.rank >= pmi.size)
        return xb_err_set(XB_ERR_OTHER, "the launcher gave rank %d of a job of size %d",
                          pmi.rank, pmi.size);
    return XB_OK;
}

/* ---- init -------------------------------------------------------------- */

static int handshake(xb_pmi_job_t *job)
{
    xb_pmiw_out_t o;
    xb_pmiw_msg_t m;
    long v;

    xb_pmiw_begin(&o, "init");
    xb_pmiw_add(&o, "pmi_version", "1");
    xb_pmiw_add(&o, "pmi_subversion", "1");
    int rc = exchange(&o, "init", "response_to_init", &m);
    if (rc)
        return rc;
    if (xb_pmiw_rc(&m) != 0)
        return xb_err_set(XB_ERR_OTHER, "the launcher refused PMI version 1.1 (it offers %s.%s)",
                          xb_pmiw_get(&m, "pmi_version") ? xb_pmiw_get(&m, "pmi_version") : "?",
                          xb_pmiw_get(&m, "pmi_subversion") ? xb_pmiw_get(&m, "pmi_subversion") : "?");
    if ((rc = simple_query("get_maxes", "maxes", &m)))
        return rc;
    pmi.keylen_max = xb_pmiw_get_int(&m, "keylen_max", &v) == 0 && v > 0 ? (size_t)v : 64;
    pmi.vallen_max = xb_pmiw_get_int(&m, "vallen_max", &v) == 0 && v > 0 ? (size_t)v : 1024;
    if (pmi.keylen_max > XB_PMIW_KEY_MAX) pmi.keylen_max = XB_PMIW_KEY_MAX;
    if (pmi.vallen_max > XB_PMIW_VAL_MAX) pmi.vallen_max = XB_PMIW_VAL_MAX;
    if ((rc = simple_query("get_appnum", "appnum", &m)))
        return rc;
    job->appnum = xb_pmiw_get_int(&m, "appnum", &v) == 0 ? (int)v : 0;
    if ((rc = simple_query("get_universe_size", "universe_size", &m)))
        return rc;
    /* Hydra answers -1 (unknown); we then report the job size. */
    job->universe_size = xb_pmiw_get_int(&m, "size", &v) == 0 && v > 0 ? (int)v : pmi.size;
    if ((rc = simple_query("get_my_kvsname", "my_kvsname", &m)))
        return rc;
    const char *kvs = xb_pmiw_get(&m, "kvsname");
    if (strlen(kvs) >= sizeof pmi.kvsname)
        return xb_err_set(XB_ERR_OTHER, "the launcher's kvsname is longer than %zu bytes",
                          sizeof pmi.kvsname - 1);
    memcpy(pmi.kvsname, kvs, strlen(kvs) + 1);
    pmi.up = true;
    if (xb_pmi_get("PMI_process_mapping", job->process_mapping,
                   sizeof job->process_mapping) != XB_OK) {
        job->process_mapping[0] = '\0';   /* the launcher does not know it */
        xb_err_clear();
    }
    return XB_OK;
}

int xb_pmi_init(xb_pmi_job_t *job)
{
    xb_pmi_job_t j;
    memset(&j, 0, sizeof j);
    if (pmi.up)
        return xb_err_set(XB_ERR_OTHER, "the PMI client is already initialised");
    xb_pmiw_reader_init(&pmi.rd);
    pmi.singleton = false;
    pmi.v2 = false;
    int rc = find_launcher();
    if (rc)
        goto err_close;
    if (pmi.v2) {
        rc = xb_pmi2c_init(pmi.fd, getenv("PMI_JOBID"), pmi.rank, &j);
        if (rc == XB_OK && j.size != pmi.size)
            rc = xb_err_set(XB_ERR_OTHER, "the launcher's PMI-2 fullinit gives a job of %d "
                            "processes, but PMI_SIZE=%d", j.size, pmi.size);
        if (rc)
            goto err_close;
        pmi.up = true;
        pmi.keylen_max = XB_PMI2_KEY_MAX;
        pmi.vallen_max = XB_PMIW_VAL_MAX;
        memcpy(pmi.kvsname, j.kvsname, sizeof pmi.kvsname);
    } else if (pmi.singleton) {
        pmi.up = true;
        pmi.keylen_max = XB_PMIW_KEY_MAX;
        pmi.vallen_max = XB_PMIW_VAL_MAX;
        snprintf(pmi.kvsname, sizeof pmi.kvsname, "singleton_kvs_%d", (int)getpid());
        j.universe_size = 1;
        snprintf(j.process_mapping, sizeof j.process_mapping, "(vector,(0,1,1))");
    } else if ((rc = handshake(&j))) {
        goto err_close;
    }
    j.rank = pmi.rank;
    j.size = pmi.size;
    j.singleton = pmi.singleton;
    _Static_assert(sizeof j.kvsname == sizeof pmi.kvsname, "kvsname sizes");
    memcpy(j.kvsname, pmi.kvsname, sizeof j.kvsname);
    *job = j;
    return XB_OK;

err_close:
    if (pmi.fd >= 0 && getenv("PMI_PORT") && !getenv("PMI_FD"))
        close(pmi.fd);
    pmi.fd = -1;
    pmi.up = false;
    return rc;
}

/* ---- KVS --------------------------------------------------------------- */

static int check_kv(const char *key, const char *value)
{
    if (!key[0] || strchr(key, '=') || !xb_pmiw_value_ok(key, pmi.keylen_max))
        return xb_err_set(XB_ERR_ARG, "PMI key '%.80s' is empty, longer than %zu bytes or has "
                          "a space, '=' or a non-printable byte", key, pmi.keylen_max);
    if (value && !xb_pmiw_value_ok(value, pmi.vallen_max))
        return xb_err_set(XB_ERR_ARG, "PMI value for key '%s' is longer than %zu bytes or has "
                          "a space or a non-printable byte (encode binary data as hex)",
                          key, pmi.vallen_max);
    return XB_OK;
}

static int not_up(void)
{
    return xb_err_set(XB_ERR_OTHER, "the PMI client is not initialised");
}

int xb_pmi_put(const char *key, const char *value)
{
    if (!pmi.up)
        return not_up();
    int rc = check_kv(key, value);
    if (rc)
        return rc;
    if (pmi.singleton) {
        for (local_kv_t *kv = pmi.local; kv; kv = kv->next)
            if (strcmp(kv->key, key) == 0) {
                char *v = strdup(value);
                if (!v)
                    return xb_err_set(XB_ERR_NO_MEM, "out of memory for a KVS value");
                free(kv->val);
                kv->val = v;
                return XB_OK;
            }
        local_kv_t *kv = calloc(1, sizeof *kv);
        if (!kv || !(kv->key = strdup(key)) || !(kv->val = strdup(value))) {
            if (kv)
                free(kv->key);
            free(kv);
            return xb_err_set(XB_ERR_NO_MEM, "out of memory for a KVS entry");
        }
        kv->next = pmi.local;
        pmi.local = kv;
        return XB_OK;
    }
    if (pmi.v2)
        return xb_pmi2c_put(key, value);
    xb_pmiw_out_t o;
    xb_pmiw_msg_t m;
    xb_pmiw_begin(&o, "put");
    xb_pmiw_add(&o, "kvsname", pmi.kvsname);
    xb_pmiw_add(&o, "key", key);
    xb_pmiw_add(&o, "value", value);
    rc = exchange(&o, "put", "put_result", &m);
    if (rc == XB_OK && xb_pmiw_rc(&m) != 0)
        rc = xb_err_set(XB_ERR_OTHER, "the launcher refused to store PMI key '%s' (%s)", key,
                        xb_pmiw_get(&m, "msg") ? xb_pmiw_get(&m, "msg") : "no reason given");
    return rc;
}

static int copy_value(const char *key, const char *val, char *value, size_t len)
{
    size_t n = strlen(val);
    if (n >= len)
        return xb_err_set(XB_ERR_OTHER, "PMI value of key '%s' has %zu bytes, more than the "
                          "%zu-byte buffer", key, n, len ? len - 1 : 0);
    memcpy(value, val, n + 1);
    return XB_OK;
}

int xb_pmi_get(const char *key, char *value, size_t len)
{
    if (!pmi.up)
        return not_up();
    int rc = check_kv(key, NULL);
    if (rc)
        return rc;
    if (pmi.singleton) {
        if (strcmp(key, "PMI_process_mapping") == 0)
            return copy_value(key, "(vector,(0,1,1))", value, len);
        for (local_kv_t *kv = pmi.local; kv; kv = kv->next)
            if (strcmp(kv->key, key) == 0)
                return copy_value(key, kv->val, value, len);
        return xb_err_set(XB_ERR_OTHER, "PMI key '%s' was never put", key);
    }
    if (pmi.v2)
        return xb_pmi2c_get(key, value, len);
    xb_pmiw_out_t o;
    xb_pmiw_msg_t m;
    xb_pmiw_begin(&o, "get");
    xb_pmiw_add(&o, "kvsname", pmi.kvsname);
    xb_pmiw_add(&o, "key", key);
    rc = exchange(&o, "get", "get_result", &m);
    if (rc)
        return rc;
    if (xb_pmiw_rc(&m) != 0)
        return xb_err_set(XB_ERR_OTHER, "PMI key '%s' is not in the launcher's KVS (%s)", key,
                          xb_pmiw_get(&m, "msg") ? xb_pmiw_get(&m, "msg") : "no reason given");
    return copy_value(key, xb_pmiw_get(&m, "value"), value, len);
}

int xb_pmi_fence(void)
{
    if (!pmi.up)
        return not_up();
    if (pmi.singleton)
        return XB_OK;
    if (pmi.v2)
        return xb_pmi2c_fence();
    xb_pmiw_msg_t m;
    return simple_query("barrier_in", "barrier_out", &m);
}

int xb_pmi_finalize(void)
{
    if (!pmi.up)
        return not_up();
    int rc = XB_OK;
    if (!pmi.singleton) {
        xb_pmiw_msg_t m;
        rc = pmi.v2 ? xb_pmi2c_finalize() : simple_query("finalize", "finalize_ack", &m);
        close(pmi.fd);
        pmi.fd = -1;
    }
    while (pmi.local) {
        local_kv_t *kv = pmi.local;
        pmi.local = kv->next;
        free(kv->key);
        free(kv->val);
        free(kv);
    }
    pmi.up = false;
    return rc;
}

void xb_pmi_abort(int code, const char *msg)
{
    if (pmi.fd < 0 || pmi.singleton)
        return;
    if (pmi.v2) {
        xb_pmi2c_abort(code, msg);
        return;
    }
    char enc[XB_PMIW_VAL_MAX + 1];
    xb_pmiw_out_t o;
    xb_pmiw_begin(&o, "abort");
    xb_pmiw_add_int(&o, "exitcode", code);
    if (msg && msg[0]) {
        xb_pmiw_pct_encode(msg, enc, 512);
        xb_pmiw_add(&o, "message", enc);
    }
    if (xb_pmiw_end(&o, NULL, 0) == 0)
        (void)send_line(o.buf, o.len, "abort");
}

/* ---- PMI_process_mapping ----------------------------------------------- */

/* Reads "(a,b,c)" at *pp; advances past it. */
static int parse_triple(const char **pp, long t[3])
{
    const char *p = *pp;
    if (*p++ != '(')
        return -1;
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        t[i] = strtol(p, &end, 10);
        if (end == p || errno || t[i] < 0 || t[i] > 0x7fffffff)
            return -1;
        p = end;
        if (*p++ != (i < 2 ? ',' : ')'))
            return -1;
    }
    *pp = p;
    return 0;
}

int xb_pmi_parse_mapping(const char *map, int size, uint32_t *node_of, int *nnodes_p)
{
    enum { MAX_TRIPLES = 256 };
    long tr[MAX_TRIPLES][3];
    int nt = 0;
    const char *p = map;
    if (!map || strncmp(p, "(vector", 7) != 0 || size < 1)
        goto err_syntax;
    p += 7;
    while (*p == ',') {
        p++;
        if (nt == MAX_TRIPLES || parse_triple(&p, tr[nt]))
            goto err_syntax;
        nt++;
    }
    if (*p++ != ')' || *p != '\0' || nt == 0)
        goto err_syntax;
    long covered = 0;
    for (int i = 0; i < nt; i++)
        covered += tr[i][1] * tr[i][2];
    if (covered == 0)
        goto err_syntax;
    long maxnode = -1;
    int r = 0;
    while (r < size)                     /* the triples repeat (see spec) */
        for (int i = 0; i < nt && r < size; i++)
            for (long n = 0; n < tr[i][1] && r < size; n++)
                for (long k = 0; k < tr[i][2] && r < size; k++) {
                    long node = tr[i][0] + n;
                    node_of[r++] = (uint32_t)node;
                    if (node > maxnode)
                        maxnode = node;
                }
    *nnodes_p = (int)(maxnode + 1);
    return XB_OK;

err_syntax:
    return xb_err_set(XB_ERR_OTHER, "PMI_process_mapping '%.100s' is not of the form "
                      "(vector,(start,nodes,ranks_per_node),...)", map ? map : "(null)");
}
