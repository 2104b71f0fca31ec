/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * rt_kvs.c - the KVS as the layers above see it, and peers' address blobs.
 *
 * The KVS is PMI's (a local table for a singleton, inside the PMI client).
 * Address blobs: the method layer publishes ONE key per rank,
 *     xb-addr-<rank> = <method>:<hex>[,<method>:<hex>...]
 * (hex: two lowercase digits per byte). xb_rt_peer_addr() fetches a rank's
 * value once, caches it, and decodes the blob of the named method.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/runtime.h"
#include "runtime/pmi_client.h"
#include "runtime/rt_internal.h"

enum { ADDR_VAL_MAX = 1024 };

static char **addr_cache;      /* [size], NULL until fetched */
static int    addr_cache_size;

int xb_rt_kvs_put(const char *key, const char *value)
{
    return xb_pmi_put(key, value);
}

int xb_rt_kvs_get(int rank_hint, const char *key, char *value, size_t len)
{
    (void)rank_hint;     /* PMI-1 has one KVS per job */
    return xb_pmi_get(key, value, len);
}

int xb_rt_fence(void)
{
    return xb_pmi_fence();
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static const char *fetch_addr(int rank)
{
    char key[64], *val;
    const xb_rt_info_t *info = xb_rt();

    if (addr_cache == NULL) {
        addr_cache = calloc((size_t)info->size, sizeof(*addr_cache));
        if (addr_cache == NULL)
            return NULL;
        addr_cache_size = info->size;
    }
    if (addr_cache[rank] != NULL)
        return addr_cache[rank];
    val = malloc(ADDR_VAL_MAX);
    if (val == NULL)
        return NULL;
    snprintf(key, sizeof(key), "xb-addr-%d", rank);
    if (xb_pmi_get(key, val, ADDR_VAL_MAX) != XB_OK) {
        free(val);
        return NULL;
    }
    addr_cache[rank] = val;
    return val;
}

int xb_rt_peer_addr(int rank, const char *method, void *buf, size_t *len_p)
{
    const xb_rt_info_t *info = xb_rt();
    size_t mlen = strlen(method);

    if (rank < 0 || rank >= info->size)
        return xb_err_set(XB_ERR_INTERN, "address of rank %d asked for; the "
                          "job has %d ranks", rank, info->size);
    const char *val = fetch_addr(rank);
    if (val == NULL) {
        if (xb_err_detail()[0] == '\0')
            xb_err_set(XB_ERR_NO_MEM, "no memory for the address of rank %d", rank);
        return XB_ERR_OTHER;
    }
    for (const char *p = val; *p != '\0';) {
        size_t n = strcspn(p, ",");
        if (n > mlen && p[mlen] == ':' && strncmp(p, method, mlen) == 0) {
            const char *hex = p + mlen + 1;
            size_t hlen = n - mlen - 1, blen = hlen / 2;
            if (hlen % 2 != 0 || blen > *len_p)
                return xb_err_set(XB_ERR_OTHER, "rank %d published a %s address "
                                  "of %zu hex digits; at most %zu bytes fit",
                                  rank, method, hlen, *len_p);
            for (size_t i = 0; i < blen; i++) {
                int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
                if (hi < 0 || lo < 0)
                    return xb_err_set(XB_ERR_OTHER, "rank %d published a "
                                      "malformed %s address", rank, method);
                ((unsigned char *)buf)[i] = (unsigned char)(hi << 4 | lo);
            }
            *len_p = blen;
            return XB_OK;
        }
        p += n + (p[n] == ',');
    }
    return xb_err_set(XB_ERR_OTHER, "rank %d published no address for the %s "
                      "method", rank, method);
}

void xb_rt_kvs_fini(void)
{
    if (addr_cache == NULL)
        return;
    for (int r = 0; r < addr_cache_size; r++)
        free(addr_cache[r]);
    free(addr_cache);
    addr_cache = NULL;
    addr_cache_size = 0;
}
