# tests/browser/compare.awk - the page's lines (tests/browser/page.awk)
# against the expected ones (tests/browser/expect.awk):
#
#   awk -f compare.awk EXPECTED PAGE
#
# The event, every task, every lock must be the same on both sides
# (a task the trace has not shown yet may be on the page as "new"), every
# expected word must be on the page with its value, and the page must
# have no errors.  Prints each difference; exit 1 if there is one.
FNR == NR { want[$0] = 1; if ($1 == "task") wtask[$2] = 1; next }
$1 == "errors" { print "page error: " substr($0, 8); bad++; next }
$1 == "task" && $3 == "new" && !($2 in wtask) { next }
{
	got[$0] = 1
	if ($1 != "word" && !($0 in want)) {
		print "on the page, not expected: " $0
		bad++
	}
}
END {
	for (w in want)
		if (!(w in got)) {
			print "expected, not on the page: " w
			bad++
		}
	exit bad ? 1 : 0
}
