#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# workloads/scenarios/spin-2014.sh - regenerate the whole 2014
# qspinlock-vs-ticket table (docs/studies/qspinlock-2014.md) with futexsim: same node, 1..8
# tasks, standalone and embedded (spin-2014-node.scn); different nodes,
# 1..4 sockets, standalone (spin-2014-nodes.scn); each cell for the three
# kernel locks (ticket, qspinlock-generic, qspinlock-x86).  A second block
# replays the 2014 thread's pending-bit policies (futex/qspin_2014.c:
# qspinlock-v10, -v11, -peterz) in the same cells.
#
# Stage: a driver above the CLI: runs `futexsim run` once per cell (cells
# in parallel, each writes its report and JSON to a temporary directory),
# then prints the published and the simulated figures side by side, in
# ms for 5,000,000 lock/unlock pairs per task (simulated: ns per op x
# 5,000,000), with the share of acquisitions that went through the
# pending bit and the MCS queue, and then the expected shapes of the
# published table, each with its figure and met or MISSED (shapes()
# says how each is measured).  Used by `make bench` (spin_table_s) and
# tests/test_scripts.c.
#
# usage: spin-2014.sh [-f FUTEXSIM] [-n OPS_PER_TASK] [-p OPS_PER_TASK] [-c PCT]
#                     [-H arrival|issue|arrival-overlap] [-m KEY=VALUE,...]
#                     [-a read-write|write] [-j JOBS]
#   -f  the futexsim binary (default: build/futexsim of this tree)
#   -n  lock/unlock pairs per task (default: the scenarios', 200000)
#   -p  lock/unlock pairs per task of the policy block (default: -n's; 0:
#       no policy block).  Short runs are not representative: a 2-task
#       cell can stay in one cycle of hand-overs between two ticks (v10,
#       2 tasks: 35% queue at 20,000, 71% at 200,000)
#   -c  cost-jitter of every cell (default: the scenarios')
#   -H  line-handover of the machines (default: theirs, arrival): the same
#       as -m line-handover=MODE
#   -m  machine keys changed in every cell (the scenario key machine-set,
#       machines/README.md), e.g. -m tick-cost=0ns for free ticks
#   -a  the critical section's data-access (default read-write: load the
#       data, store it + 1; write: one store,
#       docs/studies/qspinlock-2014.md "What does not match, and why")
#   -j  cells run at once (default: the host's CPUs)
# Exit status: 0; 1 if a cell failed (its stderr is shown); 2 bad usage.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

# One cell, run by xargs: NAME SCENARIO TASKS DATA [LOCKS OPS_PER_TASK].
if [ "${1:-}" = "--cell" ]; then
	name=$2 scn=$3 tasks=$4 data=$5 locks=${6:-} cell_ops=${7:-$SPIN2014_OPS}
	if "$SPIN2014_EXE" run "$here/$scn" --threads="$tasks" --data="$data" \
		${locks:+--lock="$locks"} \
		${SPIN2014_MSET:+--machine-set="$SPIN2014_MSET"} \
		${SPIN2014_ACCESS:+--data-access="$SPIN2014_ACCESS"} \
		${cell_ops:+--ops-per-thread="$cell_ops"} \
		${SPIN2014_JITTER:+--cost-jitter="$SPIN2014_JITTER"} \
		--json="$SPIN2014_TMP/$name.json" >"$SPIN2014_TMP/$name.txt" \
		2>"$SPIN2014_TMP/$name.err"; then
		exit 0
	fi
	echo "spin-2014: cell $name failed:" >&2
	cat "$SPIN2014_TMP/$name.err" >&2
	exit 255	# makes xargs stop
fi

usage() {
	echo "usage: $0 [-f FUTEXSIM] [-n OPS_PER_TASK] [-p OPS_PER_TASK] [-c PCT] [-H arrival|issue|arrival-overlap] [-m KEY=VALUE,...] [-a read-write|write] [-j JOBS]" >&2
	exit 2
}

