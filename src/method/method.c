/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * method.c - the method registry: which methods exist, in which order the
 * peer rule tries them, their init/ready/fini, the address blob of a rank,
 * polling and sleeping across methods, and the text crossbar-info prints.
 *
 * Order. The registry lists the methods in the default rule order (self, shm,
 * tcp). XB_METHODS (e.g. "shm,self") restricts the methods to those it
 * names and orders the rule by it. `self` always serves the process itself,
 * whatever XB_METHODS says: a forced-method run (XB_METHODS=tcp) must still
 * let a rank send to itself.
 *
 * Address. The blobs of all enabled methods of a rank go under one KVS key,
 * "xb-addr-<rank>" = "<method>:<hex>[,<method>:<hex>...]", the format that
 * xb_rt_peer_addr() (src/runtime/rt_kvs.c) decodes.
 *
 * Polling by cost (the I-WAY lesson: a select() polled as often as a
 * shared-memory flag taxes the cheap method). Cheap methods (self, shm) are
 * polled on every call. A method with XB_METHOD_CAP_POLL_COSTLY (tcp: an
 * epoll_wait syscall) is polled every XB_TCP_POLL_IDLE calls when the cheap
 * ones found nothing, every XB_TCP_POLL_BUSY calls while they are busy, on
 * every call when no peer uses a cheap method (a tcp-only job), and never
 * when no peer uses it (a one-node job pays nothing for tcp; a stranger's
 * connection then waits in the listen backlog until finalize closes it).
 * While a costly method has found nothing for a millisecond it is polled
 * only every XB_TCP_POLL_QUIET calls (and at once again when it has
 * something to send: xb_method_costly_active).
 *
 * Sleeping. With one sleeping method in use, block() sleeps in it (shm: the
 * futex; tcp: epoll_wait). With both shm and tcp peers, a sleep on the shm
 * futex cannot see a socket, so it sleeps in shm for at most
 * XB_TCP_MIXED_SLEEP_MS and then looks at the sockets without waiting.
 */
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "method/method_int.h"
#include "method/mcast/mcast.h"
#include "runtime/tunable.h"
#include "util/xb_mt.h"
#include "util/xb_lanes.h"

XB_TUNABLE_DECL(PROGRESS_CONTEXTS);

XB_TUNABLE(METHODS, XB_TT_STRING, "self,shm,tcp", XB_TL_USER,
           "Methods allowed, in the order the per-peer rule tries them "
           "(comma-separated; self always serves the process itself; "
           "XB_METHODS=tcp forces tcp between ranks of one node)");
XB_TUNABLE(TCP_POLL_IDLE, XB_TT_INT, "8", XB_TL_TUNER,
           "Poll the sockets every Nth progress call while shared memory is idle");
XB_TUNABLE(TCP_POLL_BUSY, XB_TT_INT, "64", XB_TL_TUNER,
           "Poll the sockets every Nth progress call while shared memory has traffic");
/* 1024: with idle tcp peers, 8-byte shm latency was 0.27-0.42 us against
 * 0.14-0.17 us without them when the sockets were polled every 8th call
 * (an empty epoll_wait costs ~0.3 us; 2 network namespaces, 2026-11-24). */
XB_TUNABLE(TCP_POLL_QUIET, XB_TT_INT, "1024", XB_TL_TUNER,
           "Poll the sockets every Nth progress call while no tcp message arrived in the "
           "last millisecond (a job whose shared-memory traffic must not pay for idle sockets)");
XB_TUNABLE_LIVE(TCP_MIXED_SLEEP_MS, XB_TT_INT, "1", XB_TL_TUNER,
           "With shm and tcp peers, longest sleep on the shm futex before the "
           "sockets are looked at", NULL);

static xb_method_t registry[XB_METHOD_NREG] = {
    [XB_METHOD_SELF] = { .ops = &xb_self_ops },
    [XB_METHOD_SHM]  = { .ops = &xb_shm_ops },
    [XB_METHOD_TCP]  = { .ops = &xb_tcp_ops },
};
static uint8_t order[XB_METHOD_NREG];
static int norder;
static bool allowed[XB_METHOD_NREG];
static const xb_rt_info_t *method_rt;
static int blockable = -1;          /* index of the method that sleeps */
static int blockable2 = -1;         /* a second one in use (mixed jobs)  */
/* The polling plan (plan_polling): the cheap methods polled on every call,
 * in a compact array so that an empty poll is a few loads; the costly ones
 * with their countdowns (idle: the cheap ones found nothing; busy: they did). */
