#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# workloads/scenarios/glibc-tables.sh - regenerate the glibc studies with
# futexsim, in the layout of the published tables (docs/studies/glibc-2017.md,
# docs/studies/adaptive-2018.md):
#   mutex-2017        2017 TP RFC run (1): threads 10/20/40/80 x load
#                     10/50, glibc mutex vs TP mutex (tp), total ops; the
#                     RFC's "pthread mutex" is the normal kind (ww) or the
#                     adaptive one (the RFC does not say): both are run
#                     (glibc-2017-mutex.scn)
#   rw-mixed-2017     run (2): threads 10/20/40/80, each half reads, half
#                     writes, load 10: prefer-R, prefer-W(nonrecursive),
#                     and rw-tp when it exists (glibc-2017-rw-mixed.scn)
#   rw-groups-2017    run (3): N readers + N writers, N = 5/10/20/40, ops
#                     per group (glibc-2017-rw-groups.scn)
#   adaptive-x86      2018 adaptive-mutex study on x86-2s-112, threads 1,
#                     2, 7, 14, 28, 56, 112 (adaptive-2018-x86.scn)
#   adaptive-aarch64  the same on aarch64-64, threads 1 to 56
#                     (adaptive-2018-aarch64.scn)
# The published numbers are kept out of this project (an independent
# check of the model); the tables
# show simulated ops in the simulated duration, and the changes the
# published text describes in words.  A lock that does not exist in this
# futexsim (`futexsim list locks`: tp, rw-tp) is left out of its table.
#
# Stage: a driver above the CLI: runs `futexsim run` once per cell (cells
# in parallel, each writes its report and JSON to a temporary directory),
# then prints the tables and the directions the published text gives in
# words, each with its figure and met or MISSED (directions() states the
# criteria).  Used by `make bench` (glibc_tables_s: the mutex-2017 table
# at 0.1 s per point) and tests/test_scripts.c.
#
# usage: glibc-tables.sh [-f FUTEXSIM] [-d DURATION] [-j JOBS] [-c PCT]
#                        [-s SEED] [-m KEY=VALUE,...] [-k KEY=VALUE]...
#                        [TABLE...]
#   -f  the futexsim binary (default: build/futexsim of this tree)
#   -d  simulated time per cell (default: each scenario's, 100ms for the
#       2017 tables, 20ms for the 2018 ones)
#   -j  cells run at once (default: the host's CPUs)
#   -c  cost-jitter PCT for every cell (default: the scenarios' 0): the
#       TP runs lock into one succession of top waiters per seed, and
#       jitter with several seeds shows how much a cell depends on it
#   -s  the seed of every cell (default: the scenarios' 1)
#   -m  machine keys changed in every cell (the scenario key machine-set,
#       machines/README.md), e.g. -m tick-cost=0ns for free ticks
#   -k  a scenario key given to every cell, e.g. -k roles=split -k
#       tp-mutex=4.8 (docs/studies/to-futex-2016.md); repeatable.  Not the keys the tables set
#       per cell or the options above set (usage error); a key a table's
#       workload does not take fails its cells (roles: rw-groups-2017 only)
#   TABLE  among the names above (default: all of them)
# Exit status: 0; 1 if a cell failed (its stderr is shown); 2 bad usage.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

# One cell, run by xargs: NAME SCENARIO ARGS...
if [ "${1:-}" = "--cell" ]; then
	name=$2 scn=$3
	shift 3
	if "$GT_EXE" run "$here/$scn" "$@" ${GT_DUR:+--duration="$GT_DUR"} \
		${GT_JIT:+--cost-jitter="$GT_JIT"} ${GT_SEED:+--seed="$GT_SEED"} \
		${GT_MSET:+--machine-set="$GT_MSET"} $GT_KEYS \
		--json="$GT_TMP/$name.json" >"$GT_TMP/$name.txt" \
		2>"$GT_TMP/$name.err"; then
		exit 0
	fi
	echo "glibc-tables: cell $name failed:" >&2
	cat "$GT_TMP/$name.err" >&2
	exit 255	# makes xargs stop
fi

usage() {
	echo "usage: $0 [-f FUTEXSIM] [-d DURATION] [-j JOBS] [-c PCT] [-s SEED] [-m KEY=VALUE,...] [-k KEY=VALUE]... [mutex-2017|rw-mixed-2017|rw-groups-2017|adaptive-x86|adaptive-aarch64...]" >&2
	exit 2
}

