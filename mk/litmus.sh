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

# explore's verdict on TEST OUTCOME under memory=$3 over $4 runs: "seen
# (run N)" or "not seen"
verdict() {
	mkdir -p "$DIR/in-$3"	# its replay files apart from the others'
	out=$(cd "$DIR/in-$3" && ../litmus explore --machine=tiny4 --memory="$3" \
		--args="$1 $2" --strategy=random --runs="$4" 2>/dev/null)
	run=$(printf '%s\n' "$out" | sed -n 's/^explore: crash fired in run \([0-9]*\).*/\1/p')
	if [ -n "$run" ]; then
		echo "seen (run $run)"
	else
		echo "not seen"
	fi
}

# does VERDICT agree with EXPECTED (allowed|forbidden)?
agrees() {
	case $1 in
	seen*) [ "$2" = allowed ];;
	*) [ "$2" != allowed ];;
	esac
}

# one row: TEST, OUTCOME, what SC, x86-TSO and ARMv8 allow, and the
# number of runs if not RUNS
row() {
	for m in sc tso arm64; do	# the three at once: explore is one process
		verdict "$1" "$2" $m "${6:-$RUNS}" > "$DIR/$m" &
	done
	wait
	sc=$(cat "$DIR/sc") tso=$(cat "$DIR/tso") arm=$(cat "$DIR/arm64")
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
	row SB "0 0" allowed allowed allowed | grep -q MISMATCH && exit 0
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
exit $bad
