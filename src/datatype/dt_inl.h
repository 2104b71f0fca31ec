/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * dt_inl.h - inline twins of the hottest datatype queries, for the send and
 * receive fast paths (pt2pt asks these on every message). Same meaning as
 * the out-of-line functions of datatype.h; the layout they read is private
 * to src/datatype (dt_types.h), so only these accessors may touch it.
 */
#ifndef XB_DT_INL_H
#define XB_DT_INL_H

#include "datatype/dt_types.h"

static inline MPI_Count xb_dti_size(const xb_datatype_t *dt)
{
    return dt->size;
}

static inline MPI_Aint xb_dti_extent(const xb_datatype_t *dt)
{
    return dt->extent;
}

static inline MPI_Aint xb_dti_true_lb(const xb_datatype_t *dt)
{
    return dt->true_lb;
}

static inline MPI_Aint xb_dti_true_extent(const xb_datatype_t *dt)
{
    return dt->true_ub - dt->true_lb;
}

static inline bool xb_dti_is_contig(const xb_datatype_t *dt, MPI_Count count)
{
    return (dt->flags & DT_F_CONTIG) && (count <= 1 || dt->extent == dt->size);
}

static inline bool xb_dti_is_committed(const xb_datatype_t *dt)
{
    return (dt->flags & DT_F_COMMITTED) != 0;
}

#endif
