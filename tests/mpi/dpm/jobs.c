/* SPDX-License-Identifier: BSD-3-Clause */
/* Copyright (c) 2026 The Crossbar authors */
/*
 * jobs.c - accept/connect and join between two separate mpiexec jobs
 * (driven by tests/launcher/dpm.sh): `jobs server DIR` opens a port and
 * writes its name to DIR/port; `jobs client DIR` reads it and connects.
 * On the intercommunicator: sizes, point-to-point both ways with the
 * other job's world ranks as payload, a large message, allreduce and bcast
 * across, Intercomm_merge (client first), then disconnect. Then the two
 * rank 0s meet with MPI_Comm_join over a TCP socket (the server listens on
 * 127.0.0.1 and writes the port number to DIR/join) and exchange a message.
 * Each job prints "No Errors" from its rank 0.
 *
 * `jobs spawnwait DIR MODE`: spawn 2 children of this program
 * (`jobs child DIR MODE`) and wait for a message from them that never comes;
 * MODE crash: child rank 1 exits with status 3 after MPI_Init (mpiexec must
 * report it and end the whole job with status 3); MODE hang: the children
 * wait too, and write DIR/child<rank>.pid (the test then interrupts
 * mpiexec and checks that every process ended).
 *
 * `jobs singleton DIR`, started without mpiexec: MPI_Comm_spawn fails with
 * MPI_ERR_SPAWN and a message that says why; publish too (MPI_ERR_NAME).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ctest.h"

static void put_file(const char *dir, const char *name, const char *text)
{
    char tmp[512], path[512];
    snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(tmp, "w");
    CHECK(f != NULL, "cannot write %s", tmp);
    if (f == NULL)
        return;
    fputs(text, f);
    fclose(f);
    rename(tmp, path);
}

static void get_file(const char *dir, const char *name, char *buf, size_t len)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    buf[0] = '\0';
    for (int i = 0; i < 600; i++) {          /* 60 s */
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            if (fgets(buf, (int)len, f) == NULL)
                buf[0] = '\0';
            fclose(f);
            return;
        }
        usleep(100000);
    }
    CHECK(0, "%s did not appear", path);
}

static void talk(MPI_Comm ic, int server)
{
    int rsize = -1, lsize = -1, lrank;
    MPI_Comm_remote_size(ic, &rsize);
    MPI_Comm_size(ic, &lsize);
    MPI_Comm_rank(ic, &lrank);
    CHECK(lsize == ct_size && lrank == ct_rank, "local %d/%d", lrank, lsize);
    CHECK(rsize == (server ? 3 : 2), "remote size %d", rsize);
    int tagged = (server ? 1000 : 2000) + ct_rank;
    for (int i = 0; i < rsize; i++)
        MPI_Send(&tagged, 1, MPI_INT, i, 3, ic);
    for (int i = 0; i < rsize; i++) {
        MPI_Status st;
        int v = -1;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, ic, &st);
        CHECK(v == (server ? 2000 : 1000) + st.MPI_SOURCE, "from %d got %d",
              st.MPI_SOURCE, v);
    }
    int n = 1 << 20;
    double *big = ct_malloc((size_t)n * sizeof(double));
    if (ct_rank == 0) {
        for (int i = 0; i < n; i++)
            big[i] = server ? i : -i;
        MPI_Sendrecv_replace(big, n, MPI_DOUBLE, 0, 4, 0, 4, ic, MPI_STATUS_IGNORE);
        int bad = 0;
        for (int i = 0; i < n; i++)
            bad += big[i] != (server ? -i : i);
        CHECK(bad == 0, "%d wrong values in the large exchange", bad);
    }
    free(big);
    int sum = 0;
    MPI_Allreduce(&tagged, &sum, 1, MPI_INT, MPI_SUM, ic);
    CHECK(sum == (server ? 2000 * 3 + 3 : 1000 * 2 + 1), "allreduce %d", sum);
    int v = ct_rank == 1 && server ? 77 : 0;
    MPI_Bcast(&v, 1, MPI_INT, server ? (ct_rank == 1 ? MPI_ROOT : MPI_PROC_NULL) : 1, ic);
    if (!server)
        CHECK(v == 77, "bcast got %d", v);
    MPI_Comm m;
    CHECK_RC(MPI_Intercomm_merge(ic, server, &m));
    int mr = -1, ms = -1;
    MPI_Comm_rank(m, &mr);
    MPI_Comm_size(m, &ms);
    CHECK(ms == 5 && mr == (server ? 3 + ct_rank : ct_rank), "merged %d/%d", mr, ms);
    int all = 0;
    MPI_Allreduce(&tagged, &all, 1, MPI_INT, MPI_SUM, m);
    CHECK(all == 2000 * 3 + 3 + 1000 * 2 + 1, "merged allreduce %d", all);
    MPI_Comm_free(&m);
}

