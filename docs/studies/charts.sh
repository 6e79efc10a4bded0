#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# docs/studies/charts.sh - the study tables as charts: reads what the study
# scripts already printed and draws the SVGs of docs/studies/img/ with
# `futexsim plot-table` (its table format: docs/output.md "Plots").  It
# runs no simulation: make the outputs first, each in its own file,
#
#   sh workloads/scenarios/spin-2014.sh -j1     > OUT/spin-2014.txt
#   sh workloads/scenarios/glibc-tables.sh -j1  > OUT/glibc.txt
#   build/futexsim run workloads/scenarios/to-futex-256.scn    > OUT/to-futex-256.txt
#   build/futexsim run workloads/scenarios/to-futex-256-tp.scn > OUT/to-futex-256-tp.txt
#
# then `sh docs/studies/charts.sh OUT`.  A missing output leaves its
# charts out, with a line saying so.
#
# usage: charts.sh [-f FUTEXSIM] [-o IMGDIR] OUTDIR
#   -f  the futexsim binary (default: build/futexsim of this tree)
#   -o  where the SVGs go (default: docs/studies/img of this tree)
# Exit status: 0; 1 if a chart could not be drawn; 2 bad usage.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
exe=$here/../../build/futexsim
img=$here/img
while getopts f:o: opt; do
	case $opt in
	f) exe=$OPTARG ;;
	o) img=$OPTARG ;;
	*) echo "usage: $0 [-f FUTEXSIM] [-o IMGDIR] OUTDIR" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-f FUTEXSIM] [-o IMGDIR] OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$img"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T=$(printf '\t')

draw() {	# TABLE NAME: the table file drawn into IMGDIR/NAME.svg
	"$exe" plot-table "$1" -o "$img/$2.svg"
	echo "charts: $img/$2.svg"
}

have() {
	[ -s "$out/$1" ] && return 0
	echo "charts: no $out/$1: its charts are left out" >&2
	return 1
}

# spin-2014: the first block's three tables, published ticket and
# queue beside simulated ticket, generic and x86, ms over tasks
spin_table() {	# HEADING NAME TITLE
	awk -v want="$1" -v title="$3" -v T="$T" '
	/^The pending-bit policies/ { exit }
	$0 == want { on = 1; next }
	on && /^ *[0-9]+ \|/ {
		if (!rows++) {
			print "title" T title
			print "kind" T "lines"
			print "xlabel" T "tasks"
			print "ylabel" T "ms for 5,000,000 lock/unlock per task"
			print "note" T "published: the 2014 LKML table; simulated: futexsim, workloads/scenarios/spin-2014.sh"
			print "columns" T "ticket, published" T "qspinlock (v10), published" T "ticket, simulated" T "qspinlock generic, simulated" T "qspinlock x86, simulated"
			# published dashed, in the colour of its simulated lock
			print "style" T "ticket, published" T "dashed" T 0
			print "style" T "qspinlock (v10), published" T "dashed" T 1
			print "style" T "ticket, simulated" T "solid" T 0
			print "style" T "qspinlock generic, simulated" T "solid" T 1
			print "style" T "qspinlock x86, simulated" T "solid" T 2
		}
		print "row" T $1 T $3 T $4 T $8 T $9 T $12
		next
	}
	on && rows { exit }' "$out/spin-2014.txt" >"$tmp/$2.tab"
	draw "$tmp/$2.tab" "$2"
}

if have spin-2014.txt; then
	spin_table "same node (westmere-ex), standalone:" spin-2014-node-standalone \
		"qspinlock vs ticket 2014: one socket, standalone data"
	spin_table "same node (westmere-ex), embedded:" spin-2014-node-embedded \
		"qspinlock vs ticket 2014: one socket, data in the lock's line"
	spin_table "different nodes (westmere-ex-4s, one task per socket), standalone:" \
		spin-2014-nodes "qspinlock vs ticket 2014: one task per socket"
fi

# glibc-tables: run (1), simulated total ops per lock over threads (the
# published numbers are not kept in this project: the study page
# compares directions)
glibc_mutex() {	# LOAD NAME
	awk -v load="load $1:" -v T="$T" -v l="$1" '
	$0 == load { on = 1; next }
	on && /^threads/ {
		print "title" T "2017 TP RFC run (1): mutex, load " l ", gold6148-2s (simulated)"
		print "xlabel" T "threads"
		print "ylabel" T "total operations in 100 ms simulated"
		print "note" T "ww: glibc normal mutex, adapt: adaptive, tp: the TP mutex; workloads/scenarios/glibc-tables.sh"
		print "columns" T $3 T $4 T $5
		next
	}
	on && /^ *[0-9]+ \|/ { print "row" T $1 T $3 T $4 T $5; rows++; next }
	on && rows { exit }' "$out/glibc.txt" >"$tmp/$2.tab"
	draw "$tmp/$2.tab" "$2"
}

if have glibc.txt; then
	glibc_mutex 10 glibc-2017-mutex-load10
	glibc_mutex 50 glibc-2017-mutex-load50
fi

# to-futex-2016: the published 2016 figures beside the simulated ones,
# the three times of each lock (seconds), then the syscall counts
to_futex_rows() {	# FILE LOCK-LABEL KIND (times|counts)
	awk -v lab="$2" -v kind="$3" -v T="$T" '
	function secs(v, u) { return u == "ms" ? v / 1000 : u == "us" ? v / 1e6 : v }
	/published beside simulated/ { on = 1; next }
	!on { next }
	kind == "times" && /^(max|min|average) time/ {
		print "row" T lab " " $1 T secs($3, $4) T secs($5, $6)
	}
	kind == "counts" && /^(lock|unlock) count/ {
		a = $3; b = $4; gsub(",", "", a); gsub(",", "", b)
		print "row" T lab " " $1 T a / 1e6 T b / 1e6
	}' "$1"
}

to_futex() {	# KIND NAME YLABEL
	{
		echo "title${T}TO futex 2016: 256 threads, 10M ops, published beside simulated"
		echo "ylabel$T$3"
		echo "note${T}ww: wait-wake futex mutex, tp: the TO futex; published: LKML 2016 RFC v2; workloads/scenarios/to-futex-256*.scn"
		echo "columns${T}published${T}simulated"
		to_futex_rows "$out/to-futex-256.txt" ww "$1"
		[ -s "$out/to-futex-256-tp.txt" ] &&
			to_futex_rows "$out/to-futex-256-tp.txt" tp "$1"
	} >"$tmp/$2.tab"
	draw "$tmp/$2.tab" "$2"
}

if have to-futex-256.txt; then
	to_futex times to-futex-2016-times "seconds"
	to_futex counts to-futex-2016-counts "futex syscalls (millions)"
fi
