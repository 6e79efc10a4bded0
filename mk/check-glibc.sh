#!/bin/sh
# mk/check-glibc.sh - `make check-glibc`: glibc 2.36's own nptl tests,
# built unmodified, natively and with `futexsim build`, and run.
#
# Usage: sh mk/check-glibc.sh [--strict | --min N] BUILD_DIR [SEEDS] [NAME...]
#   --strict   exit 1 when a test fails (make check's fixed subset,
#              tests/glibc/quick.list)
#   --min N    exit 1 when fewer than N pass (.ci/run's floor)
#   BUILD_DIR  the build directory (futexsim and libfutexsim.a in it)
#   SEEDS      seeds of each futexsim run, default 3 (seeds 1..SEEDS)
#   NAME...    only these tests (tst-cond9 ...), default all
# Environment: JOBS (default 2) tests at a time, through GNU parallel.
#
# Called by the Makefile's check-glibc target.  Installs Debian's
# glibc-source through mk/deps.sh (as root; otherwise that prints the
# apt-get line and this stops), extracts the tests of nptl/ and
# sysdeps/pthread/ named tst-mutex*, tst-cond*, tst-rwlock*, tst-barrier*,
# tst-sem*, tst-spin*, tst-once*, tst-join* and their C11 kin (tst-mtx*,
# tst-cnd*, tst-call-once, tst-thrd*, tst-tss*), with the headers of
# support/, into BUILD_DIR/glibc/src (never into the tree).  Each test is
# compiled as it is, with the project's own driver (tests/glibc/: main(),
# the support/ functions, no fork, no alarm) in front of glibc's on the
# include path.  tests/glibc/skip.list names the tests left out and why.
#
# Per test: a native build (gcc, -lpthread) run under timeout(1) checks
# the driver; the futexsim build runs SEEDS times, each with --livelock
# and --stuck as its time limit and timeout(1) as the last resort: 30 s
# of host time, or what tests/glibc/long.list gives a test that runs
# seconds of simulated lock loops by design (soak tests: a longer limit
# and fewer seeds, its row says how many).  A
# table goes to stdout (test, native, one column per seed, reason) and
# its last line is `N passed, M failed, K skipped`: passed means every
# futexsim seed exited 0.  Each test's files (logs, binaries, outputs)
# stay in BUILD_DIR/glibc/t/NAME/.
# Exit status: 0 after the table (the failures are the figures; with
# --strict, 1 if one failed; with --min N, 1 if fewer than N passed), 1 setup failed (no glibc-source, no futexsim), 2 bad usage.
set -eu

GLIBC_TAR=/usr/src/glibc/glibc-2.36.tar.xz
FAMILIES='tst-(mutex|cond|rwlock|barrier|sem|spin|once|join|mtx|cnd|call-once|thrd|tss)'
LIVELOCK=60s
STUCK=10s
TIMEOUT_S=30		# host seconds per run, native or simulated

# one test, in BUILD_DIR/glibc/t/NAME: prints its table row
one() {
	b=$1; seeds=$2; name=$3; src=$4
	g=$b/glibc; d=$g/t/$name; top=$(pwd)
	inc="-I$top/tests/glibc/include -I$g/src -I$g/src/nptl -I$g/src/sysdeps/pthread"
	rm -rf "$d"; mkdir -p "$d"
	# native: the driver's check
	if gcc -std=gnu11 -O2 -w -D_GNU_SOURCE $inc "$g/src/$src" \
	    tests/glibc/driver.c -o "$d/native" -lpthread >"$d/native.build" 2>&1; then
		if timeout $TIMEOUT_S "$d/native" >"$d/native.out" 2>&1; then
			nat=pass
		else
			st=$?; nat="fail($st)"; [ $st = 77 ] && nat=unsupported
			[ $st = 124 ] && nat=timeout
		fi
	else
		nat=nobuild
	fi
	# futexsim
	if ! "$b/futexsim" build "$g/src/$src" tests/glibc/driver.c $inc -w \
	    -o "$d/fs" >"$d/fs.build" 2>&1; then
		why=$(grep -m1 -i 'refus\|error' "$d/fs.build" | sed 's/^futexsim: //' | cut -c1-150)
		cols=""; s=1
		while [ $s -le "$seeds" ]; do cols="$cols refused"; s=$((s + 1)); done
		echo "$name $nat$cols | build: ${why:-$(head -1 "$d/fs.build")}"
		return 0
	fi
	limit=$(awk -F'\t' -v n="$name" '$1 == n { print $2 }' tests/glibc/long.list)
	long_seeds=$(awk -F'\t' -v n="$name" '$1 == n { print $3 }' tests/glibc/long.list)
	limit=${limit:-$TIMEOUT_S}
	if [ -n "$long_seeds" ] && [ "$long_seeds" -lt "$seeds" ]; then
		seeds=$long_seeds
	fi
	cols=""; why=""; s=1
	while [ $s -le "$seeds" ]; do
		st=0
		timeout "$limit" "$d/fs" run --seed=$s --livelock=$LIVELOCK \
		    --stuck=$STUCK >"$d/out.$s" 2>"$d/err.$s" || st=$?
		case $st in
		0) r=pass ;;
		77) r=unsupported ;;
		124) r=timeout; why=${why:-"no end in ${limit}s of host time"} ;;
		3) r=simfail
		   w=$(grep -m1 '^futexsim: [A-Z]' "$d/err.$s" | sed 's/^futexsim: //' | cut -c1-150)
		   why=${why:-$w} ;;
		*) r="fail($st)"
		   w=$(grep -m1 'error\|fail' "$d/out.$s" | cut -c1-150)
		   why=${why:-$w} ;;
		esac
		cols="$cols $r"; s=$((s + 1))
	done
	[ -n "$long_seeds" ] && why=${why:-"soak test: $seeds seed(s) (tests/glibc/long.list)"}
	echo "$name $nat$cols | $why"
}

