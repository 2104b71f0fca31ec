#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The Crossbar authors
#
# Launcher tests. Usage: run.sh CASE
# Environment: MPIEXEC (our mpiexec), LHELPER (tests/launcher/lhelper.c).
# Exit 0 pass, 1 fail (with the reason), 77 skipped. Every command that
# could hang runs under timeout(1); ctest adds its own TIMEOUT on top.
set -u
: "${MPIEXEC:?set MPIEXEC}" "${LHELPER:?set LHELPER}"
T=$(mktemp -d "${TMPDIR:-/tmp}/xb-launcher.XXXXXX")
trap 'rm -rf "$T"' EXIT
HOST=$(hostname)
LH=$(cd "$(dirname "$LHELPER")" && pwd)/$(basename "$LHELPER")   # absolute: -wdir

fail() { echo "FAIL: $*"; for f in "$T"/out "$T"/err; do [ -s "$f" ] && { echo "--- $f"; head -c 3000 "$f"; }; done; exit 1; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# run [timeout] cmd...: stdout -> $T/out, stderr -> $T/err, status -> $RC
run() { to=$1; shift; timeout -k 2 "$to" "$@" >"$T/out" 2>"$T/err" </dev/null; RC=$?; }
expect_rc() { [ "$RC" = "$1" ] || fail "exit status $RC, expected $1"; }
expect_err() { grep -Eq -- "$1" "$T/err" || fail "stderr lacks /$1/"; }
expect_out() { grep -Eq -- "$1" "$T/out" || fail "stdout lacks /$1/"; }
count() { grep -Ec -- "$1" "$2"; }
# start mpiexec in the background; its pid in $MP
bg_start() { "$@" >"$T/out" 2>"$T/err" </dev/null & MP=$!; }
# alive PID: running and not a zombie (an init that never reaps keeps zombies)
alive() { [ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null; }
rank_pids() { pgrep -P "$MP" | sort -n; }
wait_ranks() {   # wait until mpiexec has $1 children
    i=0; while [ "$(rank_pids | wc -l)" -lt "$1" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
}

case "${1:-}" in
exit_code)
    run 20 "$MPIEXEC" -n 3 "$LH" exit 3
    expect_rc 3
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message"
    expect_err "^mpiexec: rank [0-2] \(pid [0-9]+\) on $HOST exited with status 3"
    run 20 "$MPIEXEC" -n 3 "$LH" exit 0
    expect_rc 0
    [ -s "$T/err" ] && fail "a good job printed something"
    run 20 "$MPIEXEC" -n 2 sh -c '[ "$PMI_RANK" = 1 ] && exit 5; exec "$0" sleep 20' "$LH"
    expect_rc 5
    expect_err "rank 1 \(pid [0-9]+\) on $HOST exited with status 5; ending the job" ;;
segv)
    # a sanitizer must not turn the rank's SIGSEGV into exit(1)
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0"; export ASAN_OPTIONS
    t0=$(now_ms)
    run 20 "$MPIEXEC" -n 3 sh -c '[ "$PMI_RANK" = 1 ] && exec "$0" raise 11; exec "$0" sleep 20' "$LH"
    t1=$(now_ms)
    expect_rc 139
    expect_err "^mpiexec: rank 1 \(pid [0-9]+\) on $HOST exited on signal 11 \(Segmentation fault"
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message"
    [ $((t1 - t0)) -lt 3000 ] || fail "the other ranks were not ended quickly ($((t1 - t0)) ms)" ;;
kill_one)
    bg_start "$MPIEXEC" -n 3 "$LH" sleep 20
    wait_ranks 3
    victim=$(rank_pids | sed -n 2p)
    [ -n "$victim" ] || fail "no ranks found"
    t0=$(now_ms); kill -9 "$victim"; wait "$MP"; RC=$?; t1=$(now_ms)
    expect_rc 137
    expect_err "\(pid $victim\) on $HOST exited on signal 9 \(Killed"
    [ $((t1 - t0)) -lt 1000 ] || fail "the job took $((t1 - t0)) ms to end after SIGKILL of a rank" ;;
