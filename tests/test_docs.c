/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_docs.c - suite "docs": docs/usage.md says what the code does.
 * Its "## Scenario keys" table lists exactly the keys the scenario parser
 * accepts (every key of the code's table has a row, every row names a
 * key of the code's table, none twice), and its "## Exit statuses" table
 * has one row per exit status of sim/report/exit.h.  The checkers run on
 * made-up tables too, with a key missing, one extra and one twice, and
 * must report each (the negative control).
 *
 * Stage: tests, documentation level.  Run by tests/check_main.c; reads
 * docs/usage.md from the source tree (FUTEXSIM_SOURCE_DIR, version.h) and
 * the key table through sim_scenario_key_name() (sim/scenario/scenario.c).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/exit.h"
#include "sim/scenario/scenario.h"
#include "tests/run_child.h"
#include "version.h"

#define USAGE_MD	FUTEXSIM_SOURCE_DIR "/docs/usage.md"
#define KEYS_HEADING	"## Scenario keys"
#define EXIT_HEADING	"## Exit statuses"
#define MAX_KEYS	256

/* The code's keys: sim_scenario_key_name(0, 1, ...) into @keys.
 * Return: how many. */
static int code_keys(const char **keys)
{
	int n = 0;

	while (n < MAX_KEYS && sim_scenario_key_name(n)) {
		keys[n] = sim_scenario_key_name(n);
		n++;
	}
	ck_assert_msg(!sim_scenario_key_name(n), "more than %d keys", MAX_KEYS);
	return n;
}

/*
 * section - the text of section @heading of Markdown @text, from its
 * heading line to the next level-2 heading: a copy (free() it), or NULL
 * if there is no such heading.
 */
static char *section(const char *text, const char *heading)
{
	size_t hl = strlen(heading);
	const char *s, *end;
	char *out;

	for (s = strstr(text, heading); s; s = strstr(s + 1, heading))
		if ((s == text || s[-1] == '\n') && (s[hl] == '\n' || !s[hl]))
			break;
	if (!s)
		return NULL;
	end = strstr(s + hl, "\n## ");
	if (!end)
		end = s + strlen(s);
	out = strndup(s, (size_t)(end - s));
	ck_assert_ptr_nonnull(out);
	return out;
}

/*
 * table_names - the names in the first column of the table rows of @sec
 * (lines "| ..."): every `name` in backticks of a row's first cell, one
 * per line, in order, into a new string (free() it).  The header row and
 * the |---| line have none.
 */
static char *table_names(const char *sec)
{
	char *out = calloc(1, strlen(sec) + 1), *o = out;

	ck_assert_ptr_nonnull(out);
	for (const char *line = sec; *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len > 2 && line[0] == '|') {
			/* the first cell: up to the next unescaped '|' */
			const char *cell = line + 1, *bar = memchr(cell, '|', len - 1);
			const char *end = bar ? bar : line + len, *p = cell;

			while (p < end && (p = memchr(p, '`', (size_t)(end - p)))) {
				const char *q = memchr(p + 1, '`', (size_t)(end - p - 1));

				if (!q)
					break;
				memcpy(o, p + 1, (size_t)(q - p - 1));
				o += q - p - 1;
				*o++ = '\n';
				p = q + 1;
			}
		}
		line += len + (nl != NULL);
	}
	*o = '\0';
	return out;
}

/* Is @name a line of the newline-separated @list?  Return: how often. */
static int count_in(const char *list, const char *name)
{
	size_t n = strlen(name);
	int c = 0;

	for (const char *l = list; *l; l = strchr(l, '\n') + 1)
		if (!strncmp(l, name, n) && l[n] == '\n')
			c++;
	return c;
}

/*
 * check_key_table - compare the key table of Markdown @doc (its
 * KEYS_HEADING section) with the @nr keys of @code, both ways.  Writes
 * one line per finding into @out (@len bytes).  Return: the findings.
 */
