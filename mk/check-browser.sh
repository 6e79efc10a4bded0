#!/bin/sh
# mk/check-browser.sh B - the page of --trace=FILE.html in a real browser
# (part of make check; docs/view.md).
#
# Headless Chromium opens pages futexsim wrote, from file://, and dumps
# their DOM after the script ran (--dump-dom).  For a small run, at
# several events N (#event=N), what the page shows (tests/browser/page.awk)
# must be what the text trace and the narration of the same run say
# (tests/browser/expect.awk): event N is the Nth event line of the text
# trace, each task's state, each bucket lock's (t,p,l), the futex word;
# the page must have no script error.  Stepping (#event=N+1) must show
# the next line's state, and a wrong expectation (N's for N+1) must fail.
# The page is a pure function of the run (twice the same bytes, and the
# same from `futexsim view` of the run's replay file).  A run of ~100,000
# events must load in under 2 s and step in under 50 ms.  A screenshot
# of a larger run is left in $B/view.png for a person to look at.
# The checks that need no browser (the bytes, the event count, bad input)
# run first; the others are skipped, with one line, only if chromium is
# not installed and cannot be.
set -u
B=$1
FUTEXSIM=$(cd "$B" && pwd)/futexsim
T=$(cd "$(dirname "$0")/../tests/browser" && pwd)
W=$B/browser
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
pass=0
fail=0

rm -rf "$W"
mkdir -p "$W"
W=$(cd "$W" && pwd)

ok() { pass=$((pass + 1)); }
bad() { echo "check-browser: FAIL: $*"; fail=$((fail + 1)); }

# dom FILE N [EXTRA] - the DOM of page FILE at #event=N (and &EXTRA)
dom() {
	timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu \
		--virtual-time-budget=10000 --dump-dom \
		"file://$W/$1#event=$2${3:+&$3}" 2>/dev/null
}

# check N - the page at N against the text trace and narration
check() {
	awk -v n="$1" -f "$T/expect.awk" "$W/small.narr" "$W/small.txt" |
		sort >"$W/want.$1"
	dom small.html "$1" | awk -f "$T/page.awk" | sort >"$W/got.$1"
	if awk -f "$T/compare.awk" "$W/want.$1" "$W/got.$1" >"$W/diff.$1"; then
		ok
	else
		bad "#event=$1 differs from the text trace (small.txt line $1):"
		sed 's/^/    /' "$W/diff.$1"
	fi
}

# nth TYPE [PATTERN] - the number of the first event line of TYPE
# (matching PATTERN) in the small run's text trace
nth() {
	grep -v '^#' "$W/small.txt" | grep -n ": $1: .*${2:-}" | head -1 |
		cut -d: -f1
}

SMALL="run --machine=tiny4 --threads=3 --ops=6 --lock=ww"
(cd "$W" && "$FUTEXSIM" $SMALL --trace=small.txt --narrate=yes \
	--record=small.replay >/dev/null 2>small.narr &&
 "$FUTEXSIM" $SMALL --trace=small.html >/dev/null &&
 "$FUTEXSIM" $SMALL --trace=again.html >/dev/null &&
 "$FUTEXSIM" view small.replay -o viewed.html >/dev/null) ||
	bad "the small run failed"
count=$(grep -c -v '^#' "$W/small.txt")

# a pure function of the run: byte-identical twice, and from its replay
if cmp -s "$W/small.html" "$W/again.html"; then ok; else
	bad "two pages of one run differ"; fi
if cmp -s "$W/small.html" "$W/viewed.html"; then ok; else
	bad "futexsim view of the run's replay differs from --trace=FILE.html"; fi
# as many numbered events as the text trace has event lines
first=$(sed -n 's/.*"first":\([0-9]*\).*/\1/p' "$W/small.html" | head -1)
nr=$(sed -n 's/.*"nr":\([0-9]*\).*/\1/p' "$W/small.html" | head -1)
if [ "$((nr - first))" = "$count" ]; then ok; else
	bad "the page numbers $((nr - first)) events, the text trace has $count"; fi
# bad input: one line, exit 2
"$FUTEXSIM" view "$W/small.replay" -o "$W/x.txt" >/dev/null 2>"$W/bad.err"
if [ $? = 2 ] && [ "$(wc -l <"$W/bad.err")" = 1 ] &&
   grep -q "ending in .html, got '.*x.txt'" "$W/bad.err"; then ok; else
	bad "view -o x.txt: expected one line and exit 2, got: $(cat "$W/bad.err")"; fi

if [ -z "$CHROMIUM" ]; then
	echo "check-browser: $pass passed, $fail failed; SKIP the browser tests: chromium is not installed and could not be (mk/deps.sh chromium)"
	[ "$fail" = 0 ]
	exit
fi