static xb_method_t *cheap_poll[XB_METHOD_NREG];
static int ncheap_poll;
static struct {
    xb_method_t *m;
    int every_idle, every_busy, countdown;
    int every_quiet;                /* 0: poll on every call (no cheap peers) */
    uint64_t last_active;           /* clock of the last poll that found work */
} costly_poll[XB_METHOD_NREG];
/* A costly method that moved something less than ACTIVE_NS ago is polled
 * every_idle/every_busy calls, else every_quiet calls: a burst of tcp
 * traffic keeps it at the short period, a rank whose tcp peers are silent
 * (shm ping-pong in a job spanning hosts) pays for the sockets rarely. */
#define ACTIVE_NS ((uint64_t)1000000)
static int ncostly_poll;
static int nodebar = -1;            /* index of the method with a node barrier */

/* Each local rank's sleep word (node_sleep_word), filled when the methods
 * are ready, NULL past the last: skipping the call through the method for
 * a reader that is awake saves about 40 instructions per wake, and a small
 * collective's writer wakes every reader (callgrind, 2026-12-06). */
enum { SLEEP_WORDS = 256 };
static const uint32_t *sleep_word[SLEEP_WORDS];

static void sleep_words_fill(void)
{
    memset(sleep_word, 0, sizeof sleep_word);
    xb_method_t *m = nodebar >= 0 ? &registry[nodebar] : NULL;
    if (m == NULL || m->ops->node_wake == NULL || m->ops->node_sleep_word == NULL)
        return;
    for (int l = 0; l < SLEEP_WORDS; l++)
        if ((sleep_word[l] = m->ops->node_sleep_word(m, l)) == NULL)
            break;
}

enum { ADDR_BLOB_MAX = 256 };

size_t xb_method_bprintf(char *buf, size_t len, size_t off, const char *fmt, ...)
{
    if (off >= len)
        return off;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + off, len - off, fmt, ap);
    va_end(ap);
    if (n < 0)
        return off;
    off += (size_t)n;
    return off < len ? off : len - 1;
}

static int find_method(const char *name, size_t n)
{
    for (int i = 0; i < XB_METHOD_NREG; i++)
        if (strlen(registry[i].ops->name) == n &&
            strncmp(registry[i].ops->name, name, n) == 0)
            return i;
    return -1;
}

/* Parse XB_METHODS into order[] and allowed[]. */
static int parse_methods(void)
{
    const char *s = xb_tn_METHODS.v.s;
    norder = 0;
    memset(allowed, 0, sizeof(allowed));
    if (s == NULL || *s == '\0')
        s = xb_tn_METHODS.defval;
    for (const char *p = s; *p != '\0';) {
        size_t n = strcspn(p, ", ");
        if (n > 0) {
            int idx = find_method(p, n);
            if (idx < 0)
                return xb_err_set(XB_ERR_ARG, "XB_METHODS names an unknown method "
                                  "'%.*s' (known: self, shm, tcp)", (int)n, p);
            if (!allowed[idx]) {
                allowed[idx] = true;
                order[norder++] = (uint8_t)idx;
            }
        }
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    if (norder == 0)
        return xb_err_set(XB_ERR_ARG, "XB_METHODS='%s' allows no method", s);
    return XB_OK;
}

int xb_method_order(const uint8_t **order_p)
{
    *order_p = order;
    return norder;
}

const xb_rt_info_t *xb_method_rt(void)
{
    return method_rt;
}

static void hex_append(char *dst, const unsigned char *src, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = digits[src[i] >> 4];
        dst[2 * i + 1] = digits[src[i] & 15];
    }
    dst[2 * n] = '\0';
}

/* Before the peer table exists: poll every enabled method on every call. */
static void plan_polling_all(void)
{
    ncheap_poll = ncostly_poll = 0;
    for (int i = 0; i < XB_METHOD_NREG; i++) {
        xb_method_t *m = &registry[i];
        if (!m->enabled)
            continue;
        if (m->caps.flags & XB_METHOD_CAP_POLL_COSTLY)
            costly_poll[ncostly_poll++] = (typeof(costly_poll[0])){ m, 1, 1, 1, 0, 0 };
        else
            cheap_poll[ncheap_poll++] = m;
    }
}