static int check_key_table(const char *doc, const char *const *code, int nr,
			   char *out, size_t len)
{
	char *sec = section(doc, KEYS_HEADING), *names;
	int bad = 0;

	out[0] = '\0';
	if (!sec) {
		snprintf(out, len, "no '%s' section\n", KEYS_HEADING);
		return 1;
	}
	names = table_names(sec);
	for (int i = 0; i < nr; i++) {
		int c = count_in(names, code[i]);

		if (c != 1) {
			snprintf(out + strlen(out), len - strlen(out),
				 c ? "key %s has %d rows\n" :
				 "key %s is accepted but has no row\n",
				 code[i], c);
			bad++;
		}
	}
	for (const char *l = names; *l; l = strchr(l, '\n') + 1) {
		int n = (int)strcspn(l, "\n"), i;

		for (i = 0; i < nr; i++)
			if ((int)strlen(code[i]) == n && !strncmp(code[i], l, n))
				break;
		if (i == nr) {
			snprintf(out + strlen(out), len - strlen(out),
				 "row %.*s is not a key the code accepts\n", n, l);
			bad++;
		}
	}
	free(names);
	free(sec);
	return bad;
}

/*
 * check_exit_table - the EXIT_HEADING table of @doc has one row per exit
 * status 0 to @nr - 1 ("| N | ..."), and no other.  Writes findings into
 * @out.  Return: the findings.
 */
static int check_exit_table(const char *doc, int nr, char *out, size_t len)
{
	char *sec = section(doc, EXIT_HEADING), want[16];
	int bad = 0, rows = 0;

	out[0] = '\0';
	if (!sec) {
		snprintf(out, len, "no '%s' section\n", EXIT_HEADING);
		return 1;
	}
	for (int i = 0; i < nr; i++) {
		snprintf(want, sizeof(want), "\n| %d |", i);
		if (!strstr(sec, want)) {
			snprintf(out + strlen(out), len - strlen(out),
				 "exit status %d has no row\n", i);
			bad++;
		}
	}
	for (const char *l = strstr(sec, "\n| "); l; l = strstr(l + 1, "\n| "))
		if (l[3] >= '0' && l[3] <= '9')
			rows++;
	if (rows != nr) {
		snprintf(out + strlen(out), len - strlen(out),
			 "%d status rows for %d statuses\n", rows, nr);
		bad++;
	}
	free(sec);
	return bad;
}

/* ---- docs/usage.md ---------------------------------------------------- */

START_TEST(test_usage_key_table_is_the_code_key_table)
{
	const char *keys[MAX_KEYS];
	char *doc = slurp(USAGE_MD, NULL), out[8192];
	int nr = code_keys(keys), bad;

	ck_assert_int_gt(nr, 30);
	bad = check_key_table(doc, keys, nr, out, sizeof(out));
	ck_assert_msg(bad == 0, "%s: %d findings:\n%s", USAGE_MD, bad, out);
	free(doc);
}
END_TEST

START_TEST(test_usage_lists_every_exit_status)
{
	char *doc = slurp(USAGE_MD, NULL), out[1024];
	int bad = check_exit_table(doc, SIM_EXIT_NR, out, sizeof(out));

	ck_assert_msg(bad == 0, "%s: %d findings:\n%s", USAGE_MD, bad, out);
	free(doc);
}
END_TEST

/* ---- the negative controls ---------------------------------------------- */

/* A made-up page: a key table with a row per name of @names (NULL-
 * terminated), a section after it whose table must not count. */
static char *fake_doc(const char *const *names)
{
	size_t len = 4096;
	char *d = malloc(len);

	ck_assert_ptr_nonnull(d);
	snprintf(d, len, "# Page\n\n" KEYS_HEADING "\n\n| key | values |\n|---|---|\n");
	for (; *names; names++)
		snprintf(d + strlen(d), len - strlen(d),
			 "| `%s` | `none` or `%s` |\n", *names, "x");
	snprintf(d + strlen(d), len - strlen(d),
		 "\n" EXIT_HEADING "\n\n| status | meaning |\n|---|---|\n"
		 "| 0 | ok |\n| 1 | host |\n| 3 | failure |\n"
		 "\n## Later\n\n| `not-a-key` | ignored |\n");
	return d;
}

