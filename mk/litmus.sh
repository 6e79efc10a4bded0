#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mk/litmus.sh [B] [RUNS] - the litmus table (docs/programs.md, "Litmus
# tests"): workloads/examples/litmus.c built with --instrument by
# B/futexsim (default build), and for each test and each outcome, RUNS
# random explore runs (default 2000) on tiny4 under memory=sc, tso and
# arm64: "seen" with the run that first gave it, or "not seen".  Beside
# each, what sequential consistency, x86-TSO and ARMv8 allow; a "not
# seen" that the model allows, or a "seen" it forbids, is marked
# MISMATCH and the script exits 1.
#
# mk/litmus.sh --self-test [B]: the negative control: a row whose
# expectation is wrong (SB's 0 0 said to be allowed by SC) must be
# marked MISMATCH (exit 0 if it is, 1 if not).
set -u
# one verdict, a job of the xargs below: IDX MODEL RUNS TEST OUTCOME
if [ "${1:-}" = --verdict ]; then
	d=$2/in-$3-$4	# its replay files apart from the others'
	mkdir -p "$d"
	out=$(cd "$d" && ../litmus explore --machine=tiny4 --memory="$4" \
		--args="$6 $7" --strategy=random --runs="$5" 2>/dev/null)
	run=$(printf '%s\n' "$out" | sed -n 's/^explore: crash fired in run \([0-9]*\).*/\1/p')
	if [ -n "$run" ]; then
		echo "seen (run $run)" > "$2/v$3.$4"
	else
		echo "not seen" > "$2/v$3.$4"
	fi
	exit 0
fi
self_test=0
if [ "${1:-}" = --self-test ]; then
	self_test=1
	shift
fi
B=${1:-build}
RUNS=${2:-2000}
TOP=$(cd "$(dirname "$0")/.." && pwd)
F=$(cd "$B" && pwd)/futexsim
DIR=$(mktemp -d /tmp/futexsim-litmus.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
"$F" build --instrument "$TOP/workloads/examples/litmus.c" -o "$DIR/litmus" || exit 1
bad=0

# Every verdict (explore's on TEST OUTCOME under one model: "seen (run
# N)" or "not seen") is a job of one xargs, as many at once as there are
# CPUs, and the table is printed when all are done: the rows' arm64
# searches are the long ones, and the other CPU need not wait for them.
JOBS=$(nproc 2>/dev/null || echo 2)
nrow=0

# does VERDICT agree with EXPECTED (allowed|forbidden)?
agrees() {
	case $1 in
	seen*) [ "$2" = allowed ];;
	*) [ "$2" != allowed ];;
	esac
}

# one row: TEST, OUTCOME, what SC, x86-TSO and ARMv8 allow, and the
# number of runs if not RUNS: its three verdicts into the job list
row() {
	nrow=$((nrow + 1))
	printf '%s\n' "$1" "$2" "$3" "$4" "$5" "${6:-}" > "$DIR/row$nrow"
	for m in arm64 sc tso; do
		printf '%s %s %s "%s" "%s"\n' $nrow $m "${6:-$RUNS}" "$1" "$2" >> "$DIR/jobs"
	done
}

# run the job list, then print row @1 (its verdicts done)
run_jobs() {
	xargs -P "$JOBS" -L 1 sh "$0" --verdict "$DIR" < "$DIR/jobs"
}

print_row() {
	{ read -r t; read -r o; read -r e_sc; read -r e_tso; read -r e_arm; read -r n; } < "$DIR/row$1"
	set -- "$t" "$o" "$e_sc" "$e_tso" "$e_arm" "$n"
	sc=$(cat "$DIR/v$nr.sc") tso=$(cat "$DIR/v$nr.tso") arm=$(cat "$DIR/v$nr.arm64")
	mark=
	if ! agrees "$sc" "$3" || ! agrees "$tso" "$4" || ! agrees "$arm" "$5"; then
		mark=" MISMATCH"
		bad=1
	fi
	armv8=$5
	runs=
	[ -n "${6:-}" ] && runs=" (${6} runs)"
	printf '| %s | %s%s | %s | %s | %s | %s | %s | %s |%s\n' "$1" "$2" "$runs" \
		"$3" "$sc" "$4" "$tso" "$armv8" "$arm" "$mark"
}

