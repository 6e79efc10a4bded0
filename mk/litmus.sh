#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mk/litmus.sh [B] [RUNS] - the litmus table (docs/programs.md, "Litmus
# tests"): workloads/examples/litmus.c built with --instrument by
# B/futexsim (default build), and for each test and each outcome, RUNS
# random explore runs (default 2000) on tiny4 under memory=sc and under
# memory=tso: "seen" with the run that first gave it, or "not seen".
# Beside each, what sequential consistency and x86-TSO allow; a "not
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

# explore's verdict on TEST OUTCOME under memory=$3: "seen (run N)" or
# "not seen"
verdict() {
	out=$(cd "$DIR" && ./litmus explore --machine=tiny4 --memory="$3" \
		--args="$1 $2" --strategy=random --runs="$RUNS" 2>/dev/null)
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
	*) [ "$2" = forbidden ];;
	esac
}

# one row: TEST, OUTCOME, what SC allows, what x86-TSO allows
row() {
	sc=$(verdict "$1" "$2" sc)
	tso=$(verdict "$1" "$2" tso)
	mark=
	if ! agrees "$sc" "$3" || ! agrees "$tso" "$4"; then
		mark=" MISMATCH"
		bad=1
	fi
	printf '| %s | %s | %s | %s | %s | %s |%s\n' "$1" "$2" "$3" "$sc" "$4" \
		"$tso" "$mark"
}

if [ $self_test = 1 ]; then
	row SB "0 0" allowed allowed | grep -q MISMATCH && exit 0
	echo "litmus: the self-test's wrong row was not marked MISMATCH"
	exit 1
fi
echo "| test | outcome | SC | memory=sc, $RUNS runs | x86-TSO | memory=tso, $RUNS runs |"
echo "|---|---|---|---|---|---|"
for o in "0 0:forbidden:allowed" "0 1:allowed:allowed" "1 0:allowed:allowed" "1 1:allowed:allowed"; do
	row SB "${o%%:*}" "$(echo "$o" | cut -d: -f2)" "${o##*:}"
done
for o in "0 0:allowed:allowed" "0 1:allowed:allowed" "1 0:forbidden:forbidden" "1 1:allowed:allowed"; do
	row MP "${o%%:*}" "$(echo "$o" | cut -d: -f2)" "${o##*:}"
done
for o in "0 0:allowed:allowed" "0 1:allowed:allowed" "1 0:allowed:allowed" "1 1:forbidden:forbidden"; do
	row LB "${o%%:*}" "$(echo "$o" | cut -d: -f2)" "${o##*:}"
done
for o in "1 1:forbidden:forbidden" "2 2:allowed:allowed" "1 2:allowed:allowed" "2 1:allowed:allowed"; do
	row 2+2W "${o%%:*}" "$(echo "$o" | cut -d: -f2)" "${o##*:}"
done
for o in "1 0 1 0:forbidden:forbidden" "1 1 1 1:allowed:allowed" "0 0 0 0:allowed:allowed" "1 0 0 1:allowed:allowed"; do
	row IRIW "${o%%:*}" "$(echo "$o" | cut -d: -f2)" "${o##*:}"
done
exit $bad