exe=$here/../../build/futexsim
dur=
jit=
seed=
mset=
keys=
jobs=$(nproc 2>/dev/null || echo 1)
while getopts f:d:j:c:s:m:k: c; do
	case $c in
	f) exe=$OPTARG ;;
	d) dur=$OPTARG ;;
	j) jobs=$OPTARG ;;
	c) jit=$OPTARG ;;
	s) seed=$OPTARG ;;
	m) mset=$OPTARG ;;
	k)	key=${OPTARG%%=*}
		case $OPTARG in *=*) ;; *) usage ;; esac
		case $key in
		machine|machine-set|cpus|threads|workload|lock|ops|ops-per-thread|\
		duration|cs|between|seed|cost-jitter|json|readers|writers|\
		read-ratio|adaptive|spin-count)
			echo "glibc-tables: -k $key: the tables set it per cell, or an option does" >&2
			exit 2 ;;
		esac
		keys="$keys --$OPTARG" ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
tables=${*:-mutex-2017 rw-mixed-2017 rw-groups-2017 adaptive-x86 adaptive-aarch64}
for t in $tables; do
	case $t in
	mutex-2017|rw-mixed-2017|rw-groups-2017|adaptive-x86|adaptive-aarch64) ;;
	*) usage ;;
	esac
done
[ -x "$exe" ] || { echo "glibc-tables: no futexsim at $exe" >&2; exit 2; }
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GT_EXE="$exe" GT_DUR="$dur" GT_TMP="$tmp" GT_JIT="$jit" GT_SEED="$seed" \
	GT_MSET="$mset" GT_KEYS="$keys"

# Does this futexsim have lock $1?
have() { "$exe" list locks | awk '{ print $1 }' | grep -qx "$1"; }
mutex_locks=ww,adaptive
have tp && mutex_locks=ww,adaptive,tp
rw_locks=rw-prefer-reader,rw-prefer-writer-nr
have rw-tp && rw_locks=$rw_locks,rw-tp
X86_THREADS="1 2 7 14 28 56 112"
X86_CFGS="pre2018:100 pre2018:1000 glibc235:1000 seed2018:1000"
ARM_THREADS="1 2 4 7 14 28 56"
ARM_CFGS="pre2018:100 pre2018:10 pre2018:1000 seed2018:10 seed2018:1000"

cells() {
	for t in $tables; do
		case $t in
		mutex-2017)
			for n in 80 40 20 10; do for l in 50 10; do
				echo "m-$n-$l glibc-2017-mutex.scn --threads=$n --cs=loop:$l --lock=$mutex_locks"
			done; done ;;
		rw-mixed-2017)
			for n in 80 40 20 10; do
				echo "x-$n glibc-2017-rw-mixed.scn --threads=$n --lock=$rw_locks"
			done ;;
		rw-groups-2017)
			for n in 40 20 10 5; do for b in none loop:1000; do
				echo "g-$n-${b#*:} glibc-2017-rw-groups.scn --readers=$n --writers=$n --between=$b --lock=$rw_locks"
			done; done ;;
		adaptive-x86|adaptive-aarch64)
			if [ "$t" = adaptive-x86 ]; then
				p=a86 scn=adaptive-2018-x86.scn ths=$X86_THREADS cfgs=$X86_CFGS
			else
				p=arm scn=adaptive-2018-aarch64.scn ths=$ARM_THREADS cfgs=$ARM_CFGS
			fi
			for n in $ths; do for c in $cfgs; do
				echo "$p-$n-${c%:*}-${c#*:} $scn --threads=$n --adaptive=${c%:*} --spin-count=${c#*:}"
			done; done ;;
		esac
	done
}

if ! cells | xargs -P "$jobs" -L 1 sh "$0" --cell; then
	exit 1
fi

# "LOCK OPS READS WRITES" per result of cell $1's JSON.
results() {
	awk '/"lock":"/ {
		match($0, /"lock":"[^"]*"/); lock = substr($0, RSTART + 8, RLENGTH - 9)
		match($0, /"ops":[0-9]+/); ops = substr($0, RSTART + 6, RLENGTH - 6)
		rd = wr = "-"
		if (match($0, /"ops_by_group":\{"readers":[0-9]+/))
			rd = substr($0, RSTART + 26, RLENGTH - 26)
		if (match($0, /,"writers":[0-9]+\}/))
			wr = substr($0, RSTART + 11, RLENGTH - 12)
		print lock, ops, rd, wr
	}' "$tmp/$1.json"
}

# The ops of lock $2 in cell $1 ("-" if not run); $3: field (2 ops,
# 3 reads, 4 writes).
ops() { results "$1" | awk -v l="$2" -v f="${3:-2}" '$1 == l { print $f; n++ } END { if (!n) print "-" }'; }

# Change of $2 against $1 in percent.
chg() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b != "-") printf "%+.0f%%", 100 * (b / a - 1); else printf "-" }'; }

dur_of() { echo "${dur:-$1}"; }

# One verdict line: WHAT, the measured FIGURE, 1 if the direction holds.
verdict() {
	[ "$3" = 1 ] && v=met || { v=MISSED; missed=$((missed + 1)); }
	nr=$((nr + 1))
	printf "  %-50s %-32s %s\n" "$1" "$2" "$v"
}

