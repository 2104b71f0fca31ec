/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * env_util.h - helpers of the tests in tests/mpi/env: checks that count
 * failures, and run_self(), which runs this same program again as a child
 * process (argv[1] = mode), optionally without any launcher variables (a
 * singleton), and collects its exit status and output. The child gets a
 * 30 s alarm, so a hang fails instead of blocking the test.
 */
#ifndef ENV_UTIL_H
#define ENV_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

__attribute__((unused)) static int errs;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errs++;                                                           \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
        }                                                                     \
    } while (0)

/* Variables of a launcher (ours, Hydra, Slurm's PMI-1): removed for a
 * singleton child. */
static const char *const launcher_vars[] = {
    "PMI_FD", "PMI_PORT", "PMI_RANK", "PMI_SIZE", "PMI_ID", "PMI_SPAWNED",
    "PMI_APPNUM", "XB_JOBSEG_FD", "XB_HOST", NULL,
};

/* Run argv0 with argument `mode`. env: NULL-terminated "K=V" list added to
 * the child's environment. Returns the wait status (-1 on failure). */
__attribute__((unused)) static int run_self(const char *argv0, const char *mode, int singleton,
                    const char *const *env, char *out, size_t outlen)
{
    int fds[2];
    size_t got = 0;

    fflush(stdout);
    fflush(stderr);
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        if (singleton)
            for (int i = 0; launcher_vars[i] != NULL; i++)
                unsetenv(launcher_vars[i]);
        for (int i = 0; env != NULL && env[i] != NULL; i++)
            putenv((char *)env[i]);
        alarm(30);
        execl("/proc/self/exe", argv0, mode, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    for (;;) {
        ssize_t n = read(fds[0], out + got, outlen - 1 - got);
        if (n <= 0)
            break;
        got += (size_t)n;
        if (got == outlen - 1)
            break;
    }
    out[got] = '\0';
    close(fds[0]);
    int status = -1;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return status;
}

__attribute__((unused)) static int exit_code(int status)
{
    return status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif
