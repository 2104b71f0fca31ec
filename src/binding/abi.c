/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * abi.c - the hand-written functions of the standard ABI chapter:
 * MPI_Abi_get_version and the handle serialization functions
 * MPI_<Kind>_toint / MPI_<Kind>_fromint (listed `custom` in
 * spec/implemented.txt, so the generator declares but does not write them).
 *
 * Handle serialization. A predefined handle is its ABI constant (1..4095),
 * and its integer is that same value. A user handle is a pointer, wider than
 * an int, so the first toint of a pointer registers it in a table and the
 * integer is 0x1000 + its slot; later calls return the same integer. The
 * table only grows (a handle that was freed keeps its slot; the standard
 * makes fromint of such an integer erroneous, and if the address is reused
 * by a new object, the new handle simply gets the old integer back). An
 * unknown integer gives back the kind's null handle.
 *
 * MPI_<Kind>_c2f / _f2c (Fortran handles) are the same integers: MPI_Fint
 * is int (include/mpi.h), as the ABI's default Fortran INTEGER. They are
 * separate symbols with the same code, so a program or a binding that
 * looks them up by name finds them.
 *
 * Threading: the table is guarded by a mutex; these calls are not hot.
 * Callable before MPI_Init and after MPI_Finalize (no library state used).
 */
#include <pthread.h>
#include <stdlib.h>
#include "util/xb_common.h"

#define ABI_USER_BASE 0x1000   /* first integer above the predefined range */

static pthread_mutex_t tab_lock = PTHREAD_MUTEX_INITIALIZER;
static const void **tab_ptr;       /* slot -> pointer                        */
static int          tab_len, tab_cap;
static int         *hash;          /* open addressing: slot + 1, 0 = empty   */
static size_t       hash_cap;      /* power of two, > 2 * tab_len            */

static size_t ptr_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p;

    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static int hash_grow(void)
{
    size_t cap = hash_cap ? hash_cap * 2 : 64;
    int *h = calloc(cap, sizeof(*h));

    if (h == NULL)
        return -1;
    for (int s = 0; s < tab_len; s++) {
        size_t i = ptr_hash(tab_ptr[s]) & (cap - 1);
        while (h[i] != 0)
            i = (i + 1) & (cap - 1);
        h[i] = s + 1;
    }
    free(hash);
    hash = h;
    hash_cap = cap;
    return 0;
}

/* The integer of a user handle; 0 if the table cannot grow (no error
 * channel: the standard's toint returns an int). */
static int user_toint(const void *p)
{
    int ret = 0;

    pthread_mutex_lock(&tab_lock);
    if ((size_t)(tab_len + 1) * 2 >= hash_cap && hash_grow() != 0)
        goto out_unlock;
    size_t i = ptr_hash(p) & (hash_cap - 1);
    while (hash[i] != 0) {
        if (tab_ptr[hash[i] - 1] == p) {
            ret = ABI_USER_BASE + hash[i] - 1;
            goto out_unlock;
        }
        i = (i + 1) & (hash_cap - 1);
    }
    if (tab_len == tab_cap) {
        int cap = tab_cap ? tab_cap * 2 : 64;
        if (cap > INT32_MAX / 2 - ABI_USER_BASE)
            goto out_unlock;
        const void **t = realloc(tab_ptr, (size_t)cap * sizeof(*t));
        if (t == NULL)
            goto out_unlock;
        tab_ptr = t;
        tab_cap = cap;
    }
    tab_ptr[tab_len] = p;
    hash[i] = tab_len + 1;
    ret = ABI_USER_BASE + tab_len;
    tab_len++;
out_unlock:
    pthread_mutex_unlock(&tab_lock);
    return ret;
}

static const void *user_fromint(int v, const void *null)
{
    const void *p = null;

    pthread_mutex_lock(&tab_lock);
    if (v >= ABI_USER_BASE && v - ABI_USER_BASE < tab_len)
        p = tab_ptr[v - ABI_USER_BASE];
    pthread_mutex_unlock(&tab_lock);
    return p;
}

static int handle_toint(const void *h)
{
    uintptr_t v = (uintptr_t)h;

    if (v < ABI_USER_BASE)
        return (int)v;
    return user_toint(h);
}

static const void *handle_fromint(int v, const void *null)
{
    if (v >= 0 && v < ABI_USER_BASE)
        return (const void *)(uintptr_t)v;
    return user_fromint(v, null);
}