sigint)
    bg_start "$MPIEXEC" -n 3 "$LH" sleep 20
    wait_ranks 3
    pids=$(rank_pids)
    kill -INT "$MP"; wait "$MP"; RC=$?
    expect_rc 130
    expect_err "signal 2"
    for p in $pids; do alive "$p" && fail "rank pid $p survived"; done
    bg_start "$MPIEXEC" -n 2 sh -c 'trap "" TERM; exec "$0" sleep 20' "$LH"
    wait_ranks 2
    t0=$(now_ms); kill -TERM "$MP"; wait "$MP"; RC=$?; t1=$(now_ms)
    expect_rc 143
    [ $((t1 - t0)) -lt 2000 ] || fail "SIGKILL after the grace period took $((t1 - t0)) ms"
    # mpiexec killed outright: the ranks die with it (PR_SET_PDEATHSIG)
    bg_start "$MPIEXEC" -n 2 "$LH" sleep 20
    wait_ranks 2
    pids=$(rank_pids)
    kill -9 "$MP"; wait "$MP"
    sleep 0.3
    for p in $pids; do alive "$p" && fail "rank pid $p outlived a killed mpiexec"; done ;;
tag_output)
    run 20 "$MPIEXEC" -n 3 --tag-output "$LH" env PMI_RANK
    expect_rc 0
    for r in 0 1 2; do expect_out "^\[$r\] PMI_RANK=$r\$"; done
    [ "$(wc -l <"$T/out")" = 3 ] || fail "expected 3 lines"
    run 20 "$MPIEXEC" -n 2 --tag-output sh -c 'printf "a\nb\nno newline"; printf "e1\ne2" >&2'
    expect_rc 0
    [ "$(count '^\[[01]\] (a|b|no newline)$' "$T/out")" = 6 ] || fail "tagged stdout wrong"
    [ "$(count '^\[[01]\] (e1|e2)$' "$T/err")" = 4 ] || fail "tagged stderr wrong" ;;
lines)
    run 30 "$MPIEXEC" -n 4 "$LH" lines 300
    expect_rc 0
    [ "$(wc -l <"$T/out")" = 1200 ] || fail "expected 1200 lines"
    bad=$(grep -Evc '^rank [0-3] line [0-9]+ x+ end$' "$T/out")
    [ "$bad" = 0 ] || fail "$bad lines were interleaved"
    for r in 0 1 2 3; do [ "$(count "^rank $r " "$T/out")" = 300 ] || fail "rank $r lines missing"; done
    run 20 "$MPIEXEC" -n 3 sh -c 'printf "partial $PMI_RANK"'
    [ "$(count '^partial [0-2]$' "$T/out")" = 3 ] || fail "partial last lines not kept whole" ;;
stdin)
    printf 'one\ntwo\n' | timeout 20 "$MPIEXEC" -n 3 "$LH" cat >"$T/out" 2>"$T/err"; RC=$?
    expect_rc 0
    [ "$(printf 'one\ntwo\n')" = "$(cat "$T/out")" ] || fail "stdin did not reach rank 0 once"
    seq 1 200000 >"$T/in"
    timeout 20 "$MPIEXEC" -n 2 "$LH" cat <"$T/in" >"$T/out" 2>"$T/err"; RC=$?
    expect_rc 0
    cmp -s "$T/in" "$T/out" || fail "1.2 MB of stdin did not arrive intact" ;;
timeout)
    t0=$(now_ms)
    run 20 "$MPIEXEC" -n 2 --timeout 1 "$LH" waiting "MPI_Recv(source=1, tag=7)"
    t1=$(now_ms)
    expect_rc 124
    expect_err "rank 0 \(pid [0-9]+\) on $HOST: waiting in MPI_Recv\(source=1, tag=7\) \(rank 0\)"
    expect_err "rank 1 \(pid [0-9]+\) on $HOST: waiting in MPI_Recv\(source=1, tag=7\) \(rank 1\)"
    [ $((t1 - t0)) -lt 5000 ] || fail "timeout took $((t1 - t0)) ms"
    MPIEXEC_TIMEOUT=1 run 20 "$MPIEXEC" -n 2 "$LH" sleep 20
    expect_rc 124
    expect_err "rank 1 .*has not called MPI_Init" ;;
