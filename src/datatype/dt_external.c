/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_external.c - MPI_Pack_external, MPI_Unpack_external and
 * MPI_Pack_external_size in "external32", the standard's portable
 * representation: every basic element big-endian, IEEE formats, with the
 * standard's sizes (MPI_LONG and MPI_UNSIGNED_LONG are 4 bytes, MPI_WCHAR 2,
 * MPI_LONG_DOUBLE a 16-byte IEEE binary128, MPI_AINT/COUNT/OFFSET 8; the
 * pair types are their two members, each converted).
 *
 * Pack: the native packed form (xb_dt_pack), then one walk of the type
 * signature converting each run of basic elements. Unpack: the reverse.
 * xb_dt_sig_walk (dt_remap.c) visits (basic type, count) runs in type-map order: a
 * homogeneous type is one run; a struct is walked member by member.
 * A value that does not fit its external32 size (a long beyond 32 bits)
 * is MPI_ERR_CONVERSION.
 */
#include <float.h>
#include <stdlib.h>
#include <string.h>
#include "datatype/dt_types.h"
#include "xb_impl.h"

enum { X_BYTES, X_INT, X_UINT, X_FLOAT, X_LDBL };

/* One predefined type: ncomp components of class cls (native ns bytes,
 * external es bytes), then for pair types one int. */
typedef struct x32 { uint8_t cls, ns, es, ncomp, pair; } x32_t;

