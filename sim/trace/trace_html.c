/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_html.c - the HTML writer of --trace FILE.html: one
 * self-contained page that steps through the run (docs/view.md).
 *
 * Stage: trace/report.  Called by sim/trace/trace.c with every record in
 * time order up to the window's end, and by sim_trace_failure() (the
 * failure report's headline); writes to the trace's FILE.  Calls the
 * second narrator of sim/trace/trace_narrate.c for each event's sentence,
 * and the name helpers of sim/trace/trace_names.c and sim/trace/lockstat.c.
 *
 * The page is
 *
 *   <!DOCTYPE html> ... <style>view.css</style> ...
 *   <script type="application/json" id="fs-events">[[...],[...],...]</script>
 *   <script type="application/json" id="fs-meta">{...}</script>
 *   <script>view.js</script>
 *
 * view.css and view.js are sim/trace/view/, embedded at build time
 * ($(B)/view_assets.h, made by the Makefile with od and sed).  Nothing is
 * loaded from elsewhere: the page opens from file:// without a network.
 *
 * Each event is an array, its trailing zero fields left out:
 *
 *   [ts_ps, type, cpu, tid, op, a, b, addr, arg, tid2, word, "sentence"]
 *
 * the fields of struct sim_trace_rec (sim/trace/trace_writer.h), addr an
 * index into meta.addrs ([address, name]; 0 is address 0), the sentence
 * that of --narrate for it: an index into meta.says, where each distinct
 * sentence is kept once, or (that table full) the string itself; left
 * out when --narrate tells nothing of the event.  The first meta.first events are
 * before the --trace-from window: they build the starting state and are
 * not numbered; event N of the page (1-based) is array element
 * first + N - 1, the Nth event line of the text trace of the same run.
 * meta holds the title, the lock, the CPUs, the task names, the names of
 * events and ops, the failure headline, and the note of a page cut at
 * SIM_TRACE_HTML_MAX records.  The page computes every state from the
 * events itself (view.js).
 *
 * State is fixed-size: the task, address and sentence tables (later
 * tasks and addresses get no names, later sentences are written out in
 * their events).  The output is a pure function of the records.
 */
#include <inttypes.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/trace/lockstat.h"
#include "sim/trace/trace_writer.h"
#include "view_assets.h"

#define MAX_TASKS	4096
#define MAX_ADDRS	4096		/* a power of two		*/
#define MAX_OPS		64		/* futex op values named	*/
#define MAX_SAYS	16384		/* distinct sentences, a power of two */
#define SAY_BYTES	(2 << 20)	/* ... their text		*/

static struct {
	uint64_t nr;			/* records written		*/
	uint64_t first;			/* ... of them before the window */
	int full;			/* SIM_TRACE_HTML_MAX reached	*/
	uint64_t full_ps;		/* ... at this time		*/
	int failed;
	uint32_t words;			/* lock words of the last event	*/
	char fail[1024];		/* the failure headline		*/
	char comm[MAX_TASKS][32];	/* task names, as first seen	*/
	int nr_addrs;
	uint64_t addr[MAX_ADDRS];	/* index -> address (0: 0)	*/
	int qspin[MAX_ADDRS];		/* named as a kernel spinlock	*/
	int slot[2 * MAX_ADDRS];	/* hash: address -> index + 1	*/
	unsigned int ops[MAX_OPS];	/* futex op values seen		*/
	int nr_ops;
	/* the sentences, each kept once: most repeat word for word */
	char text[SAY_BYTES];		/* NUL-terminated, one after another */
	size_t text_len;
	uint32_t say_at[MAX_SAYS];	/* sentence index -> offset in text */
	int nr_says;
	int say_slot[2 * MAX_SAYS];	/* hash: sentence -> index + 1	*/
} h;

/* the picture of the run (meta.svg), malloc'd; NULL: none */
static char *h_svg;

/* ---- output ------------------------------------------------------------- */

static void put_asset(FILE *f, const unsigned char *p, size_t n)
{
	fwrite(p, 1, n, f);
}

/* @s as a JSON string, safe inside <script>: '<' is \u003c. */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&')
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* ---- tables ------------------------------------------------------------- */

static void see_task(int tid)
{
	int i = tid - SIM_TID_BASE;

	if (!tid || i < 0 || i >= MAX_TASKS || h.comm[i][0])
		return;
	snprintf(h.comm[i], sizeof(h.comm[i]), "%s", sim__trace_comm(tid));
}

/* The index of @addr in the address table (0 for 0 or a full table). */
static int addr_index(uint64_t addr, int qspin)
{
	unsigned int s = (unsigned int)((addr >> 2) * 2654435761u) &
			 (2 * MAX_ADDRS - 1);

	if (!addr)
		return 0;
	while (h.slot[s]) {
		int i = h.slot[s] - 1;

		if (h.addr[i] == addr) {
			h.qspin[i] |= qspin;
			return i;
		}
		s = (s + 1) & (2 * MAX_ADDRS - 1);
	}
	if (h.nr_addrs >= MAX_ADDRS)
		return 0;
	h.addr[h.nr_addrs] = addr;
	h.qspin[h.nr_addrs] = qspin;
	h.slot[s] = h.nr_addrs + 1;
	return h.nr_addrs++;
}