exe=$here/../../build/futexsim
ops=
pol_ops=
jitter=
mset=
access=
jobs=$(nproc 2>/dev/null || echo 1)
while getopts f:n:p:c:H:m:a:j: c; do
	case $c in
	f) exe=$OPTARG ;;
	n) ops=$OPTARG ;;
	p) pol_ops=$OPTARG ;;
	c) jitter=$OPTARG ;;
	H) mset=${mset:+$mset,}line-handover=$OPTARG ;;
	m) mset=${mset:+$mset,}$OPTARG ;;
	a) access=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) usage ;;
	esac
done
[ -x "$exe" ] || { echo "spin-2014: no futexsim at $exe" >&2; exit 2; }
# the policy block's pairs per task: -p, else -n (200000)
case ${pol_ops:-0} in
*[!0-9]*) usage ;;
esac
[ -n "$pol_ops" ] || pol_ops=${ops:-200000}
pol_locks=qspinlock-v10,qspinlock-v11,qspinlock-peterz
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SPIN2014_EXE="$exe" SPIN2014_OPS="$ops" SPIN2014_TMP="$tmp" \
	SPIN2014_JITTER="$jitter" SPIN2014_MSET="$mset" SPIN2014_ACCESS="$access"

# NAME SCENARIO TASKS DATA of each cell; with a policy block, the same
# cell again as NAME-pol with its locks and pairs per task.
cells() {
	for data in standalone embedded; do
		for n in 1 2 3 4 5 6 7 8; do
			echo "node-$data-$n spin-2014-node.scn $n $data"
		done
	done
	for n in 1 2 3 4; do
		echo "nodes-standalone-$n spin-2014-nodes.scn $n standalone"
	done
}
all_cells() {
	cells
	[ "$pol_ops" = 0 ] || cells | while read -r name rest; do
		echo "$name-pol $rest $pol_locks $pol_ops"
	done
}

# Longest cells first, so that the parallel runs end together.
if ! all_cells | sort -t- -k3nr | xargs -P "$jobs" -L 1 sh "$0" --cell; then
	exit 1
fi

# "LOCK NS_PER_OP OPS PENDING QUEUE" per result of a cell's JSON.
results() {
	awk '/"lock":/ {
		match($0, /"lock":"[^"]*"/); lock = substr($0, RSTART + 8, RLENGTH - 9)
		match($0, /"ops":[0-9]+/); ops = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, /"ns_per_op":[0-9.]+/); ns = substr($0, RSTART + 12, RLENGTH - 12)
		p = q = "-"
		if (match($0, /"pending":[0-9]+/)) p = substr($0, RSTART + 10, RLENGTH - 10)
		if (match($0, /"queue":[0-9]+/)) q = substr($0, RSTART + 8, RLENGTH - 8)
		print lock, ns, ops, p, q
	}' "$tmp/$1.json"
}

# "TICKET QUEUE V11" published ms of a cell, from its report ("-": none).
published() {
	awk '/^published, 2014 code/ { t = $(NF - 4); q = $(NF - 2) }
	     /^published, v11/ { v = $(NF - 2) }
	     END { print (t ? t : "-"), (q ? q : "-"), (v ? v : "-") }' "$tmp/$1.txt"
}

# One line of the table for cell $1 with $2 tasks.
row() {
	{ published "$1"; results "$1"; } | awk -v n="$2" '
	function ms(ns) { return ns * 5 }
	function chg(a, b) { return a > 0 && b > 0 ? sprintf("%+.0f%%", 100 * (b / a - 1)) : "-" }
	function pct(x, ops) { return x == "-" ? "-" : sprintf("%.0f", 100 * x / ops) }
	NR == 1 { pt = $1; pq = $2; pv = $3; next }
	{ ns[$1] = $2; ops[$1] = $3; pe[$1] = $4; qu[$1] = $5 }
	END {
		t = ms(ns["ticket"]); g = ms(ns["qspinlock-generic"]); x = ms(ns["qspinlock-x86"])
		printf "%5d | %6s %6s %6s %6s | %6.0f %6.0f %6s %3s/%-3s %6.0f %6s %3s/%-3s\n",
			n, pt, pq, chg(pt, pq), pv, t, g, chg(t, g),
			pct(pe["qspinlock-generic"], ops["qspinlock-generic"]),
			pct(qu["qspinlock-generic"], ops["qspinlock-generic"]),
			x, chg(t, x),
			pct(pe["qspinlock-x86"], ops["qspinlock-x86"]),
			pct(qu["qspinlock-x86"], ops["qspinlock-x86"])
	}'
}