# The share of the smaller of $1 and $2 in their sum, in percent.
minority() { awk -v a="$1" -v b="$2" 'BEGIN { m = a < b ? a : b; printf "%.2f", a + b ? 100 * m / (a + b) : 0 }'; }

# Is $1 < $2 (both numbers)?
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

# The directions the published texts give in words (the RFC and the 2018
# series: docs/studies/glibc-2017.md, adaptive-2018.md), for
# each table run, with the measured figure: met or MISSED.  Criteria:
# "ahead" is more ops; "starves a group more and more as N grows" is
# that group getting under 1% of the ops at N = 40 and a smaller share
# than at N = 5 (or under 1% at every N: starved from the start); "both
# groups progressing at large N" is the smaller group getting at least
# 10% of the ops at N = 20 and N = 40; "favours writers at small N" is
# more writes than reads at N = 5 and N = 10; "far ahead/behind" is a
# factor of 2.
directions() {
	missed=0 nr=0
	echo
	echo "Expected directions (docs/studies/glibc-2017.md, adaptive-2018.md), criteria in glibc-tables.sh:"
	for t in $tables; do
		case $t in
		mutex-2017)
			ok=1 worst=
			for n in 10 20 40 80; do for l in 10 50; do
				a=$(ops m-$n-$l ww) c=$(ops m-$n-$l tp)
				[ "$c" = - ] && continue
				r=$(awk -v a="$a" -v c="$c" 'BEGIN { printf "%.2f", c / a }')
				if [ -z "$worst" ] || lt "$r" "$worst"; then worst=$r; fi
				lt "$a" "$c" || ok=0
			done; done
			[ -n "$worst" ] && verdict "mutex: tp ahead of ww at every point" "lowest tp/ww $worst" $ok ;;
		rw-mixed-2017)
			ok_tp=1 ok_w=1 f_tp= f_w=
			for n in 10 20 40 80; do
				r=$(ops x-$n rw-prefer-reader) w=$(ops x-$n rw-prefer-writer-nr) p=$(ops x-$n rw-tp)
				if [ "$p" != - ]; then
					lt "$((2 * r))" "$p" && lt "$((2 * w))" "$p" || ok_tp=0
					f_tp="$f_tp $(awk -v p="$p" -v r="$r" -v w="$w" 'BEGIN { printf "%.1f", p / (r > w ? r : w) }')"
				fi
				lt "$((2 * w))" "$r" || ok_w=0
				f_w="$f_w $(awk -v r="$r" -v w="$w" 'BEGIN { printf "%.1f", r / w }')"
			done
			[ -n "$f_tp" ] && verdict "mixed: rw-tp far ahead of both glibc kinds" "times the better:$f_tp" $ok_tp
			verdict "mixed: prefer-W-nr far behind prefer-R" "pR/pWnr$f_w" $ok_w ;;
		rw-groups-2017)
			for b in none 1000; do
				[ "$b" = none ] && bw="groups, none between" || bw="groups, 1 us between"
				for k in rw-prefer-reader:4:writers:pR rw-prefer-writer-nr:3:readers:pWnr; do
					l=${k%%:*} f=${k#*:}; f=${f%%:*} who=${k#*:*:}; short=${who#*:} who=${who%:*}
					sh=
					for n in 5 10 20 40; do
						sh="$sh $(awk -v x="$(ops g-$n-$b $l $f)" -v t="$(ops g-$n-$b $l)" 'BEGIN { printf "%.2g", 100 * x / t }')"
					done
					ok=$(echo "$sh" | awk '{ all = 1; for (i = 1; i <= 4; i++) all = all && $i < 1
						print ($4 < 1 && ($4 < $1 || all)) ? 1 : 0 }')
					verdict "$bw: $short starves $who" "$who %:$sh" $ok
				done
				r20=$(ops g-20-$b rw-tp 3) w20=$(ops g-20-$b rw-tp 4)
				[ "$r20" = - ] && continue
				m20=$(minority "$r20" "$w20")
				m40=$(minority "$(ops g-40-$b rw-tp 3)" "$(ops g-40-$b rw-tp 4)")
				ok=0
				lt 9.999 "$m20" && lt 9.999 "$m40" && ok=1
				verdict "$bw: rw-tp, both groups at 20, 40" "smaller group %: $m20 $m40" $ok
				# the RFC: "it favours writers at small N"
				w5=$(ops g-5-$b rw-tp 4) w10=$(ops g-10-$b rw-tp 4)
				r5=$(ops g-5-$b rw-tp 3) r10=$(ops g-10-$b rw-tp 3)
				ok=0
				lt "$r5" "$w5" && lt "$r10" "$w10" && ok=1
				verdict "$bw: rw-tp writers ahead at 5, 10" \
					"writes/reads $(awk -v a="$w5" -v b="$r5" -v c="$w10" -v d="$r10" \
					'BEGIN { printf "%.2g %.2g", a / (b ? b : 1), c / (d ? d : 1) }')" $ok
			done ;;
		adaptive-x86)
			ok=1 f=
			for n in $X86_THREADS; do
				[ "$n" = 1 ] && continue
				a=$(ops a86-$n-pre2018-100 adaptive) c=$(ops a86-$n-seed2018-1000 adaptive)
				lt "$a" "$c" || ok=0
				f="$f $(chg "$a" "$c")"
			done
			verdict "x86: seed2018:1000 ahead of pre2018:100" "at 2+ threads$f" $ok ;;
		esac
	done
	echo "  $missed of $nr missed"
}