env)
    FOO=outer QUX=q run 20 "$MPIEXEC" -n 2 -x BAR=1 -genv BAZ two -x FOO "$LH" env FOO BAR BAZ QUX PMI_SIZE PMI_PORT XB_HOST MPI_LOCALNRANKS
    expect_rc 0
    for l in FOO=outer BAR=1 BAZ=two QUX=q PMI_SIZE=2 "PMI_PORT=\(unset\)" "XB_HOST=$HOST" MPI_LOCALNRANKS=2; do
        [ "$(count "^$l\$" "$T/out")" = 2 ] || fail "every rank should see $l"
    done
    FOO=outer QUX=q run 20 "$MPIEXEC" -genvnone -x FOO -genv BAZ 3 "$LH" env FOO QUX BAZ
    expect_out '^FOO=outer$'; expect_out '^QUX=\(unset\)$'; expect_out '^BAZ=3$'
    PMI_PORT=elsewhere:1 PMI_ID=3 run 20 "$MPIEXEC" -n 1 "$LH" env PMI_PORT PMI_ID
    expect_out '^PMI_PORT=\(unset\)$'; expect_out '^PMI_ID=\(unset\)$' ;;
fds)
    run 20 "$MPIEXEC" -n 2 "$LH" fds 9>/dev/null
    expect_rc 0
    [ "$(count '^fds: 3 4$' "$T/out")" = 2 ] || fail "ranks must get exactly fds 3 (PMI) and 4 (job segment)"
    run 20 "$MPIEXEC" -n 2 --bind-to core sh -c 'grep Cpus_allowed_list /proc/self/status'
    expect_rc 0
    [ "$(count ':[[:space:]]+[0-9]+$' "$T/out")" = 2 ] || fail "--bind-to core did not pin each rank to one cpu" ;;
pmi)
    run 30 "$MPIEXEC" -n 4 "$LH" pmi
    expect_rc 0
    [ "$(count '^pmi ok rank [0-3] size 4 appnum 0 universe 4 nnodes 1 node 0 kvs set map \(vector,\(0,1,4\)\)$' "$T/out")" = 4 ] ||
        fail "PMI exchange failed" ;;
pmi_errors)
    run 20 "$MPIEXEC" -n 3 "$LH" pmi-abort 7
    expect_rc 7
    expect_err "^mpiexec: rank 1 \(pid [0-9]+\) on $HOST called MPI_Abort with code 7: helper gave up, 100% sure"
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message"
    run 20 "$MPIEXEC" -n 3 "$LH" pmi-nofinalize 2
    expect_rc 1
    expect_err "rank 2 \(pid [0-9]+\) on $HOST exited with status 0 without calling MPI_Finalize"
    run 20 "$MPIEXEC" -n 3 "$LH" pmi-exit-early 0
    expect_rc 1
    expect_err "rank 0 \(pid [0-9]+\) on $HOST exited with status 0 while the other ranks wait for it in a PMI barrier" ;;
pmi_garbage)
    for req in 'cmd=bogus' 'cmd=put kvsname=x key=a value=b c' 'cmd=get key=a' "cmd=get $(printf '\001\377')" \
               "cmd=put kvsname=x key=a value=$(head -c 1100 /dev/zero | tr '\0' v)"; do
        printf '%s\n' "$req" | timeout 20 "$MPIEXEC" "$LH" pmi-raw >"$T/out" 2>"$T/err"; RC=$?
        expect_rc 0
        expect_out '^answer: cmd=error rc=-1 msg=[^ ]+$'
        expect_err '^mpiexec: rank 0 sent a PMI request mpiexec cannot serve: '
    done
    head -c 5000 /dev/urandom | timeout 20 "$MPIEXEC" "$LH" pmi-raw >"$T/out" 2>"$T/err"; RC=$?
    [ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "binary garbage: status $RC"
    printf 'cmd=get_maxes' | timeout 20 "$MPIEXEC" sh -c 'cat >&3; exec 3>&-; sleep 0.2' >"$T/out" 2>"$T/err"; RC=$?
    expect_rc 0
    expect_err 'closed its PMI connection in the middle of a request' ;;
singleton)
    run 20 env -u PMI_FD -u PMI_PORT -u PMI_RANK -u PMI_SIZE -u PMI_ID "$LH" pmi-init-only
    expect_rc 0
    expect_out '^init ok rank 0 size 1 singleton 1 map \(vector,\(0,1,1\)\)$'
    run 20 env -u PMI_FD -u PMI_PORT PMI_SIZE=4 "$LH" pmi-init-only
    expect_rc 3
    expect_out 'PMI_SIZE is set but neither PMI_FD nor PMI_PORT is'
    run 20 env -u PMI_FD -u PMI_PORT -u PMI_SIZE PMI_RANK=1 "$LH" pmi-init-only
    expect_rc 3
    expect_out 'PMI_RANK is set but neither PMI_FD nor PMI_PORT is'
    run 20 env PMI_FD=97 PMI_RANK=0 PMI_SIZE=2 "$LH" pmi-init-only
    expect_rc 3
    expect_out 'PMI_FD=97 names no open file descriptor'
    run 20 env PMI_FD=0 PMI_RANK=0 PMI_SIZE=2 "$LH" pmi-init-only
    expect_rc 3
    expect_out 'PMI_FD=0 is not a socket'
    run 20 env -u PMI_RANK PMI_FD=3 PMI_SIZE=2 "$LH" pmi-init-only
    expect_rc 3
    expect_out 'PMI_FD is set but PMI_RANK is not'
    run 20 env PMI_FD=x3 PMI_RANK=0 PMI_SIZE=2 "$LH" pmi-init-only
    expect_rc 3
    expect_out "PMI_FD='x3' is not a valid" ;;
