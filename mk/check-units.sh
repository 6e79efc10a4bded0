#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mk/check-units.sh B [JOBS] - every Check suite of B/check
# (tests/test_*.c, the registry B/tests/suites.h), JOBS suites at once
# (default 2, the CI machine's cores), each in a process of its own
# (CK_RUN_SUITE) and from a folder of its own, B/checkrun/NAME: failing
# runs leave replay files where they run, and tests build programs into
# the current folder.  Each suite's output is printed whole once all are
# done, in the registry's order, then one line for them all.
#
# Stage: tests (make check).  Exit status: 0 when every suite passed.
set -u
B=$(cd "$1" && pwd)
JOBS=${2:-2}
R=$B/checkrun
suites=$(sed -n 's/^SUITE(\(.*\))$/\1/p' "$B/tests/suites.h")
mkdir -p "$R"
rm -f "$R"/*.status
# one suite: NAME
export B R
echo "$suites" | xargs -P "$JOBS" -n 1 sh -c '
	mkdir -p "$R/$1"
	cd "$R/$1" && CK_DEFAULT_TIMEOUT=600 CK_RUN_SUITE="$1" \
		FUTEXSIM="$B/futexsim" "$B/check" > "$R/$1.log" 2>&1
	echo $? > "$R/$1.status"' sh
bad=0
checks=0
for s in $suites; do
	cat "$R/$s.log"
	st=$(cat "$R/$s.status" 2>/dev/null || echo none)
	if [ "$st" != 0 ]; then
		echo "check: suite $s: exit status $st"
		bad=$((bad + 1))
	fi
	n=$(sed -n 's/^[0-9]*%: Checks: \([0-9]*\),.*/\1/p' "$R/$s.log" | tail -1)
	checks=$((checks + ${n:-0}))
done
if [ "$bad" = 0 ]; then
	echo "check: $checks checks in $(echo $suites | wc -w) suites: all passed"
else
	echo "check: $bad suites failed (their output is above)"
fi
[ "$bad" = 0 ]
