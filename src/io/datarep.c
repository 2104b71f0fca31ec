/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * datarep.c - the data representations of MPI-IO (MPI 4.1 section 14.5):
 * "native" and "internal" (the same here: the standard lets "internal" be
 * any representation the implementation likes), "external32" (the
 * datatype layer's MPI_Pack_external conversions), and the ones the user
 * registers with MPI_Register_datarep(_c), kept until MPI_Finalize.
 *
 * What a representation answers: the file extent of a predefined type,
 * the file bytes of count elements of a type (the sum over its signature),
 * the file layout of an etype or filetype (the type rebuilt over its
 * predefined types' file extents: xb_dt_remap), and the conversion of
 * whole elements between memory and a contiguous buffer of file bytes.
 * User callbacks run with the big lock dropped (xb_cb_begin/end); a
 * nonzero return from one is MPI_ERR_CONVERSION with its code in the
 * message.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "io/io.h"
#include "util/xb_mt.h"
#include "xb_impl.h"

struct xb_datarep {
    struct xb_datarep *next;
    xb_rep_kind_t kind;
    char name[MPI_MAX_DATAREP_STRING];
    MPI_Datarep_conversion_function   *read_fn, *write_fn;
    MPI_Datarep_conversion_function_c *read_fn_c, *write_fn_c;
    MPI_Datarep_extent_function       *extent_fn;
    void *extra_state;
};

static const xb_datarep_t rep_native = { .kind = XB_REP_NATIVE, .name = "native" };
static const xb_datarep_t rep_internal = { .kind = XB_REP_NATIVE, .name = "internal" };
static const xb_datarep_t rep_ext32 = { .kind = XB_REP_EXTERNAL32, .name = "external32" };
static xb_datarep_t *registered;           /* MPI_Register_datarep, newest first */

const xb_datarep_t *xb_io_datarep_find(const char *name)
{
    const xb_datarep_t *builtin[] = { &rep_native, &rep_internal, &rep_ext32 };
    for (size_t i = 0; i < XB_ARRAY_LEN(builtin); i++)
        if (strcmp(name, builtin[i]->name) == 0)
            return builtin[i];
    for (const xb_datarep_t *r = registered; r != NULL; r = r->next)
        if (strcmp(name, r->name) == 0)
            return r;
    return NULL;
}

const xb_datarep_t *xb_io_datarep_native(void)
{
    return &rep_native;
}

const char *xb_io_rep_name(const xb_datarep_t *r)
{
    return r->name;
}

xb_rep_kind_t xb_io_rep_kind(const xb_datarep_t *r)
{
    return r->kind;
}

int xb_impl_register_datarep(const char *datarep,
                             MPI_Datarep_conversion_function *read_conversion_fn,
                             MPI_Datarep_conversion_function_c *read_conversion_fn_c,
                             MPI_Datarep_conversion_function *write_conversion_fn,
                             MPI_Datarep_conversion_function_c *write_conversion_fn_c,
                             MPI_Datarep_extent_function *dtype_file_extent_fn,
                             void *extra_state)
{
    size_t len = strnlen(datarep, MPI_MAX_DATAREP_STRING);
    if (len == 0)
        return xb_err_set(XB_ERR_ARG, "invalid datarep \"\" (a data representation "
                          "needs a name)");
    if (len >= MPI_MAX_DATAREP_STRING)
        return xb_err_set(XB_ERR_ARG, "invalid datarep \"%.32s...\": longer than "
                          "MPI_MAX_DATAREP_STRING - 1 = %d characters", datarep,
                          MPI_MAX_DATAREP_STRING - 1);
    if (xb_io_datarep_find(datarep) != NULL)
        return xb_err_set(-MPI_ERR_DUP_DATAREP, "the data representation \"%s\" "
                          "is already defined", datarep);
    xb_datarep_t *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return xb_err_set(XB_ERR_NO_MEM, "out of memory registering datarep \"%s\"",
                          datarep);
    r->kind = XB_REP_USER;
    memcpy(r->name, datarep, len + 1);
    r->read_fn = read_conversion_fn;
    r->read_fn_c = read_conversion_fn_c;
    r->write_fn = write_conversion_fn;
    r->write_fn_c = write_conversion_fn_c;
    r->extent_fn = dtype_file_extent_fn;
    r->extra_state = extra_state;
    r->next = registered;
    registered = r;
    return XB_OK;
}

void xb_io_datarep_fini(void)
{
    while (registered != NULL) {
        xb_datarep_t *r = registered;
        registered = r->next;
        free(r);
    }
}

/* ---- extents -------------------------------------------------------------------- */
int xb_io_rep_extent(const xb_datarep_t *r, xb_datatype_t *basic, MPI_Aint *ext)
{
    if (r->kind == XB_REP_NATIVE) {
        *ext = xb_dt_extent(basic);
        return XB_OK;
    }
    if (r->kind == XB_REP_EXTERNAL32) {
        MPI_Count n;
        int rc = xb_impl_pack_external_size("external32", 1, basic, &n);
        *ext = (MPI_Aint)n;
        return rc;
    }
    MPI_Aint e = -1;
    xb_mutex_t *held = xb_cb_begin();
    int urc = r->extent_fn(xb_dt_to_handle(basic), &e, r->extra_state);
    xb_cb_end(held);
    if (urc != MPI_SUCCESS)
        return xb_err_set(-MPI_ERR_CONVERSION, "the extent function of datarep "
                          "\"%s\" returned error %d for %s", r->name, urc,
                          xb_dt_name(basic));
    if (e < 0)
        return xb_err_set(-MPI_ERR_CONVERSION, "the extent function of datarep "
                          "\"%s\" gave a negative file extent %lld for %s", r->name,
                          (long long)e, xb_dt_name(basic));
    *ext = e;
    return XB_OK;
}

typedef struct fsize_ctx { const xb_datarep_t *r; MPI_Count bytes, items; } fsize_ctx_t;

static int add_file_size(void *ctx, const xb_datatype_t *basic, MPI_Count n)
{
    fsize_ctx_t *c = ctx;
    MPI_Aint e;
    int rc = xb_io_rep_extent(c->r, (xb_datatype_t *)basic, &e);
    if (rc != XB_OK)
        return rc;
    c->bytes += n * e;
    c->items += n;
    return XB_OK;
}

int xb_io_rep_file_size(const xb_datarep_t *r, xb_datatype_t *dt, MPI_Count count,
                        MPI_Count *bytes, MPI_Count *items)
{
    fsize_ctx_t c = { r, 0, 0 };
    int rc = xb_dt_sig_walk(dt, 1, add_file_size, &c);
    if (rc != XB_OK)
        return rc;
    if (__builtin_mul_overflow(c.bytes, count, bytes))
        return xb_err_set(XB_ERR_COUNT, "%lld elements of %lld file bytes overflow "
                          "MPI_Count", (long long)count, (long long)c.bytes);
    if (items != NULL)
        *items = c.items;
    return XB_OK;
}

/* The file representation of one predefined type: a run of its file extent. */
static int file_leaf(void *ctx, xb_datatype_t *basic, xb_datatype_t **out)
{
    MPI_Aint e;
    int rc = xb_io_rep_extent(ctx, basic, &e);
    if (rc == XB_OK)
        rc = xb_dt_make_contiguous(e, xb_dt_from_handle(MPI_BYTE), out);
    return rc;
}

int xb_io_rep_layout(const xb_datarep_t *r, xb_datatype_t *dt, xb_datatype_t **out)
{
    if (r->kind == XB_REP_NATIVE) {
        xb_dt_retain(dt);
        *out = dt;
        return XB_OK;
    }
    return xb_dt_remap(dt, file_leaf, (void *)r, out);
}

/* ---- conversions --------------------------------------------------------------- */
/* No conversion function for this direction (MPI_CONVERSION_FN_NULL): the
 * file holds the native bytes, which needs a file size equal to the size. */
static int convert_native(const xb_datarep_t *r, bool write, void *buf,
                          xb_datatype_t *dt, MPI_Count first, MPI_Count n,
                          void *fbuf, size_t fbytes)
{
    MPI_Count sz = xb_dt_size(dt);
    if ((MPI_Count)fbytes != n * sz)
        return xb_err_set(-MPI_ERR_CONVERSION, "datarep \"%s\" has no %s conversion "
                          "function (MPI_CONVERSION_FN_NULL: native data), but its "
                          "file extents make %lld elements of %s %zu file bytes, not "
                          "the %lld native ones", r->name, write ? "write" : "read",
                          (long long)n, xb_dt_name(dt), fbytes, (long long)(n * sz));
    size_t done;
    if (write)
        return xb_dt_pack(buf, first + n, dt, (size_t)(first * sz), fbuf, fbytes, &done);
    return xb_dt_unpack(buf, first + n, dt, (size_t)(first * sz), fbuf, fbytes);
}

static int convert_user(const xb_datarep_t *r, bool write, void *buf, xb_datatype_t *dt,
                        MPI_Count first, MPI_Count n, MPI_Count items, void *fbuf)
{
    MPI_Count count = n * items, pos = first * items;
    MPI_Datarep_conversion_function *f = write ? r->write_fn : r->read_fn;
    MPI_Datarep_conversion_function_c *fc = write ? r->write_fn_c : r->read_fn_c;
    if (f != NULL && (count > INT_MAX))
        return xb_err_set(-MPI_ERR_CONVERSION, "%lld data items do not fit the int "
                          "count of the conversion functions of datarep \"%s\" "
                          "(register it with MPI_Register_datarep_c)",
                          (long long)count, r->name);
    int urc;
    xb_mutex_t *held = xb_cb_begin();
    if (f != NULL)
        urc = f(buf, xb_dt_to_handle(dt), (int)count, fbuf, (MPI_Offset)pos, r->extra_state);
    else
        urc = fc(buf, xb_dt_to_handle(dt), count, fbuf, (MPI_Offset)pos, r->extra_state);
    xb_cb_end(held);
    if (urc != MPI_SUCCESS)
        return xb_err_set(-MPI_ERR_CONVERSION, "the %s conversion function of datarep "
                          "\"%s\" returned error %d (%lld items of %s from position %lld)",
                          write ? "write" : "read", r->name, urc, (long long)count,
                          xb_dt_name(dt), (long long)pos);
    return XB_OK;
}

bool xb_io_rep_converts(const xb_datarep_t *r, bool write)
{
    if (r->kind != XB_REP_USER)
        return r->kind == XB_REP_EXTERNAL32;
    return write ? r->write_fn != NULL || r->write_fn_c != NULL
                 : r->read_fn != NULL || r->read_fn_c != NULL;
}

int xb_io_rep_convert(const xb_datarep_t *r, bool write, void *buf, xb_datatype_t *dt,
                      MPI_Count first, MPI_Count n, MPI_Count items, void *fbuf,
                      size_t fbytes)
{
    if (!xb_io_rep_converts(r, write))
        return convert_native(r, write, buf, dt, first, n, fbuf, fbytes);
    if (r->kind == XB_REP_USER)
        return convert_user(r, write, buf, dt, first, n, items, fbuf);
    /* external32: element `first` of a run of dt starts first extents on */
    void *at = (void *)((intptr_t)buf + (intptr_t)(first * xb_dt_extent(dt)));
    MPI_Count pos = 0;
    if (write)
        return xb_impl_pack_external("external32", at, n, dt, fbuf, (MPI_Count)fbytes, &pos);
    return xb_impl_unpack_external("external32", fbuf, (MPI_Count)fbytes, &pos, at, n, dt);
}