hydra)
    command -v mpiexec.mpich >/dev/null || { echo "SKIP: mpiexec.mpich (Debian package mpich) is not installed"; exit 77; }
    run 60 mpiexec.mpich -n 3 "$LH" pmi
    expect_rc 0
    [ "$(count '^pmi ok rank [0-2] size 3 appnum 0 universe 3 nnodes 1 node 0 kvs set' "$T/out")" = 3 ] ||
        fail "our PMI client under Hydra (PMI_FD)"
    run 60 mpiexec.mpich -pmi-port -n 2 "$LH" pmi
    expect_rc 0
    [ "$(count '^pmi ok rank [01] size 2 .* nnodes 1 node 0 ' "$T/out")" = 2 ] ||
        fail "our PMI client under Hydra -pmi-port (PMI_PORT+PMI_ID)" ;;
mpich)
    command -v mpicc.mpich >/dev/null || { echo "SKIP: mpicc.mpich (Debian package libmpich-dev) is not installed"; exit 77; }
    timeout 60 mpicc.mpich -o "$T/mpich_app" "$(dirname "$0")/mpich_app.c" || fail "mpicc.mpich failed"
    run 60 "$MPIEXEC" -n 3 "$T/mpich_app"
    expect_rc 0
    [ "$(count '^rank [0-2] of 3 sum 3$' "$T/out")" = 3 ] || fail "MPICH program under our mpiexec"
    run 60 "$MPIEXEC" -n 3 "$T/mpich_app" abort
    expect_rc 9
    expect_err "^mpiexec: rank 1 \(pid [0-9]+\) on $HOST called MPI_Abort with code 9" ;;