# the events to look at: a slow path (a task spins), the next event,
# a sleep in FUTEX_WAIT, a futex call, the last event
slow=$(nth qspinlock op=slowpath)
sleep=$(nth sched_switch prev_state=S)
call=$(nth futex_enter WAIT)
for n in $call $slow $((slow + 1)) $sleep $count; do
	check "$n"
done

# stepping: N -> N+1 changes what the trace says it changes, so the
# expectation of N must fail at N+1 (the negative control)
if cmp -s "$W/want.$slow" "$W/want.$((slow + 1))"; then
	bad "events $slow and $((slow + 1)) change nothing: a useless step test"
elif awk -f "$T/compare.awk" "$W/want.$slow" "$W/got.$((slow + 1))" \
	>/dev/null; then
	bad "the negative control passed: #event=$((slow + 1)) matched event $slow's expectation"
else
	ok
fi
# and a page whose script throws must show it in #errors
sed 's|^</script>$|throw new Error("deliberate");</script>|' \
	"$W/small.html" >"$W/broken.html"
if dom broken.html 1 | awk -f "$T/page.awk" | grep -q '^errors .*deliberate'; then
	ok
else
	bad "a script error does not reach #errors"
fi

# flat DOM FILE N - the page's DOM at #event=N on one line (attributes
# may hold newlines)
flat() { dom "$1" "$2" | tr '\n' ' '; }

# The waiters of a bucket are the kernel's plist: three SCHED_FIFO
# waiters queue in the order 10, 30, 20 (tests/browser/plist.c); the
# kernel keeps them by priority, and FUTEX_WAKE wakes them in that
# order.  At the wake's futex_enter the page must list them in the order
# the text trace then shows them woken, which is not the order they
# came in (the control: a list kept in arrival order would fail).
(cd "$W" && "$FUTEXSIM" build "$T/plist.c" -o plist >/dev/null &&
 "$FUTEXSIM" run --program=./plist --cpus=1 --trace=plist.txt >/dev/null &&
 "$FUTEXSIM" run --program=./plist --cpus=1 --trace=plist.html >/dev/null) ||
	bad "the plist program failed"
grep -v '^#' "$W/plist.txt" >"$W/plist.ev"
wake=$(grep -n 'futex_enter: .*(gate .*FUTEX_WAKE' "$W/plist.ev" | head -1 | cut -d: -f1)
came=$(grep 'futex_enter: .*(gate .*FUTEX_WAIT' "$W/plist.ev" |
	sed 's/^ *[^ ]*-\([0-9]*\) .*/\1/' | paste -sd, -)
woke=$(sed -n "$((wake + 1)),\$p" "$W/plist.ev" | grep 'sched_wakeup:' | head -3 |
	sed 's/.* pid=\([0-9]*\) .*/\1/' | paste -sd, -)
shown=$(flat plist.html "${wake:-1}" | grep -o '<tr data-lock[^>]*' |
	sed -n 's/.*data-waiters="\([0-9,]*[0-9]\)".*/\1/p' | head -1)
if [ -n "$woke" ] && [ "$shown" = "$woke" ] && [ "$came" != "$woke" ]; then ok; else
	bad "bucket waiters at #event=$wake: page '$shown', woken in the order '$woke', queued in the order '$came' (must differ)"; fi

# Where a task is, against the failure report: the page's stack of the
# task the lost wakeup leaves asleep must be the report's stack of it
# (its frames but the machine's dispatch and the task's start), taken
# by another unwind (libunwind with names, of the suspended context).
(cd "$W" && "$FUTEXSIM" explore "$T/../../workloads/bugs/lost-wakeup.scn" \
	--strategy=random --runs=1000 --out=lw.replay >/dev/null 2>&1
 "$FUTEXSIM" replay lw.replay --trace=lw.html >/dev/null 2>lw.err)
sleeper=$(sed -n 's/^task \([0-9]*\) ".*" SLEEPING.*/\1/p' "$W/lw.err" | head -1)
want=$(awk -v t="$sleeper" '$1 == "task" { p = ($2 == t); next }
	/^replay/ { p = 0 } p && /^    / && !/\(sim\/machine\// && !/^    task_entry / {
		sub(/^    /, ""); sub(/, inlined\)$/, ")"); sub(/ \(inlined\)$/, "")
		printf "%s%s", n++ ? " <- " : "", $0 }' "$W/lw.err")
got=$(flat lw.html 999999 | grep -o "data-tid=\"$sleeper\"[^>]*>.*" |
	grep -o 'data-where="[^"]*"' | head -1 | sed 's/^data-where="//; s/"$//; s/&lt;/</g')
case $want in
*futex_wait_queue*worker*) if [ "$got" = "$want" ]; then ok; else
	bad "task $sleeper's stack: the page says '$got', the report '$want'"; fi ;;
*) bad "the lost wakeup's report has no stack for a sleeping task ($W/lw.err)" ;;
esac
# and a running task's cell is empty, but for its call: at event 1 no
# task has left its CPU nor called futex(2) yet
if flat small.html 1 | grep -q 'data-where="[^"]'; then
	bad "a task has a stack at #event=1, before any call or switch"; else ok; fi

