/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * tcp_foreign.c - processes of other jobs (dynamic processes, src/dpm).
 *
 * A job is known by its key: a hash of its secret (every process of a job
 * has the same secret, from the launcher or from rank 0's address blob).
 * The dpm exchange hands each side the other's address blobs WITH the
 * secret (xb_tcp_dpm_blob), so a connector can prove to a process of
 * another job that it was told about it: its hello ("XBTCPX1") carries
 * the acceptor's secret, its own job key and rank.
 *
 * A foreign hello can arrive before the acceptor has added the connector to
 * its peer table (the connector's side learnt the descriptions first): the
 * accepted socket is then parked, and xb_tcp_foreign() adopts it when the
 * peer is added; the usual hello deadline closes it otherwise.
 */
#include <stdlib.h>
#include <string.h>
#include "method/tcp/tcp.h"

const char xb_tcp_hello_magic_x[8] = "XBTCPX1";

void xb_tcp_job_key_set(xb_tcp_t *st)
{
    uint64_t h = 1469598103934665603ull;          /* FNV-1a, 64 bits */
    for (int i = 0; i < XB_TCP_SECRET_LEN; i++)
        h = (h ^ st->secret[i]) * 1099511628211ull;
    st->job_key = h != 0 ? h : 1;
}

uint64_t xb_tcp_job_key(void)
{
    return xb_tcp.job_key;
}

int xb_tcp_dpm_blob(void *buf, size_t *len_p)
{
    xb_tcp_t *st = &xb_tcp;
    if (st->m == NULL || *len_p < sizeof(xb_tcp_addr_t))
        return xb_err_set(XB_ERR_INTERN, "tcp address blob does not fit (%zu bytes)",
                          *len_p);
    int rc = st->m->ops->addr_pack(st->m, buf, len_p);
    if (rc != XB_OK)
        return rc;
    xb_tcp_addr_t *a = buf;
    a->has_secret = 1;
    memcpy(a->secret, st->secret, sizeof(a->secret));
    return XB_OK;
}

static int grow(xb_tcp_t *st, int n)
{
    if (n <= st->npeers)
        return XB_OK;
    tcp_peer_t **t = realloc(st->peers, (size_t)n * sizeof(*t));
    if (t == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for %d tcp peers", n);
    for (int i = st->npeers; i < n; i++)
        t[i] = NULL;
    st->peers = t;
    st->npeers = n;
    return XB_OK;
}

/* A parked hello from the process just added: adopt its socket now. */
static void unpark(xb_tcp_t *st, const tcp_peer_t *p)
{
    tcp_accept_t *a = st->accepts;
    while (a != NULL) {
        tcp_accept_t *next = a->next;
        uint64_t job = (uint64_t)a->hello.size | (uint64_t)a->hello.pad << 32;
        if (a->parked && job == p->fid.job && a->hello.src == p->fid.rank)
            xb_tcp_hello_valid(st, a, p->rank);
        a = next;
    }
}

int xb_tcp_foreign(int rank, const xb_proc_id_t *id, const void *blob, size_t len)
{
    xb_tcp_t *st = &xb_tcp;
    const xb_tcp_addr_t *a = blob;
    if (len != sizeof(*a) || a->version != TCP_ADDR_VERSION ||
        a->naddr > XB_TCP_MAX_ADDRS || a->naddr == 0 || !a->has_secret)
        return xb_err_set(XB_ERR_OTHER, "rank %u of job %016llx sent a tcp address "
                          "this process cannot use (%zu bytes)", id->rank,
                          (unsigned long long)id->job, len);
    int rc = grow(st, rank + 1);
    if (rc != XB_OK)
        return rc;
    tcp_peer_t *p = xb_tcp_peer(st, rank);
    if (p == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "no memory for a tcp peer");
    memcpy(&p->addr, a, sizeof(*a));
    p->addr.host[XB_TCP_HOST_LEN - 1] = '\0';
    p->addr_ok = true;
    p->foreign = true;
    p->fid = *id;
    unpark(st, p);
    return XB_OK;
}

/* An accepted socket's hello has the foreign magic and is complete. */
void xb_tcp_hello_foreign(xb_tcp_t *st, tcp_accept_t *a)
{
    const tcp_hello_t *h = &a->hello;
    uint64_t job = (uint64_t)h->size | (uint64_t)h->pad << 32;
    if (!xb_tcp_secret_ok(h->secret, st->secret)) {
        xb_tcp_accept_close(st, a, "wrong job secret (another job's connection)");
        return;
    }
    if (h->dst != (uint32_t)st->rt->rank || job == st->job_key) {
        xb_tcp_accept_close(st, a, "a hello of another job for another rank");
        return;
    }
    int x = xb_peer_find_foreign(job, h->src);
    if (x < 0) {
        a->parked = true;          /* its peer entry comes with the dpm exchange */
        return;
    }
    xb_tcp_hello_valid(st, a, x);
}

int xb_method_contact_addrs(struct sockaddr_storage *out, int max)
{
    xb_tcp_t *st = &xb_tcp;
    if (st->m == NULL || !st->m->enabled)
        return 0;
    int n = 0;
    for (int i = 0; i < st->nlis && n < max; i++)
        out[n++] = st->lis[i].sa;
    return n;
}

int xb_tcp_mcast_if(struct in_addr *addr)
{
    const xb_tcp_t *st = &xb_tcp;
    int loop = -1;
    for (int i = 0; st->m != NULL && i < st->nlis; i++) {
        const struct sockaddr *sa = (const struct sockaddr *)&st->lis[i].sa;
        if (sa->sa_family != AF_INET)
            continue;
        if (!xb_tcp_sa_loopback(sa)) {
            *addr = ((const struct sockaddr_in *)sa)->sin_addr;
            return XB_OK;
        }
        if (loop < 0)
            loop = i;
    }
    if (loop < 0)
        return xb_err_set(XB_ERR_OTHER, "tcp listens on no IPv4 address "
                          "(multicast is IPv4 only)");
    *addr = ((const struct sockaddr_in *)&st->lis[loop].sa)->sin_addr;
    return XB_OK;
}

int xb_tcp_epoll_fd(void)
{
    return xb_tcp.m != NULL && xb_tcp.m->priv != NULL ? xb_tcp.epfd : -1;
}
