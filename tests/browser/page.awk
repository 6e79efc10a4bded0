# tests/browser/page.awk - what a page of --trace=FILE.html shows, read
# from chromium --dump-dom, in the lines of tests/browser/expect.awk:
#
#   event TYPE PID NS      (from <section id="event" data-type data-ts data-tid>)
#   task PID STATE         (<tr data-tid data-state>)
#   lock ADDR (t,p,l)      (<tr data-lock data-tpl>)
#   word ADDR VALUE        (<tr data-addr data-value>)
#   errors TEXT            (<pre id="errors">, when not empty)
function attr(s, name,    r) {
	if (!match(s, name "=\"[^\"]*\""))
		return ""
	r = substr(s, RSTART + length(name) + 2, RLENGTH - length(name) - 3)
	return r
}
# the page's own script text, which names these tags too, comes after
# the data: stop there
done { next }
{
	s = $0
	if ((i = index(s, "<script type=\"application/json\"")) > 0) {
		s = substr(s, 1, i - 1)
		done = 1
	}
	while (match(s, /<(tr|section) [^>]*>/)) {
		tag = substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
		if (tag ~ /id="event"/)
			print "event " attr(tag, "data-type") " " attr(tag, "data-tid") \
			      " " int(attr(tag, "data-ts") / 1000)
		else if (tag ~ /data-tid=/)
			print "task " attr(tag, "data-tid") " " attr(tag, "data-state")
		else if (tag ~ /data-lock=/)
			print "lock " attr(tag, "data-lock") " " attr(tag, "data-tpl")
		else if (tag ~ /data-addr=/)
			print "word " attr(tag, "data-addr") " " attr(tag, "data-value")
	}
	if (match($0, /<pre id="errors">[^<]+/))
		print "errors " substr($0, RSTART + 17, RLENGTH - 17)
}