/* The pair for one kind: PMPI_ functions, MPI_ weak aliases. */
#define ABI_HANDLE_PAIR(Kind, Type, Null)                                       \
    XB_EXPORT int PMPI_##Kind##_toint(Type h)                                   \
    {                                                                           \
        return handle_toint((const void *)h);                                   \
    }                                                                           \
    XB_EXPORT Type PMPI_##Kind##_fromint(int v)                                 \
    {                                                                           \
        return (Type)(uintptr_t)handle_fromint(v, (const void *)(Null));        \
    }                                                                           \
    XB_EXPORT int MPI_##Kind##_toint(Type h)                                    \
        __attribute__((weak, alias("PMPI_" #Kind "_toint")));                   \
    XB_EXPORT Type MPI_##Kind##_fromint(int v)                                  \
        __attribute__((weak, alias("PMPI_" #Kind "_fromint")))

/* The Fortran pair of one kind: the same integers (MPI_Fint is int). */
#define ABI_FORTRAN_PAIR(Kind, Type, Null)                                      \
    XB_EXPORT MPI_Fint PMPI_##Kind##_c2f(Type h)                                \
    {                                                                           \
        return handle_toint((const void *)h);                                   \
    }                                                                           \
    XB_EXPORT Type PMPI_##Kind##_f2c(MPI_Fint v)                                \
    {                                                                           \
        return (Type)(uintptr_t)handle_fromint(v, (const void *)(Null));        \
    }                                                                           \
    XB_EXPORT MPI_Fint MPI_##Kind##_c2f(Type h)                                 \
        __attribute__((weak, alias("PMPI_" #Kind "_c2f")));                     \
    XB_EXPORT Type MPI_##Kind##_f2c(MPI_Fint v)                                 \
        __attribute__((weak, alias("PMPI_" #Kind "_f2c")))

ABI_HANDLE_PAIR(Comm, MPI_Comm, MPI_COMM_NULL);
ABI_HANDLE_PAIR(Errhandler, MPI_Errhandler, MPI_ERRHANDLER_NULL);
ABI_HANDLE_PAIR(Group, MPI_Group, MPI_GROUP_NULL);
ABI_HANDLE_PAIR(Info, MPI_Info, MPI_INFO_NULL);
ABI_HANDLE_PAIR(Message, MPI_Message, MPI_MESSAGE_NULL);
ABI_HANDLE_PAIR(Op, MPI_Op, MPI_OP_NULL);
ABI_HANDLE_PAIR(Request, MPI_Request, MPI_REQUEST_NULL);
ABI_HANDLE_PAIR(Type, MPI_Datatype, MPI_DATATYPE_NULL);
ABI_HANDLE_PAIR(Session, MPI_Session, MPI_SESSION_NULL);
ABI_HANDLE_PAIR(Win, MPI_Win, MPI_WIN_NULL);
ABI_HANDLE_PAIR(File, MPI_File, MPI_FILE_NULL);

ABI_FORTRAN_PAIR(Comm, MPI_Comm, MPI_COMM_NULL);
ABI_FORTRAN_PAIR(Errhandler, MPI_Errhandler, MPI_ERRHANDLER_NULL);
ABI_FORTRAN_PAIR(Group, MPI_Group, MPI_GROUP_NULL);
ABI_FORTRAN_PAIR(Info, MPI_Info, MPI_INFO_NULL);
ABI_FORTRAN_PAIR(Message, MPI_Message, MPI_MESSAGE_NULL);
ABI_FORTRAN_PAIR(Op, MPI_Op, MPI_OP_NULL);
ABI_FORTRAN_PAIR(Request, MPI_Request, MPI_REQUEST_NULL);
ABI_FORTRAN_PAIR(Type, MPI_Datatype, MPI_DATATYPE_NULL);
ABI_FORTRAN_PAIR(Session, MPI_Session, MPI_SESSION_NULL);
ABI_FORTRAN_PAIR(File, MPI_File, MPI_FILE_NULL);
ABI_FORTRAN_PAIR(Win, MPI_Win, MPI_WIN_NULL);

/* ---- version ---------------------------------------------------------- */
XB_EXPORT int PMPI_Abi_get_version(int *abi_major, int *abi_minor)
{
    if (abi_major == NULL || abi_minor == NULL)
        return MPI_ERR_ARG;
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}
XB_EXPORT int MPI_Abi_get_version(int *abi_major, int *abi_minor)
    __attribute__((weak, alias("PMPI_Abi_get_version")));
