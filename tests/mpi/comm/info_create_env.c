/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * info_create_env.c - MPI_Info_create_env gives the same object (the same
 * keys, the same values) before MPI_Init, while MPI is initialised and
 * after MPI_Finalize, as MPICH's infocreateenv checks; command and argv
 * come from the arguments; maxprocs is the job's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

static int errors;

#define EXPECT(cond, ...)                                                    \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "info_create_env: " __VA_ARGS__);                \
            fputc('\n', stderr);                                             \
            errors++;                                                        \
        }                                                                    \
    } while (0)

/* The same pairs in both objects. */
static void same(MPI_Info a, MPI_Info b, const char *when)
{
    int na = -1, nb = -2;
    MPI_Info_get_nkeys(a, &na);
    MPI_Info_get_nkeys(b, &nb);
    EXPECT(na == nb, "%s: %d keys, %d before MPI_Init", when, na, nb);
    for (int k = 0; k < na; k++) {
        char key[MPI_MAX_INFO_KEY + 1], va[MPI_MAX_INFO_VAL + 1], vb[MPI_MAX_INFO_VAL + 1];
        int la = sizeof(va), lb = sizeof(vb), fa = 0, fb = 0;
        MPI_Info_get_nthkey(a, k, key);
        MPI_Info_get_string(a, key, &la, va, &fa);
        MPI_Info_get_string(b, key, &lb, vb, &fb);
        EXPECT(fa && fb && strcmp(va, vb) == 0, "%s: key %s is \"%s\", \"%s\" before "
               "MPI_Init", when, key, va, fb ? vb : "(absent)");
    }
}

static const char *get(MPI_Info i, const char *key, char *buf, int len)
{
    int flag = 0;
    MPI_Info_get_string(i, key, &len, buf, &flag);
    return flag ? buf : NULL;
}

int main(int argc, char **argv)
{
    MPI_Info before, now;
    char v[MPI_MAX_INFO_VAL + 1];
    MPI_Info_create_env(argc, argv, &before);
    const char *cmd = get(before, "command", v, sizeof(v));
    EXPECT(cmd != NULL && strcmp(cmd, argv[0]) == 0, "command %s", cmd ? cmd : "(absent)");

    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Info_create_env(argc, argv, &now);
    same(now, before, "while initialised");
    const char *mp = get(now, "maxprocs", v, sizeof(v));
    EXPECT(mp != NULL && atoi(mp) == size, "maxprocs %s, size %d", mp ? mp : "(absent)", size);
    MPI_Info_free(&now);
    int total = 0;
    MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();

    MPI_Info_create_env(argc, argv, &now);
    same(now, before, "after MPI_Finalize");
    MPI_Info_free(&now);
    MPI_Info_free(&before);
    if (errors != 0)
        total += errors;       /* and after MPI_Finalize: this rank exits non-zero */
    if (rank == 0 && total == 0)
        printf("No Errors\n");
    return total != 0;
}
