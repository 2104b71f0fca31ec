/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * abi_fortran.c - the Fortran side of the MPI 5.0 ABI chapter, for a
 * library with no Fortran binding: MPI_Status_c2f / _f2c, and the
 * registration functions MPI_Abi_set_fortran_info / _get_fortran_info and
 * MPI_Abi_set_fortran_booleans / _get_fortran_booleans.
 *
 * Statuses. MPI_Fint is int (include/mpi.h) and a Fortran status is
 * MPI_F_STATUS_SIZE (8) of them, so the conversion copies the eight ints of
 * MPI_Status in order. MPI_STATUS_IGNORE (NULL) is refused (MPI_ERR_ARG).
 * MPI_Abi_get_info (the sizes of MPI_Aint, MPI_Count, MPI_Offset) lives
 * here too, beside its Fortran twin.
 * The mpi_f08 status (MPI_F08_status) is not part of the ABI's C header,
 * so MPI_Status_c2f08 and friends are not provided.
 *
 * Registration. Crossbar knows nothing about a Fortran compiler, so until
 * an application (or a Fortran binding built on the ABI) tells it,
 * MPI_Abi_get_fortran_info returns MPI_INFO_NULL and
 * MPI_Abi_get_fortran_booleans reports is_set = false. Each set function
 * may be called once (once per logical size for the booleans); a second
 * call is MPI_ERR_ABI and changes nothing. The registered data stay for
 * the life of the process (they describe the program, not one MPI
 * initialisation).
 *
 * Threading: called under the bindings' lock.
 */
#include <stdio.h>
#include <string.h>
#include "core/info.h"
#include "xb_impl.h"

int xb_impl_status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    _Static_assert(sizeof(MPI_Status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint),
                   "a Fortran status is the ints of MPI_Status");
    memcpy(f_status, c_status, sizeof(MPI_Status));
    return XB_OK;
}

int xb_impl_status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    if (c_status == MPI_STATUS_IGNORE)
        return xb_err_set(XB_ERR_ARG, "c_status is MPI_STATUS_IGNORE (a status to write "
                          "into is needed)");
    memcpy(c_status, f_status, sizeof(MPI_Status));
    return XB_OK;
}

static xb_info_t *fortran_info;   /* our copy, or NULL: not set */

int xb_impl_abi_set_fortran_info(xb_info_t *info)
{
    if (info == NULL)
        return xb_err_set(XB_ERR_INFO, "info is MPI_INFO_NULL (an info object with the "
                          "Fortran ABI details is expected)");
    if (fortran_info != NULL)
        return xb_err_set(-MPI_ERR_ABI, "the Fortran ABI info was set already (it may be "
                          "set once)");
    return xb_info_copy(info, &fortran_info);
}

/* MPI_Abi_get_info (MPI 5.0): a new info object that gives the sizes of
 * the ABI's integer types, keys mpi_aint_size, mpi_count_size and
 * mpi_offset_size, values in bytes as decimal strings. */
int xb_impl_abi_get_info(MPI_Info *info)
{
    static const struct { const char *key; size_t size; } sizes[] = {
        { "mpi_aint_size", sizeof(MPI_Aint) },
        { "mpi_count_size", sizeof(MPI_Count) },
        { "mpi_offset_size", sizeof(MPI_Offset) },
    };
    xb_info_t *in = xb_info_new();
    if (in == NULL)
        return XB_ERR_NO_MEM;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char v[8];
        snprintf(v, sizeof v, "%zu", sizes[i].size);
        int rc = xb_info_put(in, sizes[i].key, v);
        if (rc != XB_OK) {
            xb_info_destroy(in);
            return rc;
        }
    }
    *info = xb_info_to_handle(in);
    return XB_OK;
}

int xb_impl_abi_get_fortran_info(MPI_Info *info)
{
    if (fortran_info == NULL) {
        *info = MPI_INFO_NULL;
        return XB_OK;
    }
    xb_info_t *copy;
    int rc = xb_info_copy(fortran_info, &copy);
    if (rc != XB_OK)
        return rc;
    *info = xb_info_to_handle(copy);
    return XB_OK;
}

/* Logical sizes 1, 2, 4, 8 and 16 bytes: slot log2(size). */
enum { BOOL_SLOTS = 5, BOOL_MAX = 16 };
static struct {
    bool          set;
    unsigned char t[BOOL_MAX], f[BOOL_MAX];
} booleans[BOOL_SLOTS];

static int bool_slot(int logical_size, int *slot)
{
    for (int s = 0; s < BOOL_SLOTS; s++)
        if (logical_size == 1 << s) {
            *slot = s;
            return XB_OK;
        }
    return xb_err_set(XB_ERR_ARG, "invalid logical_size %d (a Fortran LOGICAL has 1, 2, 4, "
                      "8 or 16 bytes)", logical_size);
}

int xb_impl_abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false)
{
    int s = 0;
    int rc = bool_slot(logical_size, &s);
    if (rc != XB_OK)
        return rc;
    if (booleans[s].set)
        return xb_err_set(-MPI_ERR_ABI, "the Fortran booleans of logical_size %d were set "
                          "already (they may be set once)", logical_size);
    memcpy(booleans[s].t, logical_true, (size_t)logical_size);
    memcpy(booleans[s].f, logical_false, (size_t)logical_size);
    booleans[s].set = true;
    return XB_OK;
}

int xb_impl_abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false,
                                     int *is_set)
{
    int s = 0;
    int rc = bool_slot(logical_size, &s);
    if (rc != XB_OK)
        return rc;
    *is_set = booleans[s].set;
    if (booleans[s].set) {
        memcpy(logical_true, booleans[s].t, (size_t)logical_size);
        memcpy(logical_false, booleans[s].f, (size_t)logical_size);
    }
    return XB_OK;
}