/* "xb-addr-<rank>" = "self:,shm:0a0b..." (only enabled methods). */
static int publish_addr(const xb_rt_info_t *rt)
{
    char val[1024], key[64];
    size_t off = 0;
    val[0] = '\0';
    for (int i = 0; i < XB_METHOD_NREG; i++) {
        xb_method_t *m = &registry[i];
        unsigned char blob[ADDR_BLOB_MAX];
        size_t blen = sizeof(blob);
        if (!m->enabled || m->ops->addr_pack == NULL)
            continue;
        int rc = m->ops->addr_pack(m, blob, &blen);
        if (rc != XB_OK)
            return rc;
        size_t nlen = strlen(m->ops->name);
        if (off + nlen + 2 + 2 * blen + 1 > sizeof(val))
            return xb_err_set(XB_ERR_INTERN, "method addresses exceed %zu bytes",
                              sizeof(val));
        off += (size_t)sprintf(val + off, "%s%s:", off ? "," : "", m->ops->name);
        hex_append(val + off, blob, blen);
        off += 2 * blen;
    }
    snprintf(key, sizeof(key), "xb-addr-%d", rt->rank);
    return xb_rt_kvs_put(key, val);
}

int xb_method_init_all(const struct xb_rt_info *rt)
{
    int rc = parse_methods();
    if (rc != XB_OK)
        return rc;
    long nctx = xb_tn_PROGRESS_CONTEXTS.v.i;
    if (nctx < 1 || nctx > XB_LANES_MAX)
        return xb_err_set(XB_ERR_OTHER, "XB_PROGRESS_CONTEXTS=%ld: the number of progress "
                          "contexts must be from 1 to %d", nctx, XB_LANES_MAX);
    xb_mt_lanes_setup((int)nctx);       /* the methods build channels for them */
    method_rt = rt;
    allowed[XB_METHOD_SELF] = true;       /* always serves the process itself */
    for (int i = 0; i < XB_METHOD_NREG; i++) {
        xb_method_t *m = &registry[i];
        const char *why = NULL;
        m->enabled = false;
        m->priv = NULL;
        if (!allowed[i]) {
            m->why_off = "excluded by XB_METHODS";
            continue;
        }
        if (m->ops->init(m, rt, &why) != XB_OK) {
            m->why_off = why != NULL ? why : "init failed";
            xb_log(XB_LOG_METHOD, XB_LOG_INFO, "method %s off: %s",
                   m->ops->name, m->why_off);
            xb_err_clear();
            continue;
        }
        m->enabled = true;
        m->why_off = NULL;
    }
    plan_polling_all();
    return publish_addr(rt);
}

/* After the peer table: which methods sleep, how often costly ones poll. */
void xb_method_plan_polling(void)
{
    bool cheap_used = false;
    blockable = blockable2 = -1;
    ncheap_poll = ncostly_poll = 0;
    for (int i = 0; i < XB_METHOD_NREG; i++)
        if (registry[i].enabled && xb_peer_count(i) > 0 &&
            !(registry[i].caps.flags & XB_METHOD_CAP_POLL_COSTLY))
            cheap_used = true;
    for (int i = 0; i < XB_METHOD_NREG; i++) {
        xb_method_t *m = &registry[i];
        bool used = m->enabled && xb_peer_count(i) > 0;
        bool costly = (m->caps.flags & XB_METHOD_CAP_POLL_COSTLY) != 0;
        long idle = costly ? xb_tn_TCP_POLL_IDLE.v.i : 1;
        long busy = costly ? xb_tn_TCP_POLL_BUSY.v.i : 1;
        idle = idle < 1 ? 1 : idle;
        busy = busy < 1 ? 1 : busy;
        long quiet = xb_tn_TCP_POLL_QUIET.v.i < busy ? busy : xb_tn_TCP_POLL_QUIET.v.i;
        if (costly && !cheap_used)
            idle = busy = 1, quiet = 0;
        if (m->enabled && !costly)
            cheap_poll[ncheap_poll++] = m;
        else if (m->enabled && used)     /* a costly one nobody uses: never */
            costly_poll[ncostly_poll++] =
                (typeof(costly_poll[0])){ m, (int)idle, (int)busy, (int)idle,
                                          (int)quiet, 0 };
        if (m->enabled && m->ops->block != NULL && used) {
            if (blockable < 0)
                blockable = i;
            else if (blockable2 < 0)
                blockable2 = i;
        }
    }
    if (blockable < 0)              /* alone, or only self: shm naps alone */
        for (int i = 0; i < XB_METHOD_NREG && blockable < 0; i++)
            if (registry[i].enabled && registry[i].ops->block != NULL &&
                !(registry[i].caps.flags & XB_METHOD_CAP_POLL_COSTLY))
                blockable = i;
}