#define X(h, c, n, e, k) { h, { c, n, e, k, 0 } }
#define XP(h, c, n, e) { h, { c, n, e, 1, 1 } }
static const struct { MPI_Datatype h; x32_t x; } x32_table[] = {
    X(MPI_AINT, X_INT, 8, 8, 1), X(MPI_COUNT, X_INT, 8, 8, 1),
    X(MPI_OFFSET, X_INT, 8, 8, 1), X(MPI_PACKED, X_BYTES, 1, 1, 1),
    X(MPI_SHORT, X_INT, 2, 2, 1), X(MPI_INT, X_INT, 4, 4, 1),
    X(MPI_LONG, X_INT, sizeof(long), 4, 1), X(MPI_LONG_LONG, X_INT, 8, 8, 1),
    X(MPI_UNSIGNED_SHORT, X_UINT, 2, 2, 1), X(MPI_UNSIGNED, X_UINT, 4, 4, 1),
    X(MPI_UNSIGNED_LONG, X_UINT, sizeof(long), 4, 1),
    X(MPI_UNSIGNED_LONG_LONG, X_UINT, 8, 8, 1),
    X(MPI_FLOAT, X_FLOAT, 4, 4, 1), X(MPI_C_FLOAT_COMPLEX, X_FLOAT, 4, 4, 2),
    X(MPI_CXX_FLOAT_COMPLEX, X_FLOAT, 4, 4, 2), X(MPI_DOUBLE, X_FLOAT, 8, 8, 1),
    X(MPI_C_DOUBLE_COMPLEX, X_FLOAT, 8, 8, 2),
    X(MPI_CXX_DOUBLE_COMPLEX, X_FLOAT, 8, 8, 2),
    X(MPI_LOGICAL, X_INT, 4, 4, 1), X(MPI_INTEGER, X_INT, 4, 4, 1),
    X(MPI_REAL, X_FLOAT, 4, 4, 1), X(MPI_COMPLEX, X_FLOAT, 4, 4, 2),
    X(MPI_DOUBLE_PRECISION, X_FLOAT, 8, 8, 1),
    X(MPI_DOUBLE_COMPLEX, X_FLOAT, 8, 8, 2),
    X(MPI_LONG_DOUBLE, X_LDBL, sizeof(long double), 16, 1),
    X(MPI_C_LONG_DOUBLE_COMPLEX, X_LDBL, sizeof(long double), 16, 2),
    X(MPI_CXX_LONG_DOUBLE_COMPLEX, X_LDBL, sizeof(long double), 16, 2),
    XP(MPI_FLOAT_INT, X_FLOAT, 4, 4), XP(MPI_DOUBLE_INT, X_FLOAT, 8, 8),
    XP(MPI_LONG_INT, X_INT, sizeof(long), 4), X(MPI_2INT, X_INT, 4, 4, 2),
    XP(MPI_SHORT_INT, X_INT, 2, 2),
    XP(MPI_LONG_DOUBLE_INT, X_LDBL, sizeof(long double), 16),
    X(MPI_2REAL, X_FLOAT, 4, 4, 2), X(MPI_2DOUBLE_PRECISION, X_FLOAT, 8, 8, 2),
    X(MPI_2INTEGER, X_INT, 4, 4, 2), X(MPI_C_BOOL, X_UINT, 1, 1, 1),
    X(MPI_CXX_BOOL, X_UINT, 1, 1, 1), X(MPI_WCHAR, X_UINT, sizeof(wchar_t), 2, 1),
    X(MPI_INT8_T, X_INT, 1, 1, 1), X(MPI_UINT8_T, X_UINT, 1, 1, 1),
    X(MPI_CHAR, X_BYTES, 1, 1, 1), X(MPI_SIGNED_CHAR, X_INT, 1, 1, 1),
    X(MPI_UNSIGNED_CHAR, X_UINT, 1, 1, 1), X(MPI_BYTE, X_BYTES, 1, 1, 1),
    X(MPI_INT16_T, X_INT, 2, 2, 1), X(MPI_UINT16_T, X_UINT, 2, 2, 1),
    X(MPI_INT32_T, X_INT, 4, 4, 1), X(MPI_UINT32_T, X_UINT, 4, 4, 1),
    X(MPI_INT64_T, X_INT, 8, 8, 1), X(MPI_UINT64_T, X_UINT, 8, 8, 1),
    X(MPI_LOGICAL1, X_INT, 1, 1, 1), X(MPI_INTEGER1, X_INT, 1, 1, 1),
    X(MPI_CHARACTER, X_BYTES, 1, 1, 1), X(MPI_LOGICAL2, X_INT, 2, 2, 1),
    X(MPI_INTEGER2, X_INT, 2, 2, 1), X(MPI_REAL2, X_FLOAT, 2, 2, 1),
    X(MPI_LOGICAL4, X_INT, 4, 4, 1), X(MPI_INTEGER4, X_INT, 4, 4, 1),
    X(MPI_REAL4, X_FLOAT, 4, 4, 1), X(MPI_COMPLEX4, X_FLOAT, 2, 2, 2),
    X(MPI_LOGICAL8, X_INT, 8, 8, 1), X(MPI_INTEGER8, X_INT, 8, 8, 1),
    X(MPI_REAL8, X_FLOAT, 8, 8, 1), X(MPI_COMPLEX8, X_FLOAT, 4, 4, 2),
    X(MPI_LOGICAL16, X_INT, 16, 16, 1), X(MPI_INTEGER16, X_INT, 16, 16, 1),
    X(MPI_REAL16, X_FLOAT, 16, 16, 1), X(MPI_COMPLEX16, X_FLOAT, 8, 8, 2),
    X(MPI_COMPLEX32, X_FLOAT, 16, 16, 2),
};

static const x32_t *x32_of(const xb_datatype_t *basic)
{
    for (size_t i = 0; i < XB_ARRAY_LEN(x32_table); i++)
        if (x32_table[i].h == basic->handle)
            return &x32_table[i].x;
    return NULL;
}

static MPI_Count x32_size(const x32_t *x)
{
    return (MPI_Count)x->ncomp * x->es + (x->pair ? 4 : 0);
}

static int add_size(void *ctx, const xb_datatype_t *basic, MPI_Count n)
{
    const x32_t *x = x32_of(basic);
    if (x == NULL)
        return xb_err_set(-MPI_ERR_UNSUPPORTED_DATAREP, "%s has no external32 "
                          "representation", basic->name);
    *(MPI_Count *)ctx += n * x32_size(x);
    return XB_OK;
}

/* ---- element conversion ------------------------------------------------------- */
typedef struct conv { const uint8_t *src; uint8_t *dst; bool pack; } conv_t;

static bool host_le(void)
{
    return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
}

static void swap_copy(uint8_t *d, const uint8_t *s, int n)
{
    if (host_le())
        for (int i = 0; i < n; i++)
            d[i] = s[n - 1 - i];
    else
        memcpy(d, s, (size_t)n);
}

