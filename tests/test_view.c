/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_view.c - suite "view": the page of --trace=FILE.html and
 * `futexsim view` (sim/trace/trace_html.c, sim/cli/cli.c) through the
 * binary, without a browser: the page numbers exactly the text trace's
 * event lines (with and without a --trace-from window), is byte-identical
 * for one seed and from the run's replay file, loads nothing from
 * elsewhere, does not change the run, marks a failed run's failure,
 * stops with a note at SIM_TRACE_HTML_MAX records, and bad values are one
 * line and exit 2.  What the page shows in a browser is
 * mk/check-browser.sh's.
 *
 * Stage: trace/report, end to end.  Run by tests/check_main.c; runs
 * $FUTEXSIM (`make check` sets it) through tests/run_child.h.  Without
 * $FUTEXSIM each test says so and passes.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_child.h"

static struct child_out co;
#define TEMP_DIR_PREFIX "/tmp/futexsim-view-"
#include "tests/temp_dir.h"

#define futexsim(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", "run", __VA_ARGS__, NULL })
#define futexsim_cmd(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", __VA_ARGS__, NULL })

/* The small run: contended ww on tiny4. */
#define SMALL	"--machine=tiny4", "--threads=3", "--ops=30", "--lock=ww"

/* The number after "@key": in the page's meta block, or -1. */
static long meta_num(const char *page, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(page, "id=\"fs-meta\"");
	p = p ? strstr(p, pat) : NULL;
	return p ? strtol(p + strlen(pat), NULL, 10) : -1;
}

/* The event lines of a text trace. */
static long text_events(const char *text)
{
	long n = 0;

	for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
		if (*p != '#')
			n++;
		if (!strchr(p, '\n'))
			break;
	}
	return n;
}

/* Run SMALL with @extra (or nothing) into a.txt and a.html; check that the
 * page numbers the text's event lines.  Return: the page's "first". */
