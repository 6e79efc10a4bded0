#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mk/check-instr.sh B - the instrumented kernel build (make INSTR=1;
# docs/kernels.md, "An instrumented kernel"), in B/instr:
#
#  1. --version says so, and a run makes more hooks than B's (every plain
#     access of the kernel files and the lock algorithms is one);
#  2. the kernel's futex selftests (mk/selftests.sh) give their outcomes;
#  3. the suites that check correctness rather than figures pass
#     (figures, schedules and the runs a search needs change with the
#     extra scheduling points);
#  4. explore: the correct twins of the bug catalogue pass RUNS runs.
#
# Stage: tests (make check-instr).  Exit status: 0 when all passed.
set -u
B=$1
I=$B/instr
RUNS=300
SRC=$(pwd)
fail=0

no() {
	echo "instr: FAIL: $*"
	fail=$((fail + 1))
}

echo "  BUILD   INSTR=1 into $I"
if ! make -s --no-print-directory INSTR=1 B="$I" "$I/futexsim" "$I/check" \
	"$I/libfutexsim.a" > "$B/instr.log" 2>&1; then
	tail -20 "$B/instr.log"
	echo "instr: FAIL: the INSTR=1 build failed (see $B/instr.log)"
	exit 1
fi
"$I/futexsim" --version | grep -q 'instrumented: INSTR=1' ||
	no "$I/futexsim --version does not say instrumented"
run="run --lock=ww --threads=4 --ops=20000"
hooks() { "$1/futexsim" $run --json="$2" > /dev/null &&
	sed -n 's/.*"hooks":\([0-9]*\).*/\1/p' "$2" | head -1; }
h0=$(hooks "$B" "$I/hooks0.json")
h1=$(hooks "$I" "$I/hooks1.json")
if [ -n "$h0" ] && [ -n "$h1" ] && [ "$h1" -gt "$h0" ]; then
	echo "  CHECK   hooks of '$run': $h0, instrumented $h1"
else
	no "the instrumented build made no more hooks ($h0, $h1)"
fi
sh mk/selftests.sh "$I" > "$I/selftests.log" 2>&1 || no "selftests"
sed 's/^/instr: /' "$I/selftests.log"
mkdir -p "$I/checkrun"
for s in qspinlock pi tp_owner_death syscall uapi sched series glibc nptl; do
	if ! out=$(cd "$I/checkrun" && CK_RUN_SUITE=$s \
		   FUTEXSIM=$(cd .. && pwd)/futexsim ../check 2>&1); then
		echo "$out" | tail -5
		no "suite $s"
	fi
done
echo "  CHECK   instrumented: the correctness suites ran: $fail failures"
for f in workloads/bugs/*-ok.scn; do
	st=0
	out=$(cd "$I/checkrun" && ../futexsim explore "$SRC/$f" \
		--strategy=random --runs=$RUNS 2>&1) || st=$?
	if [ "$st" = 0 ]; then
		echo "  CHECK   $(basename "$f"): $(echo "$out" | head -1)"
	else
		echo "$out" | head -3
		no "$(basename "$f") failed under the instrumented kernel (exit $st)"
	fi
done
[ "$fail" = 0 ] && echo "  CHECK   instr: all passed"
[ "$fail" = 0 ]