/* An integer whose native and external sizes differ (long, wchar_t). */
static int conv_int_resize(conv_t *c, const x32_t *x)
{
    int64_t v = 0;
    if (c->pack) {
        if (x->ns == 8) {
            int64_t s; memcpy(&s, c->src, 8); v = s;
        } else {
            int32_t s; memcpy(&s, c->src, 4);
            v = x->cls == X_UINT ? (int64_t)(uint32_t)s : (int64_t)s;
        }
        int bits = 8 * x->es;
        bool fits = x->cls == X_UINT ? (uint64_t)v < (UINT64_C(1) << bits)
            : v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1));
        if (!fits)
            return xb_err_set(-MPI_ERR_CONVERSION, "the value %lld does not fit "
                              "the %d bytes of its external32 representation",
                              (long long)v, x->es);
        for (int i = 0; i < x->es; i++)
            c->dst[i] = (uint8_t)((uint64_t)v >> (8 * (x->es - 1 - i)));
    } else {
        uint64_t u = 0;
        for (int i = 0; i < x->es; i++)
            u = u << 8 | c->src[i];
        int bits = 8 * x->es;
        if (x->cls == X_INT && (u >> (bits - 1)) & 1)
            u |= ~UINT64_C(0) << bits;      /* sign-extend */
        if (x->ns == 8) {
            memcpy(c->dst, &u, 8);
        } else {
            uint32_t w = (uint32_t)u; memcpy(c->dst, &w, 4);
        }
    }
    c->src += c->pack ? x->ns : x->es;
    c->dst += c->pack ? x->es : x->ns;
    return XB_OK;
}

static void conv_ldbl(conv_t *c, const x32_t *x)
{
    uint8_t q[16];
    if (c->pack) {
        long double v; memcpy(&v, c->src, sizeof(v));
        _Float128 f = (_Float128)v;
        memcpy(q, &f, 16);
        swap_copy(c->dst, q, 16);
    } else {
        swap_copy(q, c->src, 16);
        _Float128 f; memcpy(&f, q, 16);
        long double v = (long double)f;
        memset(c->dst, 0, x->ns);
        memcpy(c->dst, &v, sizeof(v) < x->ns ? sizeof(v) : x->ns);
    }
    c->src += c->pack ? x->ns : 16;
    c->dst += c->pack ? 16 : x->ns;
}

/* One component of class cls, native ns / external es bytes. */
static int conv_one(conv_t *c, const x32_t *x)
{
    if (x->cls == X_LDBL) {
        conv_ldbl(c, x);
        return XB_OK;
    }
    if (x->ns != x->es)
        return conv_int_resize(c, x);
    if (x->cls == X_BYTES || x->ns == 1)
        *c->dst = *c->src;
    else
        swap_copy(c->dst, c->src, x->ns);
    c->src += x->ns;
    c->dst += x->ns;
    return XB_OK;
}

static int conv_run(void *ctx, const xb_datatype_t *basic, MPI_Count n)
{
    conv_t *c = ctx;
    const x32_t *x = x32_of(basic);
    static const x32_t pair_int = { X_INT, 4, 4, 1, 0 };
    if (x == NULL)
        return xb_err_set(-MPI_ERR_UNSUPPORTED_DATAREP, "%s has no external32 "
                          "representation", basic->name);
    if (x->cls == X_BYTES) {
        memcpy(c->dst, c->src, (size_t)n * x->ns);
        c->src += n * x->ns;
        c->dst += n * x->ns;
        return XB_OK;
    }
    for (MPI_Count i = 0; i < n; i++) {
        for (int k = 0; k < x->ncomp; k++) {
            int rc = conv_one(c, x);
            if (rc != XB_OK)
                return rc;
        }
        if (x->pair)
            conv_one(c, &pair_int);
    }
    return XB_OK;
}

/* ---- the MPI functions -------------------------------------------------------- */
static int check_datarep(const char *datarep)
{
    if (strcmp(datarep, "external32") != 0)
        return xb_err_set(-MPI_ERR_UNSUPPORTED_DATAREP, "datarep \"%.64s\" is "
                          "not supported (only \"external32\")", datarep);
    return XB_OK;
}