static void join(const char *dir, int server)
{
    int fd = -1;
    if (server) {
        int lfd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in sa = { .sin_family = AF_INET };
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t sl = sizeof(sa);
        bind(lfd, (struct sockaddr *)&sa, sizeof(sa));
        listen(lfd, 1);
        getsockname(lfd, (struct sockaddr *)&sa, &sl);
        char num[32];
        snprintf(num, sizeof(num), "%d\n", ntohs(sa.sin_port));
        put_file(dir, "join", num);
        fd = accept(lfd, NULL, NULL);
        close(lfd);
    } else {
        char num[32];
        get_file(dir, "join", num, sizeof(num));
        fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in sa = { .sin_family = AF_INET };
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        sa.sin_port = htons((uint16_t)atoi(num));
        CHECK(connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0, "connect for join");
    }
    MPI_Comm ic = MPI_COMM_NULL;
    CHECK_RC(MPI_Comm_join(fd, &ic));
    close(fd);
    if (ic == MPI_COMM_NULL)
        return;
    int rs = -1, v = server ? 11 : 22, got = -1;
    MPI_Comm_remote_size(ic, &rs);
    CHECK(rs == 1, "join: remote size %d", rs);
    MPI_Sendrecv(&v, 1, MPI_INT, 0, 9, &got, 1, MPI_INT, 0, 9, ic, MPI_STATUS_IGNORE);
    CHECK(got == (server ? 22 : 11), "join: got %d", got);
    CHECK_RC(MPI_Comm_disconnect(&ic));
}

static int spawnwait(char **argv)
{
    MPI_Comm ic;
    char *cargv[] = { "child", argv[2], argv[3], NULL };
    MPI_Comm_spawn(argv[0], cargv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic,
                   MPI_ERRCODES_IGNORE);
    int v;
    MPI_Recv(&v, 1, MPI_INT, 0, 0, ic, MPI_STATUS_IGNORE);   /* never sent */
    MPI_Finalize();
    return 0;
}

static int child(char **argv)
{
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    if (strcmp(argv[3], "crash") == 0 && ct_rank == 1)
        exit(3);
    char path[512];
    snprintf(path, sizeof(path), "%s/child%d.pid", argv[2], ct_rank);
    FILE *f = fopen(path, "w");
    if (f != NULL) {
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
    int v;
    MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);   /* never sent */
    MPI_Finalize();
    return 0;
}

static int singleton(void)
{
    MPI_Comm ic = MPI_COMM_NULL;
    int codes[2] = { -1, -1 }, cls = -1, len = 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rc = MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0,
                            MPI_COMM_WORLD, &ic, codes);
    MPI_Error_class(rc, &cls);
    MPI_Error_string(rc, msg, &len);
    CHECK(cls == MPI_ERR_SPAWN, "spawn in a singleton: class %d (%s)", cls, msg);
    CHECK(strstr(msg, "singleton") != NULL, "message '%s'", msg);
    CHECK(codes[0] == MPI_ERR_SPAWN && codes[1] == MPI_ERR_SPAWN, "errcodes %d %d",
          codes[0], codes[1]);
    char port[MPI_MAX_PORT_NAME];
    rc = MPI_Lookup_name("xb-anything", MPI_INFO_NULL, port);
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_NAME, "lookup in a singleton: class %d", cls);
    return ct_finish();
}

int main(int argc, char **argv)
{
    ct_init(&argc, &argv);
    if (argc == 3 && strcmp(argv[1], "singleton") == 0)
        return singleton();
    if (argc == 4 && strcmp(argv[1], "spawnwait") == 0)
        return spawnwait(argv);
    if (argc == 4 && strcmp(argv[1], "child") == 0)
        return child(argv);
    if (argc != 3 || (strcmp(argv[1], "server") != 0 && strcmp(argv[1], "client") != 0)) {
        printf("usage: jobs server|client DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int server = strcmp(argv[1], "server") == 0;
    const char *dir = argv[2];
    char port[MPI_MAX_PORT_NAME] = "";
    MPI_Comm ic;
    if (server && ct_rank == 0) {
        CHECK_RC(MPI_Open_port(MPI_INFO_NULL, port));
        char line[MPI_MAX_PORT_NAME + 1];
        snprintf(line, sizeof(line), "%s\n", port);
        put_file(dir, "port", line);
    }
    if (!server && ct_rank == 0) {
        get_file(dir, "port", port, sizeof(port));
        port[strcspn(port, "\n")] = '\0';
    }
    if (server)
        CHECK_RC(MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    else
        CHECK_RC(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &ic));
    talk(ic, server);
    CHECK_RC(MPI_Comm_disconnect(&ic));
    if (server && ct_rank == 0)
        CHECK_RC(MPI_Close_port(port));
    if (ct_rank == 0)
        join(dir, server);
    return ct_finish();
}