int xb_method_ready_all(void)
{
    if (method_rt == NULL)
        return xb_err_set(XB_ERR_INTERN, "methods made ready before init");
    blockable = -1;
    nodebar = -1;
    for (int i = 0; i < XB_METHOD_NREG; i++) {
        xb_method_t *m = &registry[i];
        if (!m->enabled || m->ops->ready == NULL)
            continue;
        int rc = m->ops->ready(m);
        if (rc != XB_OK)
            return rc;
        if (m->ops->node_arrive != NULL && nodebar < 0)
            nodebar = i;
    }
    sleep_words_fill();
    int rc = xb_peer_table_init(method_rt);
    if (rc == XB_OK)
        xb_method_plan_polling();
    return rc;
}

void xb_method_fini_all(void)
{
    xb_peer_table_fini();
    for (int i = XB_METHOD_NREG - 1; i >= 0; i--) {
        xb_method_t *m = &registry[i];
        if (m->enabled && m->ops->fini != NULL)
            m->ops->fini(m);
        m->enabled = false;
    }
    blockable = blockable2 = -1;
    nodebar = -1;
    sleep_words_fill();
    method_rt = NULL;
}

int xb_method_count(void)
{
    return XB_METHOD_NREG;
}

xb_method_t *xb_method_get(int idx)
{
    if (idx < 0 || idx >= XB_METHOD_NREG)
        return NULL;
    return &registry[idx];
}

static XB_NOINLINE int poll_costly(int n)
{
    for (int k = 0; k < ncostly_poll; k++) {
        if (--costly_poll[k].countdown > 0)
            continue;
        xb_method_t *m = costly_poll[k].m;
        int got = m->ops->progress(m);
        if (costly_poll[k].every_quiet == 0) {          /* no cheap peers */
            costly_poll[k].countdown = 1;
        } else {
            uint64_t t = xb_now_ns();       /* beside a syscall: cheap here */
            if (got > 0)
                costly_poll[k].last_active = t;
            costly_poll[k].countdown = t - costly_poll[k].last_active >= ACTIVE_NS
                                           ? costly_poll[k].every_quiet
                                       : n == 0 ? costly_poll[k].every_idle
                                                : costly_poll[k].every_busy;
        }
        n += got;
    }
    return n;
}

void xb_method_costly_due(void)
{
    for (int k = 0; k < ncostly_poll; k++)
        costly_poll[k].countdown = 1;
}

void xb_method_costly_active(void)
{
    uint64_t t = 0;
    for (int k = 0; k < ncostly_poll; k++) {
        if (costly_poll[k].every_quiet == 0)
            continue;                   /* polled on every call anyway */
        if (t == 0)
            t = xb_now_ns();
        costly_poll[k].last_active = t;
        if (costly_poll[k].countdown > costly_poll[k].every_idle)
            costly_poll[k].countdown = costly_poll[k].every_idle;
    }
}

int xb_method_progress_all(void)
{
    int n = 0;
    for (int k = 0; k < ncheap_poll; k++)
        n += cheap_poll[k]->ops->progress(cheap_poll[k]);
    if (XB_LIKELY(ncostly_poll == 0))
        return n;
    return poll_costly(n);
}

/* The same for the main context's poll when lanes exist (progress.c): a
 * second caller of xb_method_progress_all would stop link-time inlining
 * of it into the one-context poll (+38 instructions a ping-pong round,
 * callgrind, 2026-11-24). */
