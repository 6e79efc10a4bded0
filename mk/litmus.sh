#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mk/litmus.sh [B] [RUNS] - the litmus table (docs/programs.md, "Litmus
# tests"): workloads/examples/litmus.c built with --instrument by
# B/futexsim (default build), and for each test and each outcome, RUNS
# random explore runs (default 2000) on tiny4: "seen" with the run that
# first gave it, or "not seen".  Beside it, what sequential consistency
# allows; the machine is sequentially consistent, so the two columns
# must agree: a "not seen" that SC allows, or a "seen" it forbids, is
# marked MISMATCH and the script exits 1.
#
# mk/litmus.sh --self-test [B]: the negative control: a row whose
# expectation is wrong (SB's 1 1 said to be forbidden) must be marked
# MISMATCH (exit 0 if it is, 1 if not).
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

# one row: TEST, OUTCOME, what SC says (allowed|forbidden)
row() {
	out=$(cd "$DIR" && ./litmus explore --machine=tiny4 --args="$1 $2" \
		--strategy=random --runs="$RUNS" 2>/dev/null)
	run=$(printf '%s\n' "$out" | sed -n 's/^explore: crash fired in run \([0-9]*\).*/\1/p')
	if [ -n "$run" ]; then
		seen="seen (run $run)"
		ok=allowed
	else
		seen="not seen"
		ok=forbidden
	fi
	mark=
	[ "$ok" = "$3" ] || { mark=" MISMATCH"; bad=1; }
	printf '| %s | %s | %s | %s |%s\n' "$1" "$2" "$3" "$seen" "$mark"
}

if [ $self_test = 1 ]; then
	row SB "1 1" forbidden | grep -q MISMATCH && exit 0
	echo "litmus: the self-test's wrong row was not marked MISMATCH"
	exit 1
fi
echo "| test | outcome | SC | $RUNS explore runs, sc |"
echo "|---|---|---|---|"
for o in "0 0:forbidden" "0 1:allowed" "1 0:allowed" "1 1:allowed"; do
	row SB "${o%:*}" "${o#*:}"
done
for o in "0 0:allowed" "0 1:allowed" "1 0:forbidden" "1 1:allowed"; do
	row MP "${o%:*}" "${o#*:}"
done
for o in "0 0:allowed" "0 1:allowed" "1 0:allowed" "1 1:forbidden"; do
	row LB "${o%:*}" "${o#*:}"
done
for o in "1 1:forbidden" "2 2:allowed" "1 2:allowed" "2 1:allowed"; do
	row 2+2W "${o%:*}" "${o#*:}"
done
for o in "1 0 1 0:forbidden" "1 1 1 1:allowed" "0 0 0 0:allowed" "1 0 0 1:allowed"; do
	row IRIW "${o%:*}" "${o#*:}"
done
exit $bad