[ -n "$jit$seed" ] && echo "every cell: cost-jitter ${jit:-0}%, seed ${seed:-1}"
[ -n "$keys" ] && echo "every cell:$keys"
for t in $tables; do
	echo
	case $t in
	mutex-2017)
		echo "2017 TP RFC (1): pthread mutex, gold6148-2s, total ops in $(dur_of 100ms) simulated"
		echo "(published: 5 s); load = cs loop iterations; ww = glibc's normal mutex,"
		echo "adapt = its adaptive kind (pre2018, spin-count 100); tp/ww = the TP mutex's change"
		for l in 10 50; do
			echo "load $l:"
			printf "%7s | %10s %10s %10s %7s %7s\n" threads ww adapt tp tp/ww tp/adapt
			for n in 10 20 40 80; do
				a=$(ops m-$n-$l ww) b=$(ops m-$n-$l adaptive) c=$(ops m-$n-$l tp)
				printf "%7s | %10s %10s %10s %7s %7s\n" "$n" "$a" "$b" "$c" \
					"$(chg "$a" "$c")" "$(chg "$b" "$c")"
			done
		done ;;
	rw-mixed-2017)
		echo "2017 TP RFC (2): rwlock, every thread half reads, half writes, load 10,"
		echo "gold6148-2s, total ops in $(dur_of 100ms) simulated (published: 5 s)"
		printf "%7s | %12s %12s %12s\n" threads prefer-R prefer-W-nr rw-tp
		for n in 10 20 40 80; do
			printf "%7s | %12s %12s %12s\n" "$n" "$(ops x-$n rw-prefer-reader)" \
				"$(ops x-$n rw-prefer-writer-nr)" "$(ops x-$n rw-tp)"
		done ;;
	rw-groups-2017)
		echo "2017 TP RFC (3): N reader + N writer threads, load 10, gold6148-2s,"
		echo "ops per group in $(dur_of 100ms) simulated (published: 5 s); the RFC's"
		echo "work between operations is not known: none, and 1000 loops (about 1 us)"
		for b in none 1000; do
			[ "$b" = none ] && echo "between = none:" || echo "between = loop:$b:"
			printf "%5s | %10s %10s | %10s %10s | %10s %10s\n" N "pR reads" \
				"pR writes" "pWnr reads" "pWnr writes" "tp reads" "tp writes"
			for n in 5 10 20 40; do
				c=g-$n-$b
				printf "%5s | %10s %10s | %10s %10s | %10s %10s\n" "$n" \
					"$(ops $c rw-prefer-reader 3)" "$(ops $c rw-prefer-reader 4)" \
					"$(ops $c rw-prefer-writer-nr 3)" "$(ops $c rw-prefer-writer-nr 4)" \
					"$(ops $c rw-tp 3)" "$(ops $c rw-tp 4)"
			done
		done ;;
	adaptive-x86|adaptive-aarch64)
		if [ "$t" = adaptive-x86 ]; then
			p=a86 m=x86-2s-112 ths=$X86_THREADS cfgs=$X86_CFGS
		else
			p=arm m=aarch64-64 ths=$ARM_THREADS cfgs=$ARM_CFGS
		fi
		echo "2018 adaptive mutex (docs/studies/adaptive-2018.md), $m: total ops in $(dur_of 20ms) simulated;"
		echo "first column the base (pre2018, spin-count 100), then each variant's change"
		printf "%7s |" threads
		for c in $cfgs; do printf " %14s" "$c"; done
		echo
		for n in $ths; do
			base=$(ops $p-$n-pre2018-100 adaptive)
			printf "%7s |" "$n"
			for c in $cfgs; do
				v=$(ops "$p-$n-${c%:*}-${c#*:}" adaptive)
				if [ "$c" = pre2018:100 ]; then
					printf " %14s" "$v"
				else
					printf " %14s" "$(chg "$base" "$v")"
				fi
			done
			echo
		done ;;
	esac
done
directions