int xb_method_progress_main(void)
{
    int n = 0;
    for (int k = 0; k < ncheap_poll; k++)
        n += cheap_poll[k]->ops->progress(cheap_poll[k]);
    return ncostly_poll == 0 ? n : poll_costly(n);
}

bool xb_method_has_node_barrier(void) { return nodebar >= 0; }

uint32_t xb_method_node_arrive(bool wait)
{
    xb_method_t *m = &registry[nodebar];
    return m->ops->node_arrive(m, wait);
}

void *xb_method_node_slot(int area, int local, size_t *size)
{
    *size = 0;
    if (nodebar < 0 || registry[nodebar].ops->node_slot == NULL)
        return NULL;
    return registry[nodebar].ops->node_slot(&registry[nodebar], area, local, size);
}

void xb_method_node_wake(int local)
{
    const uint32_t *w = (unsigned)local < SLEEP_WORDS ? sleep_word[local] : NULL;
    if (XB_LIKELY(w != NULL) && __atomic_load_n(w, __ATOMIC_RELAXED) == 0)
        return;                 /* awake: it sees the writer's store itself */
    if (nodebar >= 0 && registry[nodebar].ops->node_wake != NULL)
        registry[nodebar].ops->node_wake(&registry[nodebar], local);
}

void xb_method_node_fence(void)
{
    if (nodebar >= 0 && registry[nodebar].ops->node_fence != NULL)
        registry[nodebar].ops->node_fence(&registry[nodebar]);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static bool (*node_watch)(void);

void xb_method_set_node_watch(bool (*ready)(void)) { node_watch = ready; }

bool xb_method_node_watch(void)
{
    return node_watch != NULL && node_watch();
}

bool xb_method_node_released(uint32_t ticket)
{
    xb_method_t *m = &registry[nodebar];
    return m->ops->node_released(m, ticket);
}

bool xb_method_crowded(void)
{
    for (int i = 0; i < XB_METHOD_NREG; i++) {
        xb_method_t *m = &registry[i];
        if (m->enabled && m->ops->crowded != NULL && m->ops->crowded(m))
            return true;
    }
    return false;
}

void xb_method_wake(void)
{
    if (blockable >= 0 && registry[blockable].ops->wake != NULL)
        registry[blockable].ops->wake(&registry[blockable]);
}

bool xb_method_can_wake(void)
{
    return blockable >= 0 && registry[blockable].ops->wake != NULL;
}

void xb_method_block(int timeout_ms)
{
    if (blockable >= 0 && blockable2 >= 0 && xb_mt_on) {
        /* MPI_THREAD_MULTIPLE: no lock here, so only sleep, in a slice of
         * the cheap method; the caller polls both. */
        xb_method_t *a = &registry[blockable];
        int slice = (int)xb_tn_TCP_MIXED_SLEEP_MS.v.i;
        a->ops->block(a, slice < 1 ? 1 : slice < timeout_ms ? slice : timeout_ms);
        return;
    }
    if (blockable >= 0 && blockable2 >= 0) {
        /* shm (first in rule order) and tcp: sleep on the futex in slices,
         * then look at the sockets without waiting. */
        xb_method_t *a = &registry[blockable], *b = &registry[blockable2];
        int slice = (int)xb_tn_TCP_MIXED_SLEEP_MS.v.i, left = timeout_ms;
        if (slice < 1)
            slice = 1;
        do {
            a->ops->block(a, left < slice ? left : slice);
            if (a->ops->progress(a) > 0)
                return;
            if (b->ops->progress(b) > 0) {
                xb_method_costly_active();
                return;
            }
            left -= slice;
        } while (left > 0);
        return;
    }
    if (blockable >= 0) {
        xb_method_t *m = &registry[blockable];
        m->ops->block(m, timeout_ms);
        return;
    }
    /* Nothing can sleep on an event: nap briefly and let the caller poll. */
    struct timespec ts = { 0, (timeout_ms > 1 ? 1 : timeout_ms) * 1000000L };
    nanosleep(&ts, NULL);
}

int xb_method_operand;
int xb_method_exchange;

void xb_method_block_net(int fd, int timeout_ms)
{
    struct pollfd p[2];
    nfds_t n = 0;
    int epfd = xb_tcp_epoll_fd();
    if (epfd >= 0)
        p[n++] = (struct pollfd){ .fd = epfd, .events = POLLIN };
    if (fd >= 0)
        p[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
    if (n == 0) {
        xb_method_block(timeout_ms);
        return;
    }
    (void)poll(p, n, timeout_ms);
    xb_method_costly_due();         /* the next poll reads the sockets */
}

/* ---- crossbar-info --------------------------------------------------------- */

int xb_method_probe(int idx, const char **why)
{
    static const char *excluded = "excluded by XB_METHODS";
    *why = NULL;
    if (idx < 0 || idx >= XB_METHOD_NREG)
        return xb_err_set(XB_ERR_ARG, "no method with index %d", idx);
    if (parse_methods() == XB_OK && idx != XB_METHOD_SELF && !allowed[idx]) {
        *why = excluded;
        return XB_ERR_OTHER;
    }
    xb_err_clear();
    if (idx == XB_METHOD_SELF)
        return xb_self_probe(why);
    if (idx == XB_METHOD_TCP)
        return xb_tcp_probe(why);
    return xb_shm_probe(why);
}

static size_t describe_one(int idx, char *buf, size_t len, size_t off)
{
    xb_method_t *m = &registry[idx];
    const char *why = NULL;
    bool on;
    if (method_rt != NULL) {
        on = m->enabled;
        why = m->why_off;
    } else {
        on = xb_method_probe(idx, &why) == XB_OK;
        xb_err_clear();
    }
    off = xb_method_bprintf(buf, len, off, "%s: %s", m->ops->name, on ? "on" : "off");
    if (!on)
        return xb_method_bprintf(buf, len, off, ", %s\n", why ? why : "unavailable");
    if (method_rt != NULL) {
        const xb_method_caps_t *c = &m->caps;
        off = xb_method_bprintf(buf, len, off,
                                " (eager_max=%zu frag_max=%zu get_min=%zu caps=%s%s%s)",
                                c->eager_max, c->frag_max, c->get_min,
                                c->flags ? "" : "none",
                                (c->flags & XB_METHOD_CAP_GET) ? "get" : "",
                                (c->flags & XB_METHOD_CAP_SLEEP)
                                    ? ((c->flags & XB_METHOD_CAP_GET) ? ",sleep" : "sleep")
                                    : "");
    }
    if (idx == XB_METHOD_SHM || idx == XB_METHOD_TCP) {
        off = xb_method_bprintf(buf, len, off, "; ");
        if (idx == XB_METHOD_SHM)
            xb_shm_describe(m, buf, len);
        else
            xb_tcp_describe(m, buf, len);
        off = strlen(buf);
    }
    return xb_method_bprintf(buf, len, off, "\n");
}

int xb_method_describe_all(char *buf, size_t len)
{
    if (len == 0)
        return XB_ERR_ARG;
    buf[0] = '\0';
    size_t off = 0;
    const uint8_t *ord;
    int n = 0;
    if (parse_methods() == XB_OK) {
        n = xb_method_order(&ord);
        off = xb_method_bprintf(buf, len, off, "rule: self (the process itself)");
        for (int i = 0; i < n; i++)
            if (ord[i] != XB_METHOD_SELF)
                off = xb_method_bprintf(buf, len, off, " > %s%s",
                                        registry[ord[i]].ops->name,
                                        ord[i] == XB_METHOD_SHM ? " (same node)" :
                                        ord[i] == XB_METHOD_TCP ? " (any node)" : "");
        off = xb_method_bprintf(buf, len, off, "\n");
    } else {
        off = xb_method_bprintf(buf, len, off, "rule: invalid XB_METHODS: %s\n",
                                xb_err_detail());
        xb_err_clear();
    }
    for (int i = 0; i < XB_METHOD_NREG; i++)
        off = describe_one(i, buf, len, off);
    /* not a peer method: blocking broadcasts across nodes (src/method/mcast) */
    if (xb_mcast_is_open())
        off = xb_method_bprintf(buf, len, off, "mcast: on (bcast across nodes), %s\n",
                                xb_mcast_describe());
    else
        off = xb_method_bprintf(buf, len, off, "mcast: off (collectives only: XB_MCAST=1 "
                                "multicasts blocking broadcasts across nodes of a LAN)\n");
    return XB_OK;
}
