#!/bin/sh
# mk/check-kernels.sh B - the kernels other than the default build's
# (part of make check; docs/kernels.md):
#
#  1. the other series: the simulator built over linux-source-6.12 in
#     B/k6.12 (its kernel objects audited), the kernel's futex selftests
#     (mk/selftests.sh) and the suites that run kernel code, against it;
#  2. a user's kernel: B/linux copied as a tree (KSRC=) with a patch that
#     breaks the futex protocol (tests/kpatch/wait-setup-unlocked-read.sh:
#     the word read before the hash bucket lock) applied (KPATCH=);
#     explore must find the lost wakeup within RUNS runs on it and the
#     default build must pass the same search;
#     then the same tree with a patch that removes barrier (B) of the
#     futex ordering (tests/kpatch/waiters-pending-no-mb.sh): explore of
#     workloads/examples/flag_wake.c, instrumented, must find the lost
#     wakeup under memory=arm64 within RUNS runs and name the kernel's
#     load in its reorderings; memory=sc on it, and memory=arm64 on the
#     default build, must pass the same search;
#  3. bad input: a patch that does not apply, a tree of an unsupported
#     series: one line naming it, make stops.
#
# Stage: tests.  Variables given to the calling make (CC, O) reach the
# builds through MAKEFLAGS.  Exit status: 0 when all passed, 1 otherwise.
set -u
B=$1
ABSB=$(cd "$B" && pwd)
SRC=$(pwd)
K612=$B/k6.12
KP=$B/kpatch
RUNS=2000
fail=0

no() {
	echo "kernels: FAIL: $*"
	fail=$((fail + 1))
}