startup)
    best=999999
    for i in 1 2 3 4 5; do
        t0=$(now_ms); timeout 20 "$MPIEXEC" -n 4 "$LH" env PMI_RANK >"$T/out" || fail "job failed"; t1=$(now_ms)
        [ "$(count '^PMI_RANK=[0-3]$' "$T/out")" = 4 ] || fail "the 4 ranks did not all run"
        [ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
    done
    echo "4-rank trivial job: best of 5 = $best ms"
    limit=100
    [ -n "${ASAN_OPTIONS:-}" ] && limit=1000    # sanitizer builds start slowly
    [ "$best" -lt "$limit" ] || fail "a 4-rank trivial job took $best ms (limit $limit)" ;;
cli)
    run 10 "$MPIEXEC" --help; expect_rc 0; expect_out '^Usage: mpiexec'
    run 10 "$MPIEXEC" --version; expect_rc 0; expect_out 'Crossbar'
    run 10 "$MPIEXEC" -n 0 "$LH" exit 0; expect_rc 2; expect_err 'needs a number of ranks'
    run 10 "$MPIEXEC" --frobnicate "$LH"; expect_rc 2; expect_err "unknown option '--frobnicate'"
    run 10 "$MPIEXEC" -n 2; expect_rc 2; expect_err 'no program to run'
    run 10 "$MPIEXEC" --bind-to socket "$LH"; expect_rc 2; expect_err "takes 'core' or 'none'"
    run 10 "$MPIEXEC" -n 2 ./no-such-program-xb; expect_rc 127
    expect_err "cannot start './no-such-program-xb' on $HOST: No such file or directory"
    run 10 "$MPIEXEC" -np 2 --timeout=5 -l "$LH" exit 0; expect_rc 0
    run 10 "$MPIEXEC" -n 2 -wdir "$T" pwd; expect_rc 0
    [ "$(count "^$T\$" "$T/out")" = 2 ] || fail "-wdir not applied"
    run 10 "$MPIEXEC" -wdir "$T/nope" pwd; expect_rc 2
    # MPMD: programs separated by ':' form one job; appnum counts them
    run 20 "$MPIEXEC" -n 2 "$LH" pmi : -n 1 -wdir "$T" "$LH" pmi
    expect_rc 0
    [ "$(count '^pmi ok rank [01] size 3 appnum 0 ' "$T/out")" = 2 ] || fail "MPMD app 0"
    [ "$(count '^pmi ok rank 2 size 3 appnum 1 ' "$T/out")" = 1 ] || fail "MPMD app 1"
    run 10 "$MPIEXEC" -n 2 "$LH" exit 0 :; expect_rc 2; expect_err "after ':', no program" ;;
hosts)
    # placement on hosts (all started here with --local-hosts), each host its
    # own node: its own XB_HOST, local ranks, job segment; the node map
    show='echo "$PMI_RANK $XB_HOST $MPI_LOCALRANKID/$MPI_LOCALNRANKS"'
    run 20 "$MPIEXEC" -n 5 -hosts a:2,b:1 --local-hosts sh -c "$show"
    expect_rc 0
    for l in "0 a 0/4" "1 a 1/4" "2 b 0/1" "3 a 2/4" "4 a 3/4"; do
        expect_out "^$l\$"
    done
    printf '# two hosts\nx slots=2\ny:1 # comment\n\n' >"$T/hf"
    run 20 "$MPIEXEC" -n 3 -f "$T/hf" --local-hosts sh -c "$show"
    expect_rc 0; expect_out '^0 x 0/2$'; expect_out '^1 x 1/2$'; expect_out '^2 y 0/1$'
    MPIEXEC_HOSTS=p,q MPIEXEC_LOCAL_HOSTS=1 run 20 "$MPIEXEC" -n 4 -ppn 1 sh -c "$show"
    expect_rc 0; expect_out '^0 p 0/2$'; expect_out '^1 q 0/2$'; expect_out '^2 p 1/2$'
    # every job gets a fresh 64-hex-digit secret
    run 20 "$MPIEXEC" -n 2 sh -c 'echo "s=$XB_JOB_SECRET"'
    [ "$(grep -Ec '^s=[0-9a-f]{64}$' "$T/out")" = 2 ] || fail "no job secret"
    [ "$(sort -u "$T/out" | wc -l)" = 1 ] || fail "ranks of one job got different secrets"
    cp "$T/out" "$T/first"; run 20 "$MPIEXEC" -n 1 sh -c 'echo "s=$XB_JOB_SECRET"'
    cmp -s "$T/out" "$T/first" && fail "two jobs got the same secret"
    # another machine gets a proxy over ssh: a name that does not resolve is
    # one message naming the host and ssh's words, status 255
    run 30 "$MPIEXEC" -n 2 -hosts "$HOST",elsewhere.invalid "$LH" exit 0
    expect_rc 255
    expect_err "^mpiexec: cannot start the proxy on host elsewhere.invalid \(ssh .*elsewhere.invalid .*--xb-proxy\): the command exited with status"
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message"
    run 20 "$MPIEXEC" -n 2 -hosts a:x "$LH" exit 0
    expect_rc 2; expect_err "cannot read 'a:x'" ;;
