#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mk/same-results.sh OLD NEW [DIR] - do two futexsim binaries give the same
# results?  The check of a change that is meant to make the simulator
# faster and nothing else (docs/internals.md, "Speed never changes a
# result").
#
# Runs one set of commands with each binary, each in a folder of its own
# under DIR (default /tmp/same-results), and compares every output byte
# for byte, except the "host" object of the JSON (host seconds and
# counters of the simulator's own effort) and the simulator's own frames
# in stacks (its source lines move with any change of its code):
#   demo       the headline scenario (workloads/scenarios/to-futex-demo.scn)
#   det1/2     mk/determinism.sh's two scenarios: every built-in lock,
#              the rwlocks, with their full text traces
#   html       a page of --trace=FILE.html (the viewer's data)
#   bug-*      explore of every scenario of the bug catalogue, 3000 runs
#              (20 of the long ones: what it found and after how many
#              runs), then a shrink
#              and a replay of the first failure's file
#   xdfs       explore --strategy=dfs and pct on the 2-task ww scenario
#   spin       workloads/scenarios/spin-2014.sh -n 20000 -p 2000
#   to-*       the three 2016 TO-futex scenarios at 200,000 operations
#   glibc      workloads/scenarios/glibc-tables.sh -d 5ms mutex-2017
#   program    the example workloads/examples/lostwake.c, built by each
#              binary's `futexsim build` (a program carries the
#              simulator: libfutexsim.a beside the binary), run and explored
# The full-size study outputs are compared by running `make bench` with
# each binary (bench keeps the tables beside its JSON).
# Exit status: 0 same; 1 some output differs (the list is printed).
set -u
OLD=$(readlink -f "$1")
NEW=$(readlink -f "$2")
DIR=${3:-/tmp/same-results}
TOP=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$DIR"
mkdir -p "$DIR/old" "$DIR/new" "$DIR/prog"

# a program carries the simulator (libfutexsim.a beside the binary): one
# build with each
for v in old new; do
	[ $v = old ] && f=$OLD || f=$NEW
	mkdir -p "$DIR/prog/$v"
	if ! "$f" build "$TOP/workloads/examples/lostwake.c" -o "$DIR/prog/$v/lostwake" \
		>"$DIR/prog/$v.log" 2>&1; then
		echo "same-results: $f cannot build lostwake.c (see $DIR/prog/$v.log)"
		exit 1
	fi
done

runall() {	# binary, folder, program
	f=$1
	p=$3
	cd "$2" || exit 1
	"$f" run "$TOP/workloads/scenarios/to-futex-demo.scn" --json=demo.json >demo.txt 2>&1
	"$f" run --machine=tiny4 --threads=8 --ops=20000 --lock=ww,ww-timed,pi,tp,adaptive \
		--cs=pause:5 --adaptive=glibc236 --seed=7 --json=det1.json \
		--trace=det1-t.txt >det1.txt 2>&1
	"$f" run --machine=tiny4 --workload=rwlock --readers=4 --writers=4 --ops=20000 \
		--lock=rw-prefer-reader,rw-prefer-writer-nr,rw-tp --cs=pause:5 \
		--tp-mutex=4.8 --roles=split --seed=7 --json=det2.json \
		--trace=det2-t.txt >det2.txt 2>&1
	"$f" run --machine=tiny4 --threads=4 --ops=3000 --lock=ww \
		--trace=page.html >html.txt 2>&1
	for scn in "$TOP"/workloads/bugs/*.scn; do
		b=$(basename "$scn" .scn)
		mkdir -p "bug-$b" && (cd "bug-$b" &&
		# a few runs of the long ones (thousands of operations each)
		runs=3000
		case $b in tp-nohandoff-*|rw-writer-*) runs=20;; esac
		"$f" explore "$scn" --runs=$runs >explore.txt 2>&1
		r=$(ls ./*.replay 2>/dev/null | grep -v '\.min\.' | head -1)
		if [ -n "$r" ]; then
			"$f" shrink "$r" >shrink.txt 2>&1
			m=$(ls ./*.min.replay 2>/dev/null | head -1)
			[ -n "$m" ] && "$f" replay "$m" --trace=replay.txt >replay.txt 2>&1
		fi)
	done
	"$f" explore --machine=tiny4 --threads=2 --ops=4 --lock=ww --strategy=dfs \
		--runs=3000 >xdfs.txt 2>&1
	"$f" explore --machine=tiny4 --threads=3 --ops=6 --lock=tp --strategy=pct \
		--runs=2000 >xpct.txt 2>&1
	sh "$TOP/workloads/scenarios/spin-2014.sh" -f "$f" -n 20000 -p 2000 -j 2 \
		>spin.txt 2>&1
	for s in to-futex-256 to-futex-256-pi to-futex-256-tp; do
		"$f" run "$TOP/workloads/scenarios/$s.scn" --ops=200000 \
			--json="$s.json" >"$s.txt" 2>&1
	done
	sh "$TOP/workloads/scenarios/glibc-tables.sh" -f "$f" -d 5ms mutex-2017 \
		>glibc.txt 2>&1
	"$f" run --machine=tiny4 --program="$p" \
		--args="pthread 8 2000" --json=prog.json >prog.txt 2>&1
	"$f" explore --machine=tiny4 --program="$p" \
		--args="pthread 2 3" --runs=300 >prog-explore.txt 2>&1
	# the host object of every JSON file (host seconds, the simulator's counters)
	for j in *.json; do
		sed 's/"host": *{[^}]*}//g' "$j" >"$j.cmp" && rm "$j"
	done
	# the simulator's own frames in stacks (a failure report's, a
	# page's): where its code is, not what it simulated
	find . -name '*.txt' | while read -r t; do
		grep -Ev '^ +[A-Za-z_0-9.]+ \((sim|sched|workloads/libsim)/[^ ]*(, inlined)?\)$' \
			"$t" >"$t.cmp" && rm "$t"
	done
	sed -E 's#\["[A-Za-z_0-9.]+","(sim|sched)/[^"]*"\],?##g' page.html >page.html.cmp &&
		rm page.html
}

# both run under one name (replay commands name the binary, reports the
# program)
ln -sfn "$OLD" "$DIR/futexsim"
ln -sfn "$DIR/prog/old/lostwake" "$DIR/prog/lostwake"
(runall "$DIR/futexsim" "$DIR/old" "$DIR/prog/lostwake")
ln -sfn "$NEW" "$DIR/futexsim"
ln -sfn "$DIR/prog/new/lostwake" "$DIR/prog/lostwake"
(runall "$DIR/futexsim" "$DIR/new" "$DIR/prog/lostwake")
if diff -r -q "$DIR/old" "$DIR/new" >"$DIR/diff.txt"; then
	n=$(find "$DIR/old" -type f | wc -l)
	echo "same-results: the same $n outputs ($DIR/old, $DIR/new)"
	exit 0
fi
echo "same-results: outputs differ:"
cat "$DIR/diff.txt"
exit 1
