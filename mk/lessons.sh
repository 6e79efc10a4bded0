#!/bin/sh
# mk/lessons.sh B - write the pages of docs/lessons/ into B/lessons/:
# each lesson's command, run with the binary B/futexsim (make lessons).
#
# Stage: docs.  The commands are the lessons' own; lesson 5 explores,
# shrinks and replays in B/lessons/, where its replay files stay.
# Exit status: 0, or 1 when a command did not do what its lesson says.
set -eu
B=$(cd "$1" && pwd)
F=$B/futexsim
S=$(pwd)
out=$B/lessons
mkdir -p "$out"
cd "$out"
fail=0
page() {	# page NAME ARGS... : one run, its page written
	name=$1; shift
	if "$F" run "$@" --trace="$name.html" > "$name.out" 2>&1; then
		echo "  LESSON  $out/$name.html"
	else
		echo "lessons: FAIL: $name (see $out/$name.out)"; fail=1
	fi
}
page 1-wait-wake --machine=tiny4 --threads=3 --ops=6 --lock=ww
page 2-hash-bucket --machine=tiny4 --threads=3 --ops=6 --lock=ww
page 3-pending-vs-queue --machine=westmere-ex --workload=spin \
	--lock=qspinlock-generic --threads=3 --ops-per-thread=4 \
	--data=standalone --placement=pack --cs=none --between=none
page 4-tp-steal --machine=tiny4 --lock=tp --threads=4 --ops=400 \
	--cs=pause:50 --between=pause:50
page 4-tp-handoff --machine=tiny4 --lock=tp --threads=4 --ops=2000 \
	--cs=pause:200 --between=none
# lesson 5: the failure is the point: explore and replay exit 3
rm -f futexsim-explore-ww-busted-*.replay
"$F" explore "$S/workloads/bugs/lost-wakeup.scn" --strategy=random \
	--runs=1000 > 5-explore.out 2>&1 || true
if "$F" shrink futexsim-explore-ww-busted-2.replay > 5-shrink.out 2>&1 &&
   { "$F" replay futexsim-explore-ww-busted-2.min.replay \
	--trace=5-lost-wakeup.html > 5-lost-wakeup.out 2>&1 || [ $? = 3 ]; } &&
   [ -s 5-lost-wakeup.html ]; then
	echo "  LESSON  $out/5-lost-wakeup.html"
else
	echo "lessons: FAIL: 5-lost-wakeup (see $out/5-*.out)"; fail=1
fi
# lesson 6: a program, built first; its two runs
if "$F" build "$S/workloads/examples/prio_inversion.c" -o prio_inversion \
	> 6-build.out 2>&1; then
	page 6-plain --program=./prio_inversion --cpus=1 --args=plain
	page 6-pi --program=./prio_inversion --cpus=1 --args=pi
else
	echo "lessons: FAIL: 6-priority-inversion (see $out/6-build.out)"; fail=1
fi
exit $fail