static int ext_size(MPI_Count count, const xb_datatype_t *dt, MPI_Count *size)
{
    MPI_Count one = 0;
    int rc = xb_dt_sig_walk(dt, 1, add_size, &one);
    if (rc != XB_OK)
        return rc;
    if (__builtin_mul_overflow(count, one, size))
        return xb_err_set(XB_ERR_COUNT, "%lld elements of %lld external32 bytes "
                          "overflow MPI_Count", (long long)count, (long long)one);
    return XB_OK;
}

int xb_impl_pack_external_size(const char datarep[], MPI_Count incount,
                               xb_datatype_t *datatype, MPI_Count *size)
{
    int rc = check_datarep(datarep);
    return rc != XB_OK ? rc : ext_size(incount, datatype, size);
}

static int native_buf(MPI_Count count, const xb_datatype_t *dt, uint8_t **p,
                      MPI_Count *n)
{
    if (__builtin_mul_overflow(count, dt->size, n))
        return xb_err_set(XB_ERR_COUNT, "%lld elements of %lld bytes overflow "
                          "MPI_Count", (long long)count, (long long)dt->size);
    *p = malloc((size_t)(*n > 0 ? *n : 1));
    if (*p == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory: %lld bytes for a "
                          "conversion buffer", (long long)*n);
    return XB_OK;
}

static int check_room(MPI_Count position, MPI_Count bufsize, MPI_Count need,
                      const char *what)
{
    if (position < 0 || position > bufsize)
        return xb_err_set(XB_ERR_ARG, "position %lld is outside the %s buffer "
                          "of %lld bytes", (long long)position, what,
                          (long long)bufsize);
    if (bufsize - position < need)
        return xb_err_set(XB_ERR_TRUNCATE, "%lld external32 bytes at position "
                          "%lld do not fit the %s buffer of %lld bytes",
                          (long long)need, (long long)position, what,
                          (long long)bufsize);
    return XB_OK;
}

int xb_impl_pack_external(const char datarep[], const void *inbuf, MPI_Count incount,
                          xb_datatype_t *datatype, void *outbuf, MPI_Count outsize,
                          MPI_Count *position)
{
    MPI_Count need, n;
    int rc = check_datarep(datarep);
    if (rc == XB_OK)
        rc = ext_size(incount, datatype, &need);
    if (rc == XB_OK)
        rc = check_room(*position, outsize, need, "output");
    if (rc != XB_OK || need == 0)
        return rc;
    uint8_t *tmp;
    rc = native_buf(incount, datatype, &tmp, &n);
    if (rc != XB_OK)
        return rc;
    size_t done;
    rc = xb_dt_pack(inbuf, incount, datatype, 0, tmp, (size_t)n, &done);
    conv_t c = { tmp, (uint8_t *)outbuf + *position, true };
    if (rc == XB_OK)
        rc = xb_dt_sig_walk(datatype, incount, conv_run, &c);
    free(tmp);
    if (rc == XB_OK)
        *position += need;
    return rc;
}

int xb_impl_unpack_external(const char datarep[], const void *inbuf, MPI_Count insize,
                            MPI_Count *position, void *outbuf, MPI_Count outcount,
                            xb_datatype_t *datatype)
{
    MPI_Count need, n;
    int rc = check_datarep(datarep);
    if (rc == XB_OK)
        rc = ext_size(outcount, datatype, &need);
    if (rc == XB_OK)
        rc = check_room(*position, insize, need, "input");
    if (rc != XB_OK || need == 0)
        return rc;
    uint8_t *tmp;
    rc = native_buf(outcount, datatype, &tmp, &n);
    if (rc != XB_OK)
        return rc;
    conv_t c = { (const uint8_t *)inbuf + *position, tmp, false };
    rc = xb_dt_sig_walk(datatype, outcount, conv_run, &c);
    if (rc == XB_OK)
        rc = xb_dt_unpack(outbuf, outcount, datatype, 0, tmp, (size_t)n);
    free(tmp);
    if (rc == XB_OK)
        *position += need;
    return rc;
}
