#!/bin/sh
# mk/fuzz-smoke.sh - the short, fixed fuzz run of `make check` (make fuzz-smoke).
#
# Usage: mk/fuzz-smoke.sh BUILD_DIR   (the fuzz build: make fuzz-build)
#
# 1. Each target of tests/fuzz/ runs FUZZ_RUNS inputs (default 20000: a
#    few seconds) from its seeds, libFuzzer -seed=1, into a scratch corpus:
#    a crash, a sanitizer report or a finding fails the check.  The
#    classes of the findings still open (KNOWN below, tests/fuzz/README.md)
#    are ignored, through FUTEXSIM_FUZZ_IGNORE (FUZZ_KNOWN= in the
#    environment: none is, and the run fails on the first).
# 2. Negative control: with FUTEXSIM_FUZZ_SELFTEST=1 each target breaks
#    its own round-trip check; run over one seed that round-trips, each
#    must abort with its "fuzz: ..." line.
# 3. The dictionaries name every key of the tables they are made from.
# 4. tests/fuzz/findings/*.{scn,machine,replay,build}: each input of an
#    open finding, run by its target without the ignore list, is reported
#    as "open" (the target aborts with its finding) or "fixed" (then its
#    class can leave KNOWN and the file can go); information only.
# Exit status: 0 all passed, 1 otherwise.
set -u

B=${1:?usage: mk/fuzz-smoke.sh BUILD_DIR}
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
RUNS=${FUZZ_RUNS:-20000}
# open findings' classes: tests/fuzz/README.md "Findings"
KNOWN=${FUZZ_KNOWN-}

export ASAN_OPTIONS=detect_leaks=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=$SRC/mk/ubsan.supp
W=$B/fuzz-smoke
rm -rf "$W"
mkdir -p "$W"
fail=0

seeds() {
	case $1 in
	scenario) echo "$SRC/tests/fuzz/corpus/scenario $SRC/workloads/scenarios" ;;
	machine) echo "$SRC/tests/fuzz/corpus/machine $SRC/machines" ;;
	*) echo "$SRC/tests/fuzz/corpus/$1" ;;
	esac
}

# 1. the short runs
for t in scenario machine replay build; do
	mkdir -p "$W/$t/corpus" "$W/$t/run"
	(cd "$W/$t/run" && FUTEXSIM_FUZZ_IGNORE=$KNOWN "$B/fuzz_$t" -seed=1 \
		-runs="$RUNS" -dict="$SRC/tests/fuzz/$t.dict" \
		-artifact_prefix="$W/$t/" -print_final_stats=1 -close_fd_mask=1 \
		"$W/$t/corpus" $(seeds "$t") </dev/null >"$W/$t.log" 2>&1)
	rc=$?
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/$t.log")
	cov=$(grep -a -E '^#[0-9]+' "$W/$t.log" | tail -1 |
		sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1 ft \2/p')
	if [ "$rc" != 0 ]; then
		echo "fuzz-smoke: fuzz_$t: FAILED after ${n:-?} inputs (log $W/$t.log):"
		grep -a -v 'ignored (FUTEXSIM_FUZZ_IGNORE)' "$W/$t.log" |
			grep -a -m3 -E '^fuzz: |ERROR: |runtime error|^futexsim: ' |
			sed 's/^/  /'
		fail=1
	else
		echo "fuzz-smoke: fuzz_$t: ${n:-?} inputs, $cov, no finding"
	fi
done

# 2. the negative control: one seed each that round-trips
for ts in scenario:tests/fuzz/corpus/scenario/spin.scn \
	  machine:tests/fuzz/corpus/machine/tiny4-set \
	  replay:tests/fuzz/corpus/replay/explore.replay \
	  build:tests/fuzz/corpus/build/one; do
	t=${ts%%:*}
	(cd "$W/$t/run" && FUTEXSIM_FUZZ_SELFTEST=1 "$B/fuzz_$t" \
		"$SRC/${ts#*:}" </dev/null >"$W/$t-selftest.log" 2>&1)
	rc=$?
	if [ "$rc" != 0 ] && grep -a -q "^fuzz: fuzz_$t: " "$W/$t-selftest.log"; then
		echo "fuzz-smoke: fuzz_$t: FUTEXSIM_FUZZ_SELFTEST=1 caught: $(grep -a -m1 "^fuzz: " "$W/$t-selftest.log" | cut -d: -f3- | cut -c2-)"
	else
		echo "fuzz-smoke: fuzz_$t: FUTEXSIM_FUZZ_SELFTEST=1 did not fail (exit $rc; $W/$t-selftest.log)"
		fail=1
	fi
	# ... and the same seed passes without it
	(cd "$W/$t/run" && "$B/fuzz_$t" "$SRC/${ts#*:}" </dev/null \
		>"$W/$t-seed.log" 2>&1) || {
		echo "fuzz-smoke: fuzz_$t: the seed ${ts#*:} fails ($W/$t-seed.log)"
		fail=1
	}
done

# 3. the dictionaries against their tables
dict_has() {	# DICT KEY...
	d=$1
	shift
	for k; do
		grep -q -F "\"$k\"" "$SRC/tests/fuzz/$d.dict" || {
			echo "fuzz-smoke: tests/fuzz/$d.dict lacks \"$k\""
			fail=1
		}
	done
}
dict_has scenario $(sed -n 's/^	{ "\([a-z0-9-]*\)", ".*/\1/p' "$SRC/sim/scenario/scenario.c")
dict_has machine $(sed -n 's/^	{ "\([a-z0-9-]*\)",.*P_[A-Z]*,.*/\1/p' "$SRC/sim/scenario/preset.c")
dict_has build $(sed -n 's/^	{ "\(-[A-Za-z]*\)", TO_.*/\1/p' "$SRC/sim/program/build.c")

# 4. the open findings' inputs
for f in "$SRC"/tests/fuzz/findings/*; do
	[ -f "$f" ] || continue
	t=${f##*.}
	[ "$t" = scn ] && t=scenario
	(cd "$W/$t/run" && "$B/fuzz_$t" "$f" </dev/null >"$W/finding.log" 2>&1)
	if [ $? != 0 ] && grep -a -q "^fuzz: fuzz_$t: " "$W/finding.log"; then
		echo "fuzz-smoke: finding $(basename "$f"): open"
	else
		echo "fuzz-smoke: finding $(basename "$f"): fixed (its class can leave KNOWN in mk/fuzz-smoke.sh)"
	fi
done

[ "$fail" = 0 ] && echo "fuzz-smoke: passed" || echo "fuzz-smoke: FAILED"
exit "$fail"