START_TEST(test_the_checkers_report_a_missing_an_extra_and_a_doubled_row)
{
	static const char *const code[] = { "machine", "cpus", "narrate" };
	char out[1024], *d;
	int bad;

	/* all three, the later section's row not counted: clean */
	d = fake_doc((const char *const[]){ "machine", "cpus", "narrate", NULL });
	bad = check_key_table(d, code, 3, out, sizeof(out));
	ck_assert_msg(bad == 0, "%s", out);
	free(d);

	/* narrate left out, an unknown key added, cpus twice */
	d = fake_doc((const char *const[]){ "machine", "cpus", "cpus",
					    "no-such-key", NULL });
	bad = check_key_table(d, code, 3, out, sizeof(out));
	ck_assert_int_eq(bad, 3);
	ck_assert_msg(strstr(out, "key narrate is accepted but has no row"), "%s", out);
	ck_assert_msg(strstr(out, "row no-such-key is not a key the code accepts"),
		      "%s", out);
	ck_assert_msg(strstr(out, "key cpus has 2 rows"), "%s", out);
	ck_assert_msg(!strstr(out, "not-a-key"), "%s", out);

	/* the exit table above lacks 2 and has three rows for four statuses */
	bad = check_exit_table(d, 4, out, sizeof(out));
	ck_assert_int_eq(bad, 2);
	ck_assert_msg(strstr(out, "exit status 2 has no row"), "%s", out);
	ck_assert_msg(strstr(out, "3 status rows for 4 statuses"), "%s", out);
	ck_assert_int_eq(check_exit_table(d, 2, out, sizeof(out)), 1);
	free(d);

	/* no section at all */
	ck_assert_int_eq(check_key_table("# Page\n\n## Scenario keyset\n", code,
					 3, out, sizeof(out)), 1);
	ck_assert_msg(strstr(out, "no '" KEYS_HEADING "' section"), "%s", out);
}
END_TEST

/* The real table, one key dropped from the code's side and one from the
 * page's: each side's extra is reported. */
START_TEST(test_the_real_table_with_a_key_taken_out_is_caught)
{
	const char *keys[MAX_KEYS];
	char *doc = slurp(USAGE_MD, NULL), out[8192], *row;
	int nr = code_keys(keys), bad;

	/* the code without its last key: the page has a row too many */
	bad = check_key_table(doc, keys, nr - 1, out, sizeof(out));
	ck_assert_int_eq(bad, 1);
	ck_assert_msg(strstr(out, keys[nr - 1]) && strstr(out, "is not a key"),
		      "%s", out);

	/* the page without the row of `seed`: the code has a key too many */
	row = strstr(doc, "\n| `seed` |");
	ck_assert_ptr_nonnull(row);
	memcpy(row + 4, "xeed", 4);	/* now a row of an unknown key */
	bad = check_key_table(doc, keys, nr, out, sizeof(out));
	ck_assert_int_eq(bad, 2);
	ck_assert_msg(strstr(out, "key seed is accepted but has no row"), "%s", out);
	ck_assert_msg(strstr(out, "row xeed is not a key"), "%s", out);
	free(doc);
}
END_TEST

Suite *docs_suite(void)
{
	return one_case_suite("docs", 0, (const TTest *const[]){
		test_usage_key_table_is_the_code_key_table,
		test_usage_lists_every_exit_status,
		test_the_checkers_report_a_missing_an_extra_and_a_doubled_row,
		test_the_real_table_with_a_key_taken_out_is_caught,
		NULL,
	});
}
