# tests/browser/expect.awk - what the page of --trace=FILE.html must show
# after event N, worked out from the text trace and the narration of the
# same run, independently of the page's script (sim/trace/view/view.js).
#
#   awk -v n=N -f expect.awk NARRATION TRACE.txt
#
# NARRATION is the --narrate output (stderr) of the run: the futex word's
# value after a FUTEX_WAIT's entry or exit ("it is V now", "the word is V
# now"), keyed by time (ns), task and entry/exit.  TRACE.txt gives event
# N (its Nth event line) and the state: each task's state by the rules of
# docs/view.md, each qspinlock's last (t,p,l), each futex word's value
# where the last futex event on it was a FUTEX_WAIT (the narration does
# not give it for a FUTEX_WAKE: those words are left out).  Prints
#
#   event TYPE PID NS
#   task PID STATE
#   lock ADDR (t,p,l)
#   word ADDR VALUE
function ns_of(s,    a) {		# "0.000000604" (s) -> 604
	split(s, a, ".")
	return a[1] * 1000000000 + a[2]
}
function ms_ns(s,    a) {		# "0.000604" (ms) -> 604
	split(s, a, ".")
	return a[1] * 1000000 + a[2]
}
function field(name,    i) {	# the value of name=... on this line
	for (i = 1; i <= NF; i++)
		if (index($i, name "=") == 1)
			return substr($i, length(name) + 2)
	return ""
}
function state(p) {
	if (dead[p])
		return "dead"
	if (cpu[p] >= 0)
		return spin[p] ? "spin" : insys[p] ? "kernel" : "user"
	if (sleeping[p])
		return "sleep"
	return started[p] ? "runnable" : "new"
}
# the narration: first file
FNR == NR {
	if ($2 != "ms")
		next
	key = ms_ns($1) " " $3
	if (match($0, /it is [0-9]+ now/))
		v = substr($0, RSTART + 6, RLENGTH - 10)
	else if (match($0, /the word is [0-9]+ now/))
		v = substr($0, RSTART + 12, RLENGTH - 16)
	else
		next
	kind = index($0, " returned ") ? "exit" : "enter"
	said[key " " kind] = v
	next
}
/^#/ { next }
{
	ev++
	if (ev > n)
		exit
	# "   worker0-100   [000]     0.000000095: futex_enter: ..."
	task = $1
	pid = task; sub(/.*-/, "", pid)
	comm = task; sub(/-[0-9]+$/, "", comm)
	c = $2; gsub(/[\[\]]/, "", c); c += 0
	ts = $3; sub(/:$/, "", ts)
	type = $4; sub(/:$/, "", type)
	t_ns = ns_of(ts)
	if (pid != 0 && type != "sched_switch") {
		started[pid] = 1
		cpu[pid] = c
		sleeping[pid] = 0
		seen[pid] = 1
	}
	if (type == "sched_switch") {
		prev = field("prev_pid"); next_ = field("next_pid")
		if (prev != 0) {
			cpu[prev] = -1
			spin[prev] = 0
			sleeping[prev] = field("prev_state") == "S"
			dead[prev] = field("prev_state") == "X"
			seen[prev] = 1
		}
		if (next_ != 0) {
			cpu[next_] = c
			started[next_] = 1
			sleeping[next_] = 0
			seen[next_] = 1
		}
	} else if (type == "sched_wakeup" || type == "sched_wakeup_new") {
		p = field("pid")
		started[p] = 1
		sleeping[p] = 0
		if (!(p in cpu))
			cpu[p] = -1
		seen[p] = 1
	} else if (type == "futex_enter" || type == "futex_exit") {
		insys[pid] = type == "futex_enter"
		a = field("uaddr")
		kind = type == "futex_enter" ? "enter" : "exit"
		k = t_ns " " comm " " kind
		if (field("op") ~ /WAIT/ && (k in said))
			word[a] = said[k]
		else
			word[a] = "?"
	} else if (type == "nanosleep_enter" || type == "nanosleep_exit") {
		insys[pid] = type == "nanosleep_enter"
	} else if (type == "qspinlock") {
		l = field("lock"); op = field("op")
		if (op == "slowpath")
			spin[pid] = 1
		if (op == "lock")
			spin[pid] = 0
		# "(t,p,l) (old)" or "(t,p,l) (old) -> (new)"
		tuple[l] = $NF
	}
	last = type " " pid " " t_ns
}
END {
	print "event " last
	for (p in seen)
		if (p != 0)
			print "task " p " " state(p)
	for (l in tuple)
		print "lock " l " " tuple[l]
	for (a in word)
		if (word[a] != "?")
			print "word " a " " word[a]
}
