#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mk/check-instr.sh B - the instrumented kernel build (make INSTR=1;
# docs/kernels.md, "An instrumented kernel"), in B/instr:
#
#  1. --version says so, and a run makes more hooks than B's (every plain
#     access of the kernel files and the lock algorithms is one);
#  2. the kernel's futex selftests (mk/selftests.sh) give their outcomes;
#  3. the suites that check correctness rather than figures pass, but
#     for their cases tagged "timing" (figures, schedules and the runs a
#     search needs change with the extra scheduling points);
#  4. explore: the correct twins of the bug catalogue pass RUNS runs;
#  5. a run traced is the same run untraced (the trace's reads are no
#     hooks; a task's own stack is not charged);
#  6. the race oracle on the kernel (sim/arch/kcsan.c; the kcsan suite of
#     step 3 checks its marks): the stock kernel's futex locks and the
#     futex selftests show no race; a kernel whose FUTEX_WAKE walks its
#     bucket without the lock (tests/kpatch/wake-without-hb-lock.sh,
#     built in B/instr-wnl) shows one, which replays and shrinks, its
#     report naming the plist accesses; the same search without the
#     race oracle reports no race (the control).
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
for s in kcsan qspinlock pi tp_owner_death syscall uapi sched series glibc nptl; do
	# a case tagged "timing" asserts what the normal build's timing
	# shows, which is not an instrumented kernel's
	if ! out=$(cd "$I/checkrun" && CK_RUN_SUITE=$s CK_EXCLUDE_TAGS=timing \
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

# 5. traced and untraced
cmpout() { grep -v '^\(json\|trace\) = ' "$1"; }
"$I/futexsim" $run > "$I/untraced.out" &&
	"$I/futexsim" $run --trace="$I/traced.txt" > "$I/traced.out" &&
	[ "$(cmpout "$I/untraced.out")" = "$(cmpout "$I/traced.out")" ] &&
	echo "  CHECK   '$run': traced, the same run as untraced" ||
	no "'$run' traced is not the run untraced"

# 6. races
xrun="--machine=tiny4 --threads=4 --ops=200 --strategy=random"
xrace="$xrun --oracle=race"
# The stock kernel has one: the kernel mutex's optimistic spinning (lock
# tp's futex_state mutex) reads node->next plainly in osq_wait_next()
# while the next CPU to queue stores it with WRITE_ONCE() in osq_lock()
# (a read the xchg() after it checks again; 6.12 has it too).  Any other
# race fails the check.
osq_race() {
	echo "$1" | grep -q 'in osq_wait_next (kernel/locking/osq_lock.c:' &&
	    echo "$1" | grep -q 'in osq_lock (kernel/locking/osq_lock.c:'
}
for l in ww pi tp; do
	st=0
	out=$(cd "$I/checkrun" && ../futexsim explore $xrace --lock=$l \
		--runs=$RUNS 2>&1) || st=$?
	if [ "$st" = 0 ]; then
		echo "  CHECK   race, lock $l: $(echo "$out" | head -1)"
	elif [ "$st" = 3 ] && [ $l = tp ] && osq_race "$out"; then
		echo "  CHECK   race, lock $l: the stock kernel's one, osq_wait_next()'s plain read of node->next against osq_lock()'s WRITE_ONCE(): $(echo "$out" | head -1)"
	else
		echo "$out" | head -3
		no "lock $l: a race in the stock kernel"
	fi
done
for t in futex_wait futex_requeue futex_requeue_pi futex_wait_timeout \
	 futex_wait_wouldblock; do
	st=0
	out=$(cd "$I/checkrun" && ../selftests/$t explore --strategy=random \
		--oracle=mutex,deadlock,state,bug,crash,race --runs=30 2>&1) || st=$?
	[ "$st" = 0 ] && echo "  CHECK   race, selftest $t: $(echo "$out" | grep '^explore:')" ||
		{ echo "$out" | grep -v '^#\|^ok' | head -3; no "selftest $t: a race"; }
done
W=$B/instr-wnl
if sh tests/kpatch/wake-without-hb-lock.sh "$B/linux" > "$B/wnl.patch" &&
   make -s --no-print-directory INSTR=1 KPATCH="$B/wnl.patch" B="$W" \
	"$W/futexsim" > "$B/instr-wnl.log" 2>&1; then
	mkdir -p "$W/run"
	st=0
	out=$(cd "$W/run" && ../futexsim explore $xrace --lock=ww --runs=20000 \
		--out=wnl.replay 2>&1) || st=$?
	echo "$out" | grep -q '^explore: race fired in run' &&
	    ! echo "$out" | grep -q 'diverged\|exited with' &&
	    echo "$out" | grep -q 'DATA RACE: .*plain' &&
	    echo "$out" | grep -q 'in \(plist_\(del\|add\) (lib/plist.c\|futex_wake\(_mark\)\? (kernel/futex/waitwake.c\|__futex_unqueue (kernel/futex/core.c\):' &&
	    echo "  CHECK   race, FUTEX_WAKE without the bucket lock: $(echo "$out" | head -1)" ||
		{ echo "$out" | head -5; no "wake-without-hb-lock: the race not found (exit $st)"; }
	if (cd "$W/run" && ../futexsim shrink wnl.replay > shrink.out 2>&1;
	    ../futexsim replay wnl.min.replay > min.out 2>&1; [ $? = 3 ]) &&
	   grep -q '^futexsim: DATA RACE' "$W/run/min.out"; then
		echo "  CHECK   race: $(grep '^shrink: after' "$W/run/shrink.out"), the shrunk run replays the race"
	else
		tail -3 "$W/run/shrink.out" "$W/run/min.out"
		no "wake-without-hb-lock: the shrunk replay is not the race"
	fi
	out=$(cd "$W/run" && ../futexsim explore $xrun --lock=ww --runs=3000 \
		--oracle=mutex,state,bug,crash 2>&1) || true
	echo "$out" | grep -q 'DATA RACE' &&
		no "wake-without-hb-lock: a race reported without the race oracle" ||
		echo "  CHECK   race: without the race oracle, $(echo "$out" | grep '^explore:' | head -1)"
else
	tail -5 "$B/instr-wnl.log"
	no "the wake-without-hb-lock kernel did not build"
fi

[ "$fail" = 0 ] && echo "  CHECK   instr: all passed"
[ "$fail" = 0 ]