# One line of the policy block for cell $1 with $2 tasks: the published
# queue (v10) and v11 columns beside the simulated v10, v11 and peterz
# (cell $1-pol), each against the simulated ticket of cell $1.
pol_row() {
	{ published "$1"; results "$1"; results "$1-pol"; } | awk -v n="$2" '
	function ms(ns) { return ns * 5 }
	function chg(a, b) { return a > 0 && b > 0 ? sprintf("%+.0f%%", 100 * (b / a - 1)) : "-" }
	function pct(x, ops) { return x == "-" ? "-" : sprintf("%.0f", 100 * x / ops) }
	function col(l) {
		return sprintf(" %6.0f %5s %3s/%-3s", ms(ns[l]), chg(t, ms(ns[l])),
			       pct(pe[l], ops[l]), pct(qu[l], ops[l]))
	}
	NR == 1 { pt = $1; pq = $2; pv = $3; next }
	{ ns[$1] = $2; ops[$1] = $3; pe[$1] = $4; qu[$1] = $5 }
	END {
		t = ms(ns["ticket"])
		printf "%5d | %6s %5s %6s %5s | %6.0f%s%s%s\n", n, pq, chg(pt, pq),
			pv, chg(pt, pv), t, col("qspinlock-v10"),
			col("qspinlock-v11"), col("qspinlock-peterz")
	}'
}

pol_header() {
	echo
	echo "$1"
	echo "      |     published (ms)      |                   simulated (ms), change against ticket"
	echo "tasks |  queue   chg    v11   chg | ticket    v10   chg pnd/que    v11   chg pnd/que peterz   chg pnd/que"
}

header() {
	echo
	echo "$1"
	echo "      |          published (ms)     |                 simulated (ms)"
	echo "tasks | ticket  queue change    v11 | ticket generic change pnd/que    x86 change pnd/que"
}

# Every cell of cells() as a row of ROW_FN, a HEADER_FN line before each
# block (same node standalone, embedded; different nodes).
table() {
	cells | while read -r name scn n data; do
		block=${name%-*}
		if [ "$block" != "${last:-}" ]; then
			case $block in
			node-*) "$1" "same node (westmere-ex), $data:" ;;
			*) "$1" "different nodes (westmere-ex-4s, one task per socket), standalone:" ;;
			esac
			last=$block
		fi
		"$2" "$name" "$n"
	done
}