# ~100,000 events: loads in under 2 s, steps in under 50 ms (the best
# of two tries: the machine may be busy)
(cd "$W" && "$FUTEXSIM" run --machine=tiny4 --threads=4 --ops=19300 \
	--lock=ww --trace=big.html >/dev/null) || bad "the big run failed"
best_load=999999
best_step=999999
for try in 1 2; do
	dom big.html 50000 steps=200 >"$W/big.dom"
	l=$(sed -n 's/.*data-load-ms="\([0-9]*\)".*/\1/p' "$W/big.dom" | head -1)
	s=$(sed -n 's/.*data-step-ms="\([0-9]*\).*/\1/p' "$W/big.dom" | head -1)
	[ -n "$l" ] && [ "$l" -lt "$best_load" ] && best_load=$l
	[ -n "$s" ] && [ "$s" -lt "$best_step" ] && best_step=$s
done
nbig=$(sed -n 's/.*"nr":\([0-9]*\).*/\1/p' "$W/big.html" | head -1)
echo "check-browser: $nbig events: load ${best_load} ms, a step ${best_step} ms, $(($(wc -c <"$W/big.html") / nbig)) bytes per event"
if [ "$best_load" -lt 2000 ] && [ "$best_step" -lt 50 ]; then ok; else
	bad "the page of $nbig events loads in $best_load ms (2000 allowed), steps in $best_step ms (50 allowed)"; fi
if awk -f "$T/page.awk" "$W/big.dom" | grep -q '^errors'; then
	bad "the big page has script errors"; else ok; fi

# a screenshot for a person: 6 threads on 4 CPUs, at the third time a
# task goes to sleep in FUTEX_WAIT
SHOT="run --machine=tiny4 --threads=6 --ops=30 --lock=ww"
(cd "$W" && "$FUTEXSIM" $SHOT --trace=shot.html >/dev/null &&
 "$FUTEXSIM" $SHOT --trace=shot.txt >/dev/null) || bad "the screenshot's run failed"
n=$(grep -v '^#' "$W/shot.txt" | grep -n 'prev_state=S' | sed -n 3p | cut -d: -f1)
rm -f "$B/view.png"
timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu \
	--virtual-time-budget=10000 --window-size=1400,900 \
	--screenshot="$W/../view.png" "file://$W/shot.html#event=${n:-1}" \
	>/dev/null 2>&1
if [ -s "$B/view.png" ]; then ok; else bad "no screenshot $B/view.png"; fi

# screenshots of the plots for a person, under $B/plots/: a run's
# (operations per thread, the latency CDF of three locks), a comparison's,
# and each chart of the studies (docs/studies/img/); each must be drawn
# (a non-empty PNG) from an SVG the browser opens without error
P=$B/plots
rm -rf "$P"
mkdir -p "$P"
P=$(cd "$P" && pwd)
(cd "$W" && "$FUTEXSIM" run --machine=tiny4 --threads=6 --ops=300 \
	--lock=ww,tp,pi --plot=run.svg >/dev/null &&
 "$FUTEXSIM" compare --machine=tiny4 --threads=4 --ops=200 --seeds=3 \
	--lock=ww --b-set=lock=tp --plot=compare.svg >/dev/null) ||
	bad "the plots' runs failed"
shot() {	# shot SVG PNG
	timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu \
		--virtual-time-budget=5000 --window-size=1000,800 \
		--screenshot="$2" "file://$1" >/dev/null 2>&1
	if [ -s "$2" ]; then ok; else bad "no screenshot $2 of $1"; fi
}
shot "$W/run.svg" "$P/run.png"
shot "$W/compare.svg" "$P/compare.png"
for svg in "$T"/../../docs/studies/img/*.svg; do
	shot "$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")" \
		"$P/study-$(basename "$svg" .svg).png"
done
# and the view with its plot and a rwlock's words decoded, at event 20:
# a write phase, a primary writer, two writers waiting
(cd "$W" && "$FUTEXSIM" run --machine=tiny4 --threads=4 --ops=6 \
	--workload=rwlock --lock=rw-prefer-writer --trace=rw.html >/dev/null) ||
	bad "the rwlock page's run failed"
timeout 120 "$CHROMIUM" --headless=new --no-sandbox --disable-gpu \
	--virtual-time-budget=10000 --window-size=1400,1600 \
	--screenshot="$P/view-rwlock.png" "file://$W/rw.html#event=20" \
	>/dev/null 2>&1
if [ -s "$P/view-rwlock.png" ]; then ok; else bad "no screenshot $P/view-rwlock.png"; fi

echo "check-browser: $pass passed, $fail failed (pages in $W, screenshots $B/view.png and $P/)"
[ "$fail" = 0 ]