print_rows() {
	nr=1
	while [ $nr -le $nrow ]; do
		print_row $nr
		nr=$((nr + 1))
	done
}

# the rows of TEST: each argument OUTCOME:SC:TSO:ARMV8[:RUNS], RUNS times
# RUNS / 2000 (a shape that needs several choices to meet)
rows() {
	t=$1
	shift
	for o in "$@"; do
		n=$(echo "$o" | cut -d: -f5)
		[ -n "$n" ] && n=$((n * RUNS / 2000))
		row "$t" "$(echo "$o" | cut -d: -f1)" "$(echo "$o" | cut -d: -f2)" \
			"$(echo "$o" | cut -d: -f3)" "$(echo "$o" | cut -d: -f4)" $n
	done
}

if [ $self_test = 1 ]; then
	row SB "0 0" allowed allowed allowed
	run_jobs
	print_rows | grep -q MISMATCH && exit 0
	echo "litmus: the self-test's wrong row was not marked MISMATCH"
	exit 1
fi
echo "| test | outcome | SC | memory=sc, $RUNS runs | x86-TSO | memory=tso, $RUNS runs | ARMv8 | memory=arm64, $RUNS runs |"
echo "|---|---|---|---|---|---|---|---|"
rows SB "0 0:forbidden:allowed:allowed" "0 1:allowed:allowed:allowed" \
	"1 0:allowed:allowed:allowed" "1 1:allowed:allowed:allowed"
rows MP "0 0:allowed:allowed:allowed" "0 1:allowed:allowed:allowed" \
	"1 0:forbidden:forbidden:allowed" "1 1:allowed:allowed:allowed"
rows LB "0 0:allowed:allowed:allowed" "0 1:allowed:allowed:allowed" \
	"1 0:allowed:allowed:allowed" "1 1:forbidden:forbidden:allowed"
rows LB+fence "1 1:forbidden:forbidden:forbidden" "0 0:allowed:allowed:allowed"
rows LB+data "1 1:forbidden:forbidden:allowed" "0 0:allowed:allowed:allowed"
rows LB+ctrl "1 1:forbidden:forbidden:forbidden" "0 0:allowed:allowed:allowed"
rows 2+2W "1 1:forbidden:forbidden:allowed" "2 2:allowed:allowed:allowed" \
	"1 2:allowed:allowed:allowed" "2 1:allowed:allowed:allowed"
rows IRIW "1 0 1 0:forbidden:forbidden:allowed:20000" \
	"1 1 1 1:allowed:allowed:allowed" "0 0 0 0:allowed:allowed:allowed" \
	"1 0 0 1:allowed:allowed:allowed"
rows SB+mb "0 0:forbidden:forbidden:forbidden" "1 1:allowed:allowed:allowed"
rows SB+ra "0 0:forbidden:allowed:forbidden" "1 1:allowed:allowed:allowed"
rows CoRR "1 0:forbidden:forbidden:forbidden" "2 1:forbidden:forbidden:forbidden" \
	"1 2:allowed:allowed:allowed" "0 2:allowed:allowed:allowed"
rows MP+ra "1 0:forbidden:forbidden:forbidden" "1 1:allowed:allowed:allowed"
rows MP+rel "1 0:forbidden:forbidden:allowed" "1 1:allowed:allowed:allowed"
rows MP+rel+fence "1 0:forbidden:forbidden:forbidden" "1 1:allowed:allowed:allowed"
run_jobs
print_rows
exit $bad