if [ "${1:-}" = --one ]; then
	shift
	one "$@"
	exit 0
fi

strict=0; min=0
case ${1:-} in
--strict) strict=1; shift ;;
--min) min=${2:-}; shift 2 || true
       case $min in *[!0-9]*|'') echo "mk/check-glibc.sh: --min: expected a number, got '$min'" >&2; exit 2 ;; esac ;;
esac
[ $# -ge 1 ] || { echo "usage: sh mk/check-glibc.sh [--strict] BUILD_DIR [SEEDS] [NAME...]" >&2; exit 2; }
B=$1; shift
SEEDS=${1:-3}; [ $# -ge 1 ] && shift
case $SEEDS in *[!0-9]*|'') echo "mk/check-glibc.sh: SEEDS: expected a number, got '$SEEDS'" >&2; exit 2 ;; esac
JOBS=${JOBS:-2}
[ -x "$B/futexsim" ] || { echo "mk/check-glibc.sh: $B/futexsim: not built (make all)" >&2; exit 1; }
sh mk/deps.sh glibc-source parallel || exit 1

G=$B/glibc
if [ ! -f "$G/src/.extracted" ]; then
	rm -rf "$G/src"; mkdir -p "$G/src"
	tar -xJf "$GLIBC_TAR" -C "$G/src" --strip-components=1 --wildcards \
	    'glibc-2.36/nptl/tst-*' 'glibc-2.36/sysdeps/pthread/tst-*' \
	    'glibc-2.36/support/*.h'
	touch "$G/src/.extracted"
fi
# "../test-skeleton.c" of a test in nptl/ or sysdeps/pthread/
cp tests/glibc/include/test-skeleton.c "$G/src/test-skeleton.c"
cp tests/glibc/include/test-skeleton.c "$G/src/sysdeps/test-skeleton.c"

list=$G/tests.list
(cd "$G/src" && ls nptl/*.c sysdeps/pthread/*.c) | grep -E "/$FAMILIES" |
	grep -v 'mod[0-9]*\.c$' >"$list.all"
: >"$list"
skipped=0
while read -r src; do
	name=$(basename "$src" .c)
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	if grep -q "^$name	" tests/glibc/skip.list; then
		skipped=$((skipped + 1))
		continue
	fi
	echo "$name $src" >>"$list"
done <"$list.all"

t0=$(date +%s)
printf '%-28s %-12s %s | %s\n' test native "futexsim seeds 1..$SEEDS" reason
tr ' ' '\t' <"$list" | parallel -j"$JOBS" --colsep '\t' -k \
	sh mk/check-glibc.sh --one "$B" "$SEEDS" {1} {2} >"$G/rows"
awk '{ printf "%-28s %-12s", $1, $2; for (i = 3; i <= NF; i++) { if ($i == "|") break; printf " %s", $i } ; r = $0; sub(/^[^|]*\| ?/, "", r); printf " | %s\n", r }' "$G/rows"
[ $# -gt 0 ] || grep -v '^#' tests/glibc/skip.list |
	awk -F'\t' '{ printf "%-28s skipped: %s\n", $1, $2 }'
passed=$(awk '{ ok = 1; for (i = 3; i <= NF && $i != "|"; i++) if ($i != "pass") ok = 0; if (ok) n++ } END { print n + 0 }' "$G/rows")
total=$(wc -l <"$G/rows")
native=$(awk '$2 == "pass"' "$G/rows" | wc -l)
echo "native: $native of $total pass; $(( $(date +%s) - t0 )) s"
echo "$passed passed, $((total - passed)) failed, $skipped skipped"
if [ "$passed" -lt "$min" ]; then
	echo "mk/check-glibc.sh: $passed passed, fewer than the $min expected" >&2
	exit 1
fi
[ $strict = 0 ] && exit 0
if [ $# -gt 0 ] && [ $((total + skipped)) -ne $# ]; then
	echo "mk/check-glibc.sh: $# tests named, $((total + skipped)) found" >&2
	exit 1
fi
[ "$passed" = "$total" ]
