/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * allocmem.c - MPI_Alloc_mem / MPI_Free_mem: blocks of several sizes
 * (0 included) are usable, distinct and aligned (to the info key
 * mpi_minimum_memory_alignment when given); the block is usable as a
 * message buffer; errors with MPI_ERRORS_RETURN: a pointer that did not
 * come from MPI_Alloc_mem and a double free (MPI_ERR_BASE), an impossible
 * size (MPI_ERR_NO_MEM), a bad alignment value (MPI_ERR_INFO), a negative
 * size (MPI_ERR_ARG); the library stays usable afterwards.
 */
#include <stdint.h>
#include "ctest.h"
#include "cexpect.h"

enum { NBLK = 200 };

static void sizes_and_reuse(void)
{
    static void *blk[NBLK];
    for (int i = 0; i < NBLK; i++) {
        MPI_Aint sz = (MPI_Aint)(i % 7 == 0 ? 0 : i * 37);
        CHECK_RC(MPI_Alloc_mem(sz, MPI_INFO_NULL, &blk[i]));
        CHECK(blk[i] != NULL, "block %d is NULL", i);
        memset(blk[i], i & 0xff, (size_t)sz);
        for (int j = 0; j < i; j++)
            CHECK(blk[j] != blk[i], "blocks %d and %d share an address", j, i);
    }
    for (int i = 0; i < NBLK; i += 2)   /* free half, in a different order */
        CHECK_RC(MPI_Free_mem(blk[i]));
    for (int i = 1; i < NBLK; i += 2) {
        MPI_Aint sz = (MPI_Aint)(i % 7 == 0 ? 0 : i * 37);
        for (MPI_Aint b = 0; b < sz; b++)
            CHECK(((unsigned char *)blk[i])[b] == (i & 0xff), "block %d byte changed", i);
        CHECK_RC(MPI_Free_mem(blk[i]));
    }
}

static void alignment(void)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "4096");
    void *p = NULL;
    CHECK_RC(MPI_Alloc_mem(100, info, &p));
    CHECK(((uintptr_t)p & 4095) == 0, "block %p is not 4096-aligned", p);
    CHECK_RC(MPI_Free_mem(p));
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "48");
    p = NULL;
    EXPECT(MPI_Alloc_mem(100, info, &p), MPI_ERR_INFO, "MPI_Alloc_mem", "48");
    CHECK(p == NULL, "the output was written on failure");
    MPI_Info_set(info, "mpi_minimum_memory_alignment", "16");
    MPI_Info_set(info, "some_unknown_key", "x");
    CHECK_RC(MPI_Alloc_mem(8, info, &p));   /* a smaller alignment and unknown keys are fine */
    CHECK(((uintptr_t)p & 15) == 0, "block %p is not 16-aligned", p);
    CHECK_RC(MPI_Free_mem(p));
    MPI_Info_free(&info);
}

static void errors(void)
{
    int local;
    void *p = NULL;
    EXPECT(MPI_Free_mem(&local), MPI_ERR_BASE, "MPI_Free_mem", "MPI_Alloc_mem");
    char *heap = malloc(16);
    EXPECT(MPI_Free_mem(heap), MPI_ERR_BASE, "MPI_Free_mem", NULL);
    free(heap);
    CHECK_RC(MPI_Alloc_mem(64, MPI_INFO_NULL, &p));
    EXPECT(MPI_Free_mem((char *)p + 8), MPI_ERR_BASE, "MPI_Free_mem", NULL);
    CHECK_RC(MPI_Free_mem(p));
    EXPECT(MPI_Free_mem(p), MPI_ERR_BASE, "MPI_Free_mem", "freed already");
    p = NULL;
    MPI_Aint huge = (MPI_Aint)(~(uint64_t)0 >> 1);
    EXPECT(MPI_Alloc_mem(huge, MPI_INFO_NULL, &p), MPI_ERR_NO_MEM, "MPI_Alloc_mem",
           "cannot allocate");
    CHECK(p == NULL, "the output was written on failure");
    EXPECT(MPI_Alloc_mem(-5, MPI_INFO_NULL, &p), MPI_ERR_ARG, "MPI_Alloc_mem", "-5");
}

/* The block carries a message from every rank to rank 0. */
static void as_buffer(void)
{
    int *buf;
    CHECK_RC(MPI_Alloc_mem((MPI_Aint)(ct_size * sizeof(int)), MPI_INFO_NULL, &buf));
    int me = ct_rank * 10 + 1;
    CHECK_RC(MPI_Gather(&me, 1, MPI_INT, buf, 1, MPI_INT, 0, MPI_COMM_WORLD));
    if (ct_rank == 0)
        for (int r = 0; r < ct_size; r++)
            CHECK(buf[r] == r * 10 + 1, "buf[%d] = %d", r, buf[r]);
    CHECK_RC(MPI_Free_mem(buf));
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    sizes_and_reuse();
    alignment();
    errors();
    as_buffer();
    return ct_finish();
}
