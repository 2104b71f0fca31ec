/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * fake_rt.c - see fake_rt.h. Test code only: nothing here is fast or general.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fake_rt.h"
#include "method/method.h"
#include "runtime/tunable.h"

enum { KVS_SLOTS = 8, KEY_MAX = 64, VAL_MAX = 1024, MAXP = 64 };

typedef struct {
    struct { char key[KEY_MAX]; char val[VAL_MAX]; } slot[MAXP][KVS_SLOTS];
    int nslot[MAXP];
    unsigned arrived, generation;
} fake_shared_t;

static fake_shared_t *shared;
static int nprocs_all;
static xb_rt_info_t info;
static uint32_t node_of[MAXP];
static int local_ranks[MAXP];
static char err_buf[512];
int xb_log_levels[XB_LOG_NSUB];

void fake_rt_setup(int nprocs)
{
    shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED || nprocs > MAXP)
        abort();
    nprocs_all = nprocs;
}

void fake_rt_child(int rank, int size, int per_node, int jobseg_fd)
{
    memset(&info, 0, sizeof(info));
    info.rank = rank;
    info.size = size;
    info.universe_size = size;
    info.nnodes = (size + per_node - 1) / per_node;
    for (int r = 0; r < size; r++)
        node_of[r] = (uint32_t)(r / per_node);
    info.node_of = node_of;
    info.my_node = node_of[rank];
    for (int r = 0; r < size; r++)
        if (node_of[r] == info.my_node) {
            if (r == rank)
                info.local_rank = info.local_size;
            local_ranks[info.local_size++] = r;
        }
    info.local_ranks = local_ranks;
    info.jobseg_fd = jobseg_fd;
    snprintf(info.host, sizeof(info.host), "fakehost%u", info.my_node);
    snprintf(info.kvsname, sizeof(info.kvsname), "fake");
}

xb_rt_info_t *fake_rt_info(void) { return &info; }
const xb_rt_info_t *xb_rt(void) { return &info; }

int xb_rt_kvs_put(const char *key, const char *value)
{
    int r = info.rank, n = shared->nslot[r];
    if (n == KVS_SLOTS || strlen(key) >= KEY_MAX || strlen(value) >= VAL_MAX)
        return xb_err_set(XB_ERR_OTHER, "fake KVS full or value too long");
    snprintf(shared->slot[r][n].key, KEY_MAX, "%s", key);
    snprintf(shared->slot[r][n].val, VAL_MAX, "%s", value);
    __atomic_store_n(&shared->nslot[r], n + 1, __ATOMIC_RELEASE);
    return XB_OK;
}

int xb_rt_kvs_get(int rank_hint, const char *key, char *value, size_t len)
{
    (void)rank_hint;
    for (int r = 0; r < nprocs_all; r++) {
        int n = __atomic_load_n(&shared->nslot[r], __ATOMIC_ACQUIRE);
        for (int i = 0; i < n; i++)
            if (strcmp(shared->slot[r][i].key, key) == 0) {
                snprintf(value, len, "%s", shared->slot[r][i].val);
                return XB_OK;
            }
    }
    return xb_err_set(XB_ERR_OTHER, "fake KVS has no key %s", key);
}

static bool fence_progress;
void fake_rt_fence_progress(bool on) { fence_progress = on; }

int xb_rt_fence(void)
{
    unsigned gen = __atomic_load_n(&shared->generation, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&shared->arrived, 1, __ATOMIC_ACQ_REL) == (unsigned)info.size) {
        __atomic_store_n(&shared->arrived, 0, __ATOMIC_RELAXED);
        __atomic_add_fetch(&shared->generation, 1, __ATOMIC_RELEASE);
    } else {
        while (__atomic_load_n(&shared->generation, __ATOMIC_ACQUIRE) == gen) {
            /* Unlike a PMI fence, keep the methods going: the tcp method may
             * still hold a message the others wait for before they arrive
             * (its sends return XB_OK once copied to its queue). */
            if (fence_progress)
                xb_method_progress_all();
            sched_yield();
        }
    }
    return XB_OK;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Same format as src/runtime/rt_kvs.c: "<method>:<hex>[,...]". */
int xb_rt_peer_addr(int rank, const char *method, void *buf, size_t *len_p)
{
    char key[64], val[VAL_MAX];
    size_t mlen = strlen(method);
    snprintf(key, sizeof(key), "xb-addr-%d", rank);
    int rc = xb_rt_kvs_get(rank, key, val, sizeof(val));
    if (rc != XB_OK)
        return rc;
    for (const char *p = val; *p != '\0';) {
        size_t n = strcspn(p, ",");
        if (n > mlen && p[mlen] == ':' && strncmp(p, method, mlen) == 0) {
            size_t blen = (n - mlen - 1) / 2;
            if (blen > *len_p)
                return xb_err_set(XB_ERR_OTHER, "address too long");
            for (size_t i = 0; i < blen; i++)
                ((unsigned char *)buf)[i] = (unsigned char)(hexval(p[mlen + 1 + 2 * i]) << 4 |
                                                            hexval(p[mlen + 2 + 2 * i]));
            *len_p = blen;
            return XB_OK;
        }
        p += n + (p[n] == ',');
    }
    return xb_err_set(XB_ERR_OTHER, "rank %d published no %s address", rank, method);
}

int xb_err_set(int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_buf, sizeof(err_buf), fmt, ap);
    va_end(ap);
    return rc;
}

int xb_err_sys(int rc, int errnum, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err_buf, sizeof(err_buf), fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof(err_buf))
        snprintf(err_buf + n, sizeof(err_buf) - (size_t)n, ": %s", strerror(errnum));
    return rc;
}

void xb_rt_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "crossbar: rank %d on %s: ", info.rank, info.host);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    _exit(1);
}

const char *xb_err_detail(void) { return err_buf; }
void xb_err_clear(void) { err_buf[0] = '\0'; }

void xb_log_msg(enum xb_log_sub sub, enum xb_log_level lvl, const char *fmt, ...)
{
    va_list ap;
    (void)sub;
    (void)lvl;
    va_start(ap, fmt);
    fprintf(stderr, "[rank %d] ", info.rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- tunables: defaults, then XB_<NAME> from the environment ------------- */
extern xb_tunable_t __start_xb_tunables[], __stop_xb_tunables[];

static int parse(xb_tunable_t *t, const char *s)
{
    char *end;
    switch (t->type) {
    case XB_TT_BOOL:
        t->v.b = strcmp(s, "1") == 0 || strcmp(s, "on") == 0 || strcmp(s, "yes") == 0 ||
                 strcmp(s, "true") == 0;
        return XB_OK;
    case XB_TT_STRING:
        t->v.s = s;
        return XB_OK;
    case XB_TT_INT:
        t->v.i = strtoll(s, &end, 0);
        return XB_OK;
    case XB_TT_SIZE: {
        unsigned long long v = strtoull(s, &end, 0);
        if (*end == 'k' || *end == 'K') v <<= 10;
        if (*end == 'm' || *end == 'M') v <<= 20;
        if (*end == 'g' || *end == 'G') v <<= 30;
        t->v.size = (size_t)v;
        return XB_OK;
    }
    }
    return XB_ERR_ARG;
}

int xb_tunables_init(void)
{
    for (xb_tunable_t *t = __start_xb_tunables; t < __stop_xb_tunables; t++) {
        char env[128];
        parse(t, t->defval);
        snprintf(env, sizeof(env), "XB_%s", t->name);
        const char *e = getenv(env);
        if (e != NULL) {
            parse(t, e);
            t->source = "environment";
        }
    }
    return XB_OK;
}