static void see_op(unsigned int op)
{
	for (int i = 0; i < h.nr_ops; i++)
		if (h.ops[i] == op)
			return;
	if (h.nr_ops < MAX_OPS)
		h.ops[h.nr_ops++] = op;
}

/* The index + 1 of sentence @say in the table, or 0 when the table is
 * full (the event then carries the sentence itself). */
static int say_index(const char *say)
{
	unsigned int hash = 2166136261u, s;
	size_t n = strlen(say) + 1;

	for (const char *p = say; *p; p++)
		hash = (hash ^ (unsigned char)*p) * 16777619u;
	for (s = hash & (2 * MAX_SAYS - 1); h.say_slot[s];
	     s = (s + 1) & (2 * MAX_SAYS - 1)) {
		int i = h.say_slot[s] - 1;

		if (!strcmp(h.text + h.say_at[i], say))
			return i + 1;
	}
	if (h.nr_says >= MAX_SAYS || h.text_len + n > SAY_BYTES)
		return 0;
	memcpy(h.text + h.text_len, say, n);
	h.say_at[h.nr_says] = (uint32_t)h.text_len;
	h.text_len += n;
	h.say_slot[s] = ++h.nr_says;
	return h.nr_says;
}

/* ---- the writer ----------------------------------------------------------- */

static const char errors_js[] =
	"window.fsErrors=[];window.onerror=function(m,s,l,c){"
	"var e=document.getElementById('errors');"
	"window.fsErrors.push(m+' (line '+l+':'+c+')');"
	"if(e){e.textContent+=m+' (line '+l+':'+c+')\\n';}};";

void sim__trace_html_begin(const struct sim_trace_ctx *c)
{
	memset(&h, 0, sizeof(h));
	free(h_svg);
	h_svg = NULL;
	h.nr_addrs = 1;			/* index 0: address 0 */
	sim__narrate_text_begin(c);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>futexsim view</title>\n<style>\n", c->f);
	put_asset(c->f, sim_view_css, sizeof(sim_view_css));
	fprintf(c->f, "</style>\n<script>%s</script>\n</head><body>\n"
		"<pre id=\"errors\"></pre>\n<div id=\"app\"></div>\n"
		"<script type=\"application/json\" id=\"fs-events\">[",
		errors_js);
}

void sim__trace_html_rec(const struct sim_trace_ctx *c,
			 const struct sim_trace_rec *r)
{
	char say[SIM_NARRATE_LINE];
	int64_t f[11];
	uint32_t words;
	int n, told, extra;

	if (h.full)
		return;
	if (h.nr >= SIM_TRACE_HTML_MAX) {
		h.full = 1;
		h.full_ps = r->ts_ps;
		return;
	}
	told = sim__narrate_text(r, say, sizeof(say));
	see_task(r->tid);
	if (r->type <= SIM_TEV_SCHED_WAKEUP_NEW)
		see_task(r->tid2);
	if (r->type == SIM_TEV_FUTEX_ENTER || r->type == SIM_TEV_FUTEX_EXIT)
		see_op(r->a);
	f[0] = (int64_t)r->ts_ps;
	f[1] = r->type;
	f[2] = r->cpu;
	f[3] = r->tid;
	f[4] = r->op;
	f[5] = r->a;
	f[6] = r->b;
	f[7] = addr_index(r->addr, r->type == SIM_TEV_QSPINLOCK);
	f[8] = r->arg;
	f[9] = r->tid2;
	f[10] = r->word;
	if (r->ts_ps < c->from_ps)
		h.first++;
	/* the lock's words: only when they changed since the last event */
	words = r->words != h.words ? r->words : 0;
	if (words)
		h.words = r->words;
	extra = r->where || r->chain || words;
	for (n = 11; !told && !extra && n > 1 && !f[n - 1]; n--)
		;
	fputs(h.nr ? ",\n[" : "\n[", c->f);
	for (int i = 0; i < n; i++) {
		/* beyond 2^53 a JavaScript number is not exact: a string */
		if (f[i] > (1LL << 53) || f[i] < -(1LL << 53))
			fprintf(c->f, "%s\"%" PRId64 "\"", i ? "," : "", f[i]);
		else
			fprintf(c->f, "%s%" PRId64, i ? "," : "", f[i]);
	}
	if (told) {
		int i = say_index(say);

		if (i)
			fprintf(c->f, ",%d", i - 1);
		else {
			fputc(',', c->f);
			put_str(c->f, say);
		}
	} else if (extra) {
		fputs(",-1", c->f);	/* no sentence */
	}
	/* field 12: the task's stack (where) or the bucket's list (chain);
	 * field 13: the values of the lock's words */
	if (extra)
		fprintf(c->f, ",%u", r->where ? r->where : r->chain);
	if (words)
		fprintf(c->f, ",%u", words);
	fputc(']', c->f);
	h.nr++;
}