static long check_numbering(const char *extra)
{
	char txt[128], html[128], o1[160], o2[160];
	char *text, *page;
	long first, nr;

	snprintf(o1, sizeof(o1), "--trace=%s", in_dir("a.txt", txt, sizeof(txt)));
	snprintf(o2, sizeof(o2), "--trace=%s", in_dir("a.html", html, sizeof(html)));
	futexsim(&co, SMALL, o1, extra ? extra : "--seed=1");
	ck_assert_msg(co.status == 0, "%s", co.err);
	futexsim(&co, SMALL, o2, extra ? extra : "--seed=1");
	ck_assert_msg(co.status == 0, "%s", co.err);
	text = slurp(txt, NULL);
	page = slurp(html, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(page);
	first = meta_num(page, "first");
	nr = meta_num(page, "nr");
	ck_assert_int_ge(first, 0);
	ck_assert_int_gt(text_events(text), 10);
	ck_assert_int_eq(nr - first, text_events(text));
	free(text);
	free(page);
	return first;
}

START_TEST(test_page_numbers_exactly_the_text_trace_event_lines)
{
	if (!futexsim(&co, "--help"))
		return;
	/* the whole run: nothing before the window */
	ck_assert_int_eq(check_numbering(NULL), 0);
	/* a window: the events before it build the state, unnumbered */
	ck_assert_int_gt(check_numbering("--trace-from=2us"), 0);
}
END_TEST

START_TEST(test_page_is_the_same_bytes_twice_and_from_the_replay)
{
	char a[128], b[128], c[128], rec[128], o1[160], o2[160], o3[160];
	char *x, *y, *z;
	size_t lx, ly, lz;

	snprintf(o1, sizeof(o1), "--trace=%s", in_dir("a.html", a, sizeof(a)));
	snprintf(o2, sizeof(o2), "--trace=%s", in_dir("b.html", b, sizeof(b)));
	snprintf(o3, sizeof(o3), "--record=%s", in_dir("r.replay", rec, sizeof(rec)));
	in_dir("r.html", c, sizeof(c));
	if (!futexsim(&co, SMALL, o1, o3))
		return;
	ck_assert_msg(co.status == 0, "%s", co.err);
	futexsim(&co, SMALL, o2);
	ck_assert_int_eq(co.status, 0);
	/* view FILE.replay writes FILE.html by default */
	futexsim_cmd(&co, "view", rec);
	ck_assert_msg(co.status == 0, "%s", co.err);
	x = slurp(a, &lx);
	y = slurp(b, &ly);
	z = slurp(c, &lz);
	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(y);
	ck_assert_ptr_nonnull(z);
	ck_assert_int_eq(lx, ly);
	ck_assert(!memcmp(x, y, lx));
	ck_assert_int_eq(lx, lz);
	ck_assert(!memcmp(x, z, lx));
	/* the negative control: another seed, another page */
	futexsim(&co, SMALL, o2, "--seed=2");
	free(y);
	y = slurp(b, &ly);
	ck_assert(lx != ly || memcmp(x, y, lx));
	free(x);
	free(y);
	free(z);
}
END_TEST

START_TEST(test_page_loads_nothing_and_does_not_change_the_run)
{
	char html[128], opt[160], plain[CHILD_OUT_MAX], *page;

	if (!futexsim(&co, SMALL))
		return;
	ck_assert_int_eq(co.status, 0);
	memcpy(plain, co.out, sizeof(plain));
	snprintf(opt, sizeof(opt), "--trace=%s", in_dir("a.html", html, sizeof(html)));
	futexsim(&co, SMALL, opt);
	ck_assert_int_eq(co.status, 0);
	/* the figures, below the echoed scenario */
	ck_assert_str_eq(strstr(plain, "\n---"), strstr(co.out, "\n---"));
	page = slurp(html, NULL);
	ck_assert_ptr_nonnull(page);
	ck_assert(!strncmp(page, "<!DOCTYPE html>", 15));
	ck_assert_ptr_nonnull(strstr(page, "</html>\n"));
	ck_assert_ptr_null(strstr(page, " src="));
	ck_assert_ptr_null(strstr(page, "<link"));
	ck_assert_ptr_null(strstr(page, "url("));
	ck_assert_ptr_null(strstr(page, "fetch("));
	ck_assert_ptr_null(strstr(page, "XMLHttpRequest"));
	ck_assert_ptr_null(strstr(page, "import("));
	ck_assert_ptr_nonnull(strstr(page, "\"fail\":null"));
	free(page);
}
END_TEST

START_TEST(test_failed_run_page_marks_the_failure)
{
	char html[128], opt[160], *page;

	snprintf(opt, sizeof(opt), "--trace=%s", in_dir("f.html", html, sizeof(html)));
	if (!futexsim(&co, "--machine=tiny4", "--threads=2", "--lock=ww-busted",
		      "--ops=10", "--seed=3", "--strategy=random",
		      "--oracle=mutex,deadlock", opt))
		return;
	ck_assert_int_eq(co.status, 3);
	page = slurp(html, NULL);
	ck_assert_ptr_nonnull(page);
	ck_assert_ptr_nonnull(strstr(page, "\"fail\":\"futexsim: DEADLOCK (lost wakeup)"));
	free(page);
	/* the same run of the correct lock: no failure on its page */
	futexsim(&co, "--machine=tiny4", "--threads=2", "--lock=ww", "--ops=10",
		 "--seed=3", "--strategy=random", "--oracle=mutex,deadlock", opt);
	ck_assert_int_eq(co.status, 0);
	page = slurp(html, NULL);
	ck_assert_ptr_nonnull(strstr(page, "\"fail\":null"));
	free(page);
}
END_TEST

START_TEST(test_long_run_page_stops_with_a_note)
{
	char html[128], opt[160], *page;
	size_t len;

	snprintf(opt, sizeof(opt), "--trace=%s", in_dir("l.html", html, sizeof(html)));
	if (!futexsim(&co, "--machine=tiny4", "--threads=4", "--lock=ww",
		      "--ops=60000", opt))
		return;
	ck_assert_int_eq(co.status, 0);
	page = slurp(html, &len);
	ck_assert_ptr_nonnull(page);
	ck_assert_int_eq(meta_num(page, "nr"), 200000);
	ck_assert_ptr_nonnull(strstr(page, "this page stops after 200000 records"));
	ck_assert_uint_lt(len, 20u << 20);
	free(page);
	/* a shorter run: every record, no note */
	futexsim(&co, SMALL, opt);
	page = slurp(html, NULL);
	ck_assert_ptr_nonnull(strstr(page, "\"note\":\"\""));
	free(page);
}
END_TEST

START_TEST(test_bad_view_values_get_one_line_and_status_2)
{
	char rec[128], opt[160];

	if (!futexsim(&co, SMALL, "--trace=/tmp/x.htm"))
		return;
	assert_one_line_error(&co, "--trace", ".html", "'/tmp/x.htm'");
	snprintf(opt, sizeof(opt), "--record=%s", in_dir("r.replay", rec, sizeof(rec)));
	futexsim(&co, SMALL, opt);
	ck_assert_int_eq(co.status, 0);
	futexsim_cmd(&co, "view", rec, "-o", "/tmp/x.txt");
	assert_one_line_error(&co, "-o OUT.html", "'/tmp/x.txt'");
	futexsim_cmd(&co, "view", rec, "-o");
	assert_one_line_error(&co, "-o OUT.html");
	futexsim_cmd(&co, "view");
	assert_one_line_error(&co, "a replay file");
}
END_TEST

Suite *view_suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");

	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, NULL, remove_dir);
	tcase_add_test(tc, test_page_numbers_exactly_the_text_trace_event_lines);
	tcase_add_test(tc, test_page_is_the_same_bytes_twice_and_from_the_replay);
	tcase_add_test(tc, test_page_loads_nothing_and_does_not_change_the_run);
	tcase_add_test(tc, test_failed_run_page_marks_the_failure);
	tcase_add_test(tc, test_long_run_page_stops_with_a_note);
	tcase_add_test(tc, test_bad_view_values_get_one_line_and_status_2);
	suite_add_tcase(s, tc);
	return s;
}
