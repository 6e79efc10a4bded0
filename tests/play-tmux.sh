#!/bin/sh
# tests/play-tmux.sh - `futexsim play` on a real terminal: a detached tmux
# window on a private server runs it, the keys of a schedule are typed one
# answer at a time, and the pane's screen is checked.
#
#   sh tests/play-tmux.sh FUTEXSIM SCENARIO GOAL ANSWERS [--key=value ...]
#
# ANSWERS: a file of answers, one a line.  Each answer is typed only when
# the screen asks the question it answers (the header names the decision
# number); the first screen must list the choices.  At the end the pane
# must show "goal reached: GOAL".  Prints the last screen.  Every wait
# polls with a timeout (PLAY_TMUX_TIMEOUT seconds, default 20): the
# script never hangs.  Exit: 0 met, 1 not met (the screen is printed),
# 77 tmux is not installed (the caller skips), 2 bad usage.
#
# Called by tests/test_play.c (suite "play").
set -u
[ $# -ge 4 ] || { echo "usage: sh tests/play-tmux.sh FUTEXSIM SCENARIO GOAL ANSWERS [--key=value ...]" >&2; exit 2; }
bin=$1 scn=$2 goal=$3 answers=$4
shift 4
command -v tmux >/dev/null 2>&1 || { echo "tmux is not installed" >&2; exit 77; }
limit=${PLAY_TMUX_TIMEOUT:-20}

dir=$(mktemp -d "${TMPDIR:-/tmp}/futexsim-play-tmux.XXXXXX") || exit 1
sock=$dir/tmux.sock
t() { tmux -S "$sock" "$@"; }
cleanup() { t kill-server >/dev/null 2>&1; rm -rf "$dir"; }
trap cleanup EXIT INT TERM

screen() { t capture-pane -p -t play 2>/dev/null; }

# wait_for TEXT: poll the pane until it shows TEXT (Return: 0, 1 on timeout).
wait_for() {
	i=0
	while [ "$i" -lt $((limit * 10)) ]; do
		screen > "$dir/screen" && grep -qF -- "$1" "$dir/screen" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

fail() {
	echo "play-tmux: $1"
	echo "--- the screen:"
	screen
	exit 1
}

# the command in the pane, its exit status written after it ends
cmd="cd '$dir' && '$bin' play '$scn' --goal=$goal"
for a in "$@"; do cmd="$cmd '$a'"; done
cmd="$cmd; echo \"play exited with status \$?\"; sleep $limit"
t -f /dev/null new -d -s play -x 132 -y 50 "$cmd" || fail "tmux could not start play"

wait_for "decision 1," || fail "no first question within ${limit}s"
wait_for "choices (which CPU runs next):" || fail "the screen lists no choices"
k=1
while IFS= read -r a; do
	wait_for "decision $k," || fail "decision $k was not asked within ${limit}s"
	if [ -n "$a" ]; then
		t send-keys -t play -l -- "$a" || fail "send-keys failed"
	fi
	t send-keys -t play Enter || fail "send-keys failed"
	k=$((k + 1))
done < "$answers"
wait_for "play exited with status" || fail "play did not end within ${limit}s"
grep -qF "goal reached: $goal" "$dir/screen" || fail "no 'goal reached: $goal'"
grep -qF "play exited with status 0" "$dir/screen" || fail "exit status not 0"
screen | sed -e '/^$/d'
exit 0