int sim__trace_html_picture(const char *svg)
{
	free(h_svg);
	h_svg = strdup(svg);
	return h_svg ? 0 : -1;
}

void sim__trace_html_failure(const char *line)
{
	h.failed = 1;
	snprintf(h.fail, sizeof(h.fail), "%s", line);
}

/* ,"lockwords":[[address index, name], ...]: the words of wvals' lists,
 * in order.  Before put_names(): their addresses join the table. */
static void put_lock_words(FILE *f)
{
	uint64_t addr[SIM_TRACE_LOCK_WORDS];
	const char *name[SIM_TRACE_LOCK_WORDS];
	int n = sim__trace_lock_words(addr, name, SIM_TRACE_LOCK_WORDS);

	fputs(",\n\"lockwords\":[", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s[%d,", i ? "," : "", addr_index(addr[i], 0));
		put_str(f, name[i]);
		fputc(']', f);
	}
	fputc(']', f);
}

static void put_names(FILE *f)
{
	char buf[160], tmp[48];
	int i, any = 0;

	fputs(",\"tasks\":[", f);
	for (i = 0; i < MAX_TASKS; i++) {
		if (!h.comm[i][0])
			continue;
		fprintf(f, "%s[%d,", any++ ? "," : "", i + SIM_TID_BASE);
		put_str(f, h.comm[i]);
		fputc(']', f);
	}
	fputs("],\n\"addrs\":[[\"0x0\",\"\"]", f);
	for (i = 1; i < h.nr_addrs; i++) {
		snprintf(tmp, sizeof(tmp), "0x%" PRIx64, h.addr[i]);
		if (h.qspin[i])
			sim_lockstat_name(h.addr[i], buf, sizeof(buf));
		else
			sim__trace_addr_name(h.addr[i], buf, sizeof(buf));
		fputs(",[", f);
		put_str(f, tmp);
		fputc(',', f);
		put_str(f, strcmp(buf, tmp) ? buf : "");
		fputc(']', f);
	}
	fputs("],\n\"events\":[", f);
	for (i = 0; i < SIM_TEV_NR; i++) {
		fputs(i ? "," : "", f);
		put_str(f, sim__trace_event_name((enum sim_trace_event)i));
	}
	fputs("],\n\"qsops\":[", f);
	for (i = 0; i < SIM_QS_NR_OPS; i++) {
		fputs(i ? "," : "", f);
		put_str(f, sim__trace_qspin_op((unsigned int)i));
	}
	fputs("],\n\"tpops\":[", f);
	for (i = 0; i < SIM_TP_NR_OPS; i++) {
		fputs(i ? "," : "", f);
		put_str(f, sim__trace_tp_op((unsigned int)i));
	}
	/* each futex op seen: [value, name, waits, command] */
	fputs("],\n\"fops\":[", f);
	for (i = 0; i < h.nr_ops; i++) {
		fprintf(f, "%s[%u,", i ? "," : "", h.ops[i]);
		put_str(f, sim__trace_futex_op(h.ops[i], tmp, sizeof(tmp)));
		fprintf(f, ",%d,%u]",
			sim__trace_futex_waits(h.ops[i] & FUTEX_CMD_MASK),
			h.ops[i] & FUTEX_CMD_MASK);
	}
	fputs("],\n\"says\":[", f);
	for (i = 0; i < h.nr_says; i++) {
		fputs(i ? ",\n" : "", f);
		put_str(f, h.text + h.say_at[i]);
	}
	fputc(']', f);
}

void sim__trace_html_end(const struct sim_trace_ctx *c)
{
	char events[256], note[200] = "";
	FILE *f = c->f;

	if (h.full)
		snprintf(note, sizeof(note),
			 "this page stops after %d records, at %" PRIu64 " ns: use --trace-from and --trace-to for a later window",
			 SIM_TRACE_HTML_MAX, h.full_ps / 1000);
	fputs("\n]</script>\n<script type=\"application/json\" id=\"fs-meta\">{\"v\":1,\"title\":", f);
	put_str(f, c->title);
	fprintf(f, ",\n\"cpus\":%d,\"first\":%" PRIu64 ",\"nr\":%" PRIu64 ",\"from_ps\":%" PRIu64 ",\n\"mask\":",
		c->nr_cpus, h.first, h.nr, c->from_ps);
	put_str(f, sim_trace_format_events(c->mask, events, sizeof(events)));
	fputs(",\"note\":", f);
	put_str(f, note);
	fputs(",\"fail\":", f);
	if (h.failed)
		put_str(f, h.fail);
	else
		fputs("null", f);
	put_lock_words(f);
	put_names(f);
	sim__where_write(f, put_str);
	sim__tlist_write(f, SIM_TLIST_CHAIN, "chains");
	sim__tlist_write(f, SIM_TLIST_WORDS, "wvals");
	if (h_svg) {
		fputs(",\n\"svg\":", f);
		put_str(f, h_svg);
		free(h_svg);
		h_svg = NULL;
	}
	fputs("}</script>\n<script>\n", f);
	put_asset(f, sim_view_js, sizeof(sim_view_js));
	fputs("</script>\n</body></html>\n", f);
}