# ---- 1. linux-source-6.12 ----------------------------------------------------
echo "  BUILD   KERNEL=6.12 into $K612"
if make -s --no-print-directory KERNEL=6.12 B="$K612" "$K612/futexsim" \
	"$K612/check" "$K612/libfutexsim.a" kernel-audit > "$B/k6.12.log" 2>&1; then
	"$K612/futexsim" --version | grep -q '(kernel 6\.12\.' ||
		no "$K612/futexsim --version does not name 6.12"
	sh mk/selftests.sh "$K612" > "$K612/selftests.log" 2>&1 ||
		no "6.12 selftests"
	sed 's/^/6.12: /' "$K612/selftests.log"
	# the suites two at once, each from a folder of its own
	R=$(cd "$K612" && pwd)/checkrun
	mkdir -p "$R"
	rm -f "$R"/*.status
	export R
	echo qspinlock qspin_2014 spin mutex kmutex pi tp tp_owner_death \
		syscall uapi sched explore replay series glibc nptl lockstat \
		uword | tr ' ' '\n' | xargs -P 2 -n 1 sh -c '
		mkdir -p "$R/$1"
		cd "$R/$1" && CK_RUN_SUITE="$1" FUTEXSIM="$R/../futexsim" \
			"$R/../check" > "$R/$1.log" 2>&1
		echo $? > "$R/$1.status"' sh
	for f in "$R"/*.status; do
		s=$(basename "$f" .status)
		if [ "$(cat "$f")" != 0 ]; then
			cat "$R/$s.log"
			no "6.12: suite $s"
		fi
	done
	echo "  CHECK   6.12: the kernel-side suites passed: $fail failures"
else
	tail -20 "$B/k6.12.log"
	no "the KERNEL=6.12 build failed (see $B/k6.12.log)"
fi

# ---- 2. a user's tree with a patch -------------------------------------------
rm -rf "$KP.tree"
mkdir -p "$KP.tree"
cp -pR "$B/linux/." "$KP.tree/"
rm -f "$KP.tree/.stamp"
sh tests/kpatch/wait-setup-unlocked-read.sh "$B/linux" > "$KP.patch" ||
	no "the patch could not be made"
echo "  BUILD   KSRC=$KP.tree KPATCH=$KP.patch into $KP"
# the patched builds without link-time optimization (LTO=): what they
# test is the patch, and each LTO build lengthens make check (the 6.12
# build above keeps it: a series must link with it)
if make -s --no-print-directory B="$KP" KSRC="$KP.tree" KPATCH="$KP.patch" LTO= \
	"$KP/futexsim" > "$B/kpatch.log" 2>&1; then
	v=$("$KP/futexsim" --version)
	case "$v" in
	*"(tree "*" + patch kpatch.patch sha256:"*) ;;
	*) no "the patched build's --version: $v" ;;
	esac
	ex="explore $SRC/workloads/bugs/lost-wakeup-ok.scn --strategy=random --runs=$RUNS"
	mkdir -p "$KP/run"
	st=0
	(cd "$KP/run" && ../futexsim $ex --out=lost.replay) \
		> "$KP/explore.out" 2>&1 || st=$?
	if [ "$st" = 3 ] && grep -q '^explore: lost-wakeup fired in run' "$KP/explore.out"; then
		echo "  CHECK   patched kernel: $(grep '^explore: lost-wakeup' "$KP/explore.out")"
		(cd "$KP/run" && ../futexsim replay lost.replay) > /dev/null 2>&1
		[ $? = 3 ] || no "the patched kernel's replay file does not fail again"
	else
		head -5 "$KP/explore.out"
		no "explore did not find the patched kernel's lost wakeup in $RUNS runs (exit $st)"
	fi
	st=0
	(cd "$KP/run" && "$ABSB/futexsim" $ex) > "$KP/explore-stock.out" 2>&1 || st=$?
	if [ "$st" = 0 ]; then
		echo "  CHECK   stock kernel: $(tail -1 "$KP/explore-stock.out")"
	else
		no "the stock kernel failed the same search (exit $st, $KP/explore-stock.out)"
	fi
else
	tail -20 "$B/kpatch.log"
	no "the KSRC= KPATCH= build failed (see $B/kpatch.log)"
fi

# ---- 2b. the same tree without barrier (B), under memory=arm64 ----------------
mkdir -p "$KP/run"
sh tests/kpatch/waiters-pending-no-mb.sh "$B/linux" > "$KP.nomb.patch" ||
	no "the barrier patch could not be made"
echo "  BUILD   KSRC=$KP.tree KPATCH=$KP.nomb.patch into $KP"
fw=$SRC/workloads/examples/flag_wake.c
ex="explore --strategy=random --runs=$RUNS"
if make -s --no-print-directory B="$KP" KSRC="$KP.tree" KPATCH="$KP.nomb.patch" LTO= \
	"$KP/futexsim" "$KP/libfutexsim.a" > "$B/kpatch-nomb.log" 2>&1 &&
   (cd "$KP/run" && ../futexsim build --instrument "$fw" -o fw &&
    "$ABSB/futexsim" build --instrument "$fw" -o fw-stock) \
	>> "$B/kpatch-nomb.log" 2>&1; then
	st=0
	(cd "$KP/run" && ./fw $ex --memory=arm64 --out=nomb.replay) \
		> "$KP/nomb.out" 2>&1 || st=$?
	if [ "$st" = 3 ] && grep -q '^explore: deadlock fired in run' "$KP/nomb.out"; then
		echo "  CHECK   no barrier (B), memory=arm64: $(grep '^explore: deadlock' "$KP/nomb.out")"
		st=0
		(cd "$KP/run" && ./fw replay nomb.replay) > "$KP/nomb.replay.out" 2>&1 || st=$?
		[ "$st" = 3 ] || no "the barrier patch's replay file does not fail again (exit $st)"
		grep -q 'load of .* in futex_hb_waiters_pending (kernel/futex/futex.h:[0-9]*) < futex_wake .* before its store to flag\[0\] (flag_wake.c:[0-9]*) was visible' \
			"$KP/nomb.replay.out" ||
			no "the barrier patch's report does not name the reordered load ($KP/nomb.replay.out)"
		grep -q 'waits on flag\[[0-9]*\] (flag_wake.c:[0-9]*), .*; it slept on 0 and the word reads 1: its wakeup was lost' \
			"$KP/nomb.replay.out" ||
			no "the barrier patch's report does not call the wakeup lost ($KP/nomb.replay.out)"
	else
		head -5 "$KP/nomb.out"
		no "explore did not find the lost wakeup without barrier (B) under memory=arm64 in $RUNS runs (exit $st)"
	fi
	for run in "fw --memory=sc" "fw-stock --memory=arm64"; do
		st=0
		(cd "$KP/run" && ./${run%% *} $ex ${run#* }) > "$KP/nomb-pass.out" 2>&1 || st=$?
		if [ "$st" = 0 ]; then
			echo "  CHECK   ${run%% *} ${run#* }: $(head -1 "$KP/nomb-pass.out")"
		else
			head -5 "$KP/nomb-pass.out"
			no "flag_wake ($run) failed the search (exit $st)"
		fi
	done
else
	tail -20 "$B/kpatch-nomb.log"
	no "the barrier patch's build failed (see $B/kpatch-nomb.log)"
fi

# ---- 3. bad input ------------------------------------------------------------
printf -- '--- a/kernel/futex/waitwake.c\n+++ b/kernel/futex/waitwake.c\n@@ -1,1 +1,1 @@\n-no such line\n+nor this one\n' > "$KP.bad.patch"
out=$(make -s --no-print-directory B="$KP.bad" KPATCH="$KP.bad.patch" \
	"$KP.bad/futexsim" 2>&1)
st=$?
lines=$(echo "$out" | grep -c '^futexsim: ')
if [ "$st" = 0 ] || [ "$lines" != 1 ] ||
   ! echo "$out" | grep -q "^futexsim: KPATCH=$KP.bad.patch: does not apply to 6.1: "; then
	echo "$out"
	no "a patch that does not apply: exit $st, not one clear line"
fi
[ -e "$KP.bad/linux" ] && no "a patch that does not apply left $KP.bad/linux"
sed -i 's/^PATCHLEVEL = .*/PATCHLEVEL = 4/' "$KP.tree/Makefile"
out=$(make -s --no-print-directory B="$KP.bad" KSRC="$KP.tree" \
	"$KP.bad/futexsim" 2>&1)
st=$?
if [ "$st" = 0 ] || ! echo "$out" | grep -q "KERNEL=6.4: not a series futexsim supports (expected one of: 6.1 6.12) (KSRC=$KP.tree is 6.4)"; then
	echo "$out"
	no "a tree of an unsupported series: exit $st, not the one line"
fi
rm -rf "$KP.tree" "$KP.bad" "$KP.bad.patch" "$KP.nomb.patch"

[ "$fail" = 0 ] && echo "  CHECK   kernels: 6.12, a patched tree, bad input: all passed"
[ "$fail" = 0 ]