# The expected shapes of the 2014 table (docs/studies/qspinlock-2014.md),
# each with its measured figure and met / MISSED: ratios are simulated
# time of a qspinlock over the ticket lock's in the same cell; ns/op is
# the elapsed time over every task's operations.
shapes() {
	cells | while read -r name rest; do
		results "$name" | sed "s/^/$name /"
	done | awk '
	{ ns[$1, $2] = $3; ops[$1, $2] = $4; pe[$1, $2] = $5; qu[$1, $2] = $6 }
	function r(c, l) { return ns[c, l] / ns[c, "ticket"] }
	function pct(x, c, l) { return x == "-" ? "-" : sprintf("%.0f%%", 100 * x / ops[c, l]) }
	function verdict(ok) { return ok ? "met" : "MISSED" }
	function line(what, fig, ok) { printf "  %-48s %-32s %s\n", what, fig, verdict(ok); nr++; missed += !ok }
	END {
		G = "qspinlock-generic"; X = "qspinlock-x86"
		c = "node-standalone-1"
		line("1 task: qspinlock within 10% of ticket",
		     sprintf("generic %.2f, x86 %.2f", r(c, G), r(c, X)),
		     r(c, G) >= 0.9 && r(c, G) <= 1.1 && r(c, X) >= 0.9 && r(c, X) <= 1.1)
		c = "node-standalone-2"
		line("2 tasks, one socket: generic >= 1.5 x ticket",
		     sprintf("%.2f (pending %s, queue %s)", r(c, G), pct(pe[c, G], c, G), pct(qu[c, G], c, G)),
		     r(c, G) >= 1.5)
		line("2 tasks, one socket: x86 <= 1.3 x ticket",
		     sprintf("%.2f (pending %s, queue %s)", r(c, X), pct(pe[c, X], c, X), pct(qu[c, X], c, X)),
		     r(c, X) <= 1.3)
		for (d = 0; d < 2; d++) {
			data = d ? "embedded" : "standalone"; c = "node-" data "-8"
			line("8 tasks, " data ": qspinlock <= 0.9 x ticket",
			     sprintf("generic %.2f, x86 %.2f", r(c, G), r(c, X)),
			     r(c, G) <= 0.9 && r(c, X) <= 0.9)
		}
		c = "nodes-standalone-2"
		line("2 sockets: x86 <= 0.5 x ticket", sprintf("%.2f", r(c, X)), r(c, X) <= 0.5)
		c = "nodes-standalone-4"
		line("4 sockets: qspinlock <= 0.7 x ticket",
		     sprintf("generic %.2f, x86 %.2f", r(c, G), r(c, X)),
		     r(c, G) <= 0.7 && r(c, X) <= 0.7)
		# ticket ns per op at every step 1..8 on one socket, standalone
		ok = 1; fig = ""
		for (n = 1; n <= 8; n++) {
			v = ns["node-standalone-" n, "ticket"] / n
			fig = fig (n > 1 ? " " : "") sprintf("%.0f", v)
			if (n > 1 && v <= prev) ok = 0
			prev = v
		}
		line("ticket ns/op rises with every task, 1..8", fig, ok)
		for (l = 0; l < 2; l++) {
			k = l ? X : G; lo = hi = ns["node-standalone-3", k] / 3
			for (n = 4; n <= 8; n++) {
				v = ns["node-standalone-" n, k] / n
				if (v < lo) lo = v
				if (v > hi) hi = v
			}
			line((l ? "x86" : "generic") " flat beyond 3 tasks: max/min <= 1.2",
			     sprintf("%.0f..%.0f ns/op (%.2f)", lo, hi, hi / lo), hi / lo <= 1.2)
		}
		printf "  %d of %d missed\n", missed, nr
	}'
}

per_task=${ops:-200000}
echo "2014 qspinlock vs ticket (docs/studies/qspinlock-2014.md): ms for 5,000,000 lock/unlock per task;"
echo "simulated with $per_task per task, ns per op x 5,000,000.  queue = the published"
echo "pre-patch qspinlock (v10); v11 = with the v11 06/16 pending-bit patch;"
echo "pnd/que = % of acquisitions through the pending bit / the MCS queue."
[ -z "$access" ] || echo "The critical section's data-access: $access."
table header row
echo
echo "Expected shapes (docs/studies/qspinlock-2014.md, simulated qspinlock over ticket ns per op):"
shapes
[ "$pol_ops" = 0 ] && exit 0

echo
echo "The pending-bit policies of 2014 (futex/qspin_2014.c),"
echo "simulated with $pol_ops per task: v10 queues on (0,1,0), v11 (Waiman) waits"
echo "for the pending waiter to take over, peterz waits while the word is (0,1,0)"
echo "and then runs the v10 loop.  Changes are against the published ticket"
echo "(published) and the simulated ticket of the table above (simulated)."
table pol_header pol_row