remote)
    # hosts started through a proxy (--launcher-exec; fake_rsh.sh runs it
    # here): placement, PMI, output, stdin, exit status and failures as with
    # local ranks. tests/hosts runs the same over network namespaces.
    RSH="$(cd "$(dirname "$0")" && pwd)/fake_rsh.sh"
    show='echo "$PMI_RANK $XB_HOST $MPI_LOCALRANKID/$MPI_LOCALNRANKS"'
    run 30 "$MPIEXEC" -n 5 -hosts a:2,b:1 --launcher-exec "$RSH" sh -c "$show"
    expect_rc 0
    for l in "0 a 0/4" "1 a 1/4" "2 b 0/1" "3 a 2/4" "4 a 3/4"; do expect_out "^$l\$"; done
    run 30 "$MPIEXEC" -n 4 -hosts "$HOST",b --launcher-exec "$RSH" "$LH" pmi
    expect_rc 0
    [ "$(count '^pmi ok rank [0-3] size 4 appnum 0 universe 4 nnodes 2 node [01] kvs set map \(vector,\(0,1,2\),\(1,1,2\)\)$' "$T/out")" = 4 ] ||
        fail "PMI through a proxy failed"
    run 30 "$MPIEXEC" -n 4 -l -hosts a,b --launcher-exec "$RSH" "$LH" lines 200
    expect_rc 0
    [ "$(wc -l <"$T/out")" = 800 ] || fail "expected 800 lines"
    [ "$(grep -Ec '^\[([0-3])\] rank \1 line [0-9]+ x+ end$' "$T/out")" = 800 ] || fail "untagged or broken lines"
    head -c 300000 /dev/urandom >"$T/in"
    timeout 30 "$MPIEXEC" -n 2 -hosts a,b --launcher-exec "$RSH" sh -c '[ "$PMI_RANK" = 0 ] && cksum; true' \
        <"$T/in" >"$T/out" 2>"$T/err"; RC=$?
    expect_rc 0
    [ "$(cksum <"$T/in")" = "$(cat "$T/out")" ] || fail "stdin did not reach remote rank 0 intact"
    run 30 "$MPIEXEC" -n 4 -hosts a,b --launcher-exec "$RSH" sh -c '[ "$PMI_RANK" = 3 ] && exit 7; exec sleep 20'
    expect_rc 7
    expect_err "^mpiexec: rank 3 \(pid [0-9]+\) on b exited with status 7; ending the job"
    run 30 "$MPIEXEC" -n 3 -hosts a,b --launcher-exec "$RSH" "$LH" pmi-abort 9
    expect_rc 9
    expect_err "^mpiexec: rank 1 \(pid [0-9]+\) on a called MPI_Abort with code 9: helper gave up"
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message"
    run 30 "$MPIEXEC" -n 2 -hosts a,b --launcher-exec "$RSH" "$T/nothing-here"
    expect_rc 127
    expect_err "^mpiexec: cannot start '$T/nothing-here' on [ab]: No such file or directory"
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message"
    run 30 "$MPIEXEC" -n 2 -hosts a,b --launcher-exec "$T/no-rsh -p 22" "$LH" exit 0
    expect_rc 255
    expect_err "^mpiexec: cannot start the proxy on host ([ab]) \\($T/no-rsh -p 22 \\1 /.*mpiexec --xb-proxy\\): the command exited with status 127: cannot run '$T/no-rsh'"
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message"
    # --timeout: what remote ranks wait in comes from their hosts' proxies
    run 30 "$MPIEXEC" -n 3 -hosts a:1,b:2 --timeout 1 --launcher-exec "$RSH" "$LH" waiting "MPI_Recv(source=1, tag=7)"
    expect_rc 124
    for r in 0 1 2; do
        expect_err "rank $r \(pid [0-9]+\) on [ab]: waiting in MPI_Recv\(source=1, tag=7\) \(rank $r\)"
    done
    # a proxy that never answers: MPIEXEC_PROXY_TIMEOUT
    printf '#!/bin/sh\nexec sleep 30\n' >"$T/hang-rsh"; chmod +x "$T/hang-rsh"
    MPIEXEC_PROXY_TIMEOUT=1 run 30 "$MPIEXEC" -n 2 -hosts a,b --launcher-exec "$T/hang-rsh" "$LH" exit 0
    expect_rc 255
    expect_err "^mpiexec: the proxy on host [ab] .* did not answer within 1 s"
    [ "$(count '^mpiexec: ' "$T/err")" = 1 ] || fail "expected exactly one message" ;;
*)
    echo "usage: run.sh CASE"; exit 2 ;;
esac
echo "PASS: $1"
