#!/bin/sh
# mk/fuzz.sh - run each libFuzzer target of tests/fuzz/ for a while (make fuzz).
#
# Usage: mk/fuzz.sh BUILD_DIR SECONDS [TARGET...]
# Runs BUILD_DIR/fuzz_TARGET (default: all four) for SECONDS each, one
# after the other, from the seeds of tests/fuzz/corpus/TARGET (and
# workloads/scenarios, machines/), with tests/fuzz/TARGET.dict; the corpus
# grows in BUILD_DIR/fuzz-corpus/TARGET and findings are saved as
# BUILD_DIR/fuzz-out/TARGET/crash-* (tests/fuzz/README.md says how to
# read one).  Prints one line per target: executions, executions per
# second, coverage (cov: edges, ft: features), corpus size, findings.
# FUZZ_SEED (default 1) is libFuzzer's -seed; FUZZ_JOBS is not used: one
# process, so the 2-core machine stays usable.
# Exit status: 0 no finding, 1 a finding (or a target that did not run).
set -u

B=${1:?usage: mk/fuzz.sh BUILD_DIR SECONDS [TARGET...]}
S=${2:?usage: mk/fuzz.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
TARGETS=${*:-scenario machine replay build}
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "$B" && pwd)
SEED=${FUZZ_SEED:-1}

export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1:suppressions=$SRC/mk/ubsan.supp

# seeds: TARGET -> directories
seeds() {
	case $1 in
	scenario) echo "$SRC/tests/fuzz/corpus/scenario $SRC/workloads/scenarios" ;;
	machine) echo "$SRC/tests/fuzz/corpus/machine $SRC/machines" ;;
	*) echo "$SRC/tests/fuzz/corpus/$1" ;;
	esac
}

status=0
printf '%-9s %12s %9s %7s %7s %7s %s\n' target execs exec/s cov ft corpus findings
for t in $TARGETS; do
	bin=$B/fuzz_$t
	out=$B/fuzz-out/$t
	corpus=$B/fuzz-corpus/$t
	log=$out/fuzz.log
	mkdir -p "$out" "$corpus" "$out/run"
	# from a scratch folder: a scenario's relative paths land there
	(cd "$out/run" && "$bin" -seed="$SEED" -max_total_time="$S" \
		-dict="$SRC/tests/fuzz/$t.dict" -artifact_prefix="$out/" \
		-print_final_stats=1 -close_fd_mask=1 \
		"$corpus" $(seeds "$t") </dev/null >"$log" 2>&1)
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	found=$(ls "$out" | grep -c '^\(crash\|leak\|timeout\|oom\)-')
	printf '%-9s %12s %9s %7s %7s %7s %s\n' "$t" "${execs:-?}" \
		"${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found"
	if [ "$rc" != 0 ] || [ "$found" != 0 ]; then
		status=1
		grep -a -v 'ignored (FUTEXSIM_FUZZ_IGNORE)' "$log" |
			grep -a -m1 -E '^fuzz: |ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' |
			sed "s|^|  $t: |"
		echo "  $t: log $log"
	fi
done
exit $status
