/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_config.c - suite "config": the "key = value" file parser,
 * the one-line error of sim_config_fail() and the value parsers of
 * sim/scenario/config.c (sizes, durations, booleans, duration formatting).
 *
 * Stage: CLI input, unit level.  Run by tests/check_main.c; failing calls
 * run in a child (tests/run_child.h) so their exit status and their single
 * stderr line can be checked.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/scenario/config.h"
#include "tests/run_child.h"

static struct child_out co;

/* Write @text to a fresh temporary file; its name goes to @path. */
static void write_temp(char path[64], const char *text)
{
	int fd;

	strcpy(path, "/tmp/futexsim-config-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* ---- sizes ------------------------------------------------------------- */

START_TEST(test_parse_u64_reads_plain_and_suffixed_counts)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "0", 0 }, { "123", 123 }, { "1k", 1000 }, { "1K", 1000 },
		{ "10M", 10000000 }, { "3G", 3000000000ULL },
		{ "2.5M", 2500000 }, { "1.000k", 1000 }, { "007", 7 },
		{ "18446744073709551615", UINT64_MAX },
	};
	uint64_t v;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 12345;
		ck_assert_msg(sim_parse_u64(ok[i].s, &v) == 0, "%s refused", ok[i].s);
		ck_assert_msg(v == ok[i].v, "%s read as %llu", ok[i].s,
			      (unsigned long long)v);
	}
}
END_TEST

START_TEST(test_parse_u64_refuses_junk_signs_fractions_and_overflow)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "1x", "k", "M", "1.5", "1.0001k",
		"0x10", "1e3", "18446744073709551616", "18446744073709552G",
		"99999999999999999999999", ".", "1..2", "10MM", "1,000",
	};
	uint64_t v = 77;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(sim_parse_u64(bad[i], &v) == -1, "'%s' accepted",
			      bad[i]);
	ck_assert_uint_eq(v, 77);	/* untouched on failure */
}
END_TEST

/* ---- durations --------------------------------------------------------- */

START_TEST(test_parse_duration_gives_picoseconds_for_every_unit)
{
	static const struct { const char *s; uint64_t ps; } ok[] = {
		{ "5s", 5000000000000ULL }, { "20ms", 20000000000ULL },
		{ "3us", 3000000 }, { "7ns", 7000 }, { "1.7ns", 1700 },
		{ "0.5ns", 500 }, { ".5ns", 500 }, { "0.001ns", 1 },
		{ "1.25us", 1250000 }, { "2.25ms", 2250000000ULL },
		{ "0ns", 0 }, { "18446744s", 18446744000000000000ULL },
	};
	uint64_t ps;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ps = 1;
		ck_assert_msg(sim_parse_duration_ps(ok[i].s, &ps) == 0,
			      "%s refused", ok[i].s);
		ck_assert_msg(ps == ok[i].ps, "%s read as %llu ps", ok[i].s,
			      (unsigned long long)ps);
	}
}
END_TEST

START_TEST(test_parse_duration_refuses_missing_unit_negative_overflow_junk)
{
	static const char *const bad[] = {
		"5", "0", "1.7", "-5ns", "+5ns", "5 ns", " 5ns", "5ns ", "ns",
		"5sec", "5S", "5Ms", "5m", "5ps", "5h", "1.2.3ns", "1e3ns",
		"0.0001ns",		/* finer than a picosecond	*/
		"18446745s",		/* > 2^64 ps			*/
		"99999999999999999999ns", "5ns5", "", ".ns",
	};
	uint64_t ps = 77;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(sim_parse_duration_ps(bad[i], &ps) == -1,
			      "'%s' accepted", bad[i]);
	ck_assert_uint_eq(ps, 77);
}
END_TEST

START_TEST(test_format_duration_is_exact_and_reads_back)
{
	static const struct { uint64_t ps; const char *s; } known[] = {
		{ 0, "0ns" }, { 1, "0.001ns" }, { 500, "0.5ns" },
		{ 1700, "1.7ns" }, { 7000, "7ns" }, { 1500000, "1.5us" },
		{ 20000000000ULL, "20ms" }, { 2250000000ULL, "2.25ms" },
		{ 5000000000000ULL, "5s" }, { 5000000000001ULL, "5.000000000001s" },
	};
	static const uint64_t more[] = {
		999, 1000, 1001, 123456789, 1000000000000ULL, UINT64_MAX,
		UINT64_MAX - 1, 4294967296ULL,
	};
	char buf[48];
	uint64_t ps;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		ck_assert_str_eq(sim_format_duration_ps(known[i].ps, buf,
							sizeof(buf)), known[i].s);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
		sim_format_duration_ps(more[i], buf, sizeof(buf));
		ck_assert_msg(sim_parse_duration_ps(buf, &ps) == 0 && ps == more[i],
			      "%llu ps -> %s does not read back",
			      (unsigned long long)more[i], buf);
	}
}
END_TEST

START_TEST(test_parse_bool_reads_the_documented_words)
{
	static const char *const yes[] = { "yes", "1", "true", "on", "YES" };
	static const char *const no[] = { "no", "0", "false", "off", "Off" };
	int b;

	for (int i = 0; i < 5; i++) {
		b = 0;
		ck_assert_int_eq(sim_parse_bool(yes[i], &b), 0);
		ck_assert_int_eq(b, 1);
		ck_assert_int_eq(sim_parse_bool(no[i], &b), 0);
		ck_assert_int_eq(b, 0);
	}
	ck_assert_int_eq(sim_parse_bool("maybe", &b), -1);
	ck_assert_int_eq(sim_parse_bool("", &b), -1);
	ck_assert_int_eq(sim_parse_bool("2", &b), -1);
}
END_TEST

/* ---- the file parser --------------------------------------------------- */

struct seen {
	int n;
	char key[16][32], value[16][64];
	int line[16];
	const char *file;
};

static void collect(void *ctx, const char *key, const char *value,
		    const struct sim_origin *at)
{
	struct seen *s = ctx;

	ck_assert_int_lt(s->n, 16);
	snprintf(s->key[s->n], 32, "%s", key);
	snprintf(s->value[s->n], 64, "%s", value);
	s->line[s->n] = at->line;
	s->file = at->file;
	s->n++;
}

START_TEST(test_config_each_reads_pairs_in_order_with_their_lines)
{
	char path[64];
	struct seen s = { 0 };

	write_temp(path,
		   "# a comment\n"
		   "\n"
		   "machine = tiny4\n"
		   "   threads=8   \n"
		   "\t# indented comment\n"
		   "cs = pause:5   # trailing comment\n"
		   "json = out#1.json\n"
		   "x-2 = a = b\r\n"
		   "empty =\n"
		   "last = no newline");
	sim_config_each(path, collect, &s);
	unlink(path);
	ck_assert_int_eq(s.n, 7);
	ck_assert_str_eq(s.file, path);
	ck_assert_str_eq(s.key[0], "machine");
	ck_assert_str_eq(s.value[0], "tiny4");
	ck_assert_int_eq(s.line[0], 3);
	ck_assert_str_eq(s.key[1], "threads");
	ck_assert_str_eq(s.value[1], "8");
	ck_assert_int_eq(s.line[1], 4);
	ck_assert_str_eq(s.value[2], "pause:5");
	ck_assert_int_eq(s.line[2], 6);
	ck_assert_str_eq(s.value[3], "out#1.json");	/* no blank before # */
	ck_assert_str_eq(s.key[4], "x-2");
	ck_assert_str_eq(s.value[4], "a = b");		/* first '=' splits, CR trimmed */
	ck_assert_str_eq(s.value[5], "");
	ck_assert_int_eq(s.line[5], 9);
	ck_assert_str_eq(s.value[6], "no newline");
	ck_assert_int_eq(s.line[6], 10);
}
END_TEST

static void ignore(void *ctx, const char *key, const char *value,
		   const struct sim_origin *at)
{
}

static const char *fail_path;

static void each_fail_path(void *arg)
{
	sim_config_each(fail_path, ignore, NULL);
}

START_TEST(test_config_missing_file_is_one_line_naming_it_exit_2)
{
	fail_path = "/nonexistent/futexsim/x.scn";
	run_child(each_fail_path, NULL, &co);
	assert_one_line_error(&co, "command line", "/nonexistent/futexsim/x.scn",
			      "No such file");
	ck_assert_str_eq(co.out, "");
}
END_TEST

START_TEST(test_config_malformed_line_names_file_and_line)
{
	char path[64], want[128];

	write_temp(path, "# ok\nseed = 1\nthis line has no equals sign\n");
	fail_path = path;
	run_child(each_fail_path, NULL, &co);
	unlink(path);
	snprintf(want, sizeof(want), "%s:3: ", path);
	assert_one_line_error(&co, want, "key = value",
			      "'this line has no equals sign'");
}
END_TEST

START_TEST(test_config_bad_key_characters_name_the_key)
{
	char path[64], want[128];

	write_temp(path, "Threads = 4\n");
	fail_path = path;
	run_child(each_fail_path, NULL, &co);
	unlink(path);
	snprintf(want, sizeof(want), "%s:1: Threads: expected a key", path);
	assert_one_line_error(&co, want);

	write_temp(path, "\n\n = 4\n");
	run_child(each_fail_path, NULL, &co);
	unlink(path);
	snprintf(want, sizeof(want), "%s:3: expected a key", path);
	assert_one_line_error(&co, want);
}
END_TEST

/* Reading a directory fails at the first read, not at fopen(). */
START_TEST(test_config_unreadable_file_is_one_line)
{
	fail_path = "/tmp";
	run_child(each_fail_path, NULL, &co);
	assert_one_line_error(&co, "'/tmp'", "readable");
}
END_TEST

/* ---- sim_config_fail --------------------------------------------------- */

static const struct sim_origin *fail_at;
static const char *fail_key, *fail_value;

static void do_fail(void *arg)
{
	sim_config_fail(fail_at, fail_key, arg, fail_value);
}

START_TEST(test_config_fail_formats_file_line_key_expected_got)
{
	static const struct sim_origin at = { .file = "scen.scn", .line = 3 };

	fail_at = &at;
	fail_key = "cs";
	fail_value = "pause:x";
	run_child(do_fail, "pause:N, sleep:DURATION or none", &co);
	ck_assert_int_eq(co.status, 2);
	ck_assert_str_eq(co.err, "futexsim: scen.scn:3: cs: expected pause:N, "
			 "sleep:DURATION or none, got 'pause:x'\n");
	ck_assert_str_eq(co.out, "");
}
END_TEST

START_TEST(test_config_fail_formats_the_command_line_with_dashes)
{
	static const struct sim_origin at = { .file = "command line" };

	fail_at = &at;
	fail_key = "threads";
	fail_value = "abc";
	run_child(do_fail, "a positive integer", &co);
	ck_assert_int_eq(co.status, 2);
	ck_assert_str_eq(co.err, "futexsim: command line: --threads: expected "
			 "a positive integer, got 'abc'\n");
	fail_at = NULL;		/* NULL means the command line too */
	fail_value = NULL;
	run_child(do_fail, "a positive integer", &co);
	ck_assert_str_eq(co.err, "futexsim: command line: --threads: expected "
			 "a positive integer\n");
}
END_TEST

START_TEST(test_config_fail_keeps_hostile_values_on_one_line)
{
	static const struct sim_origin at = { .file = "a.machine", .line = 0 };

	fail_at = &at;
	fail_key = NULL;
	fail_value = "two\nlines\r\x1b[31m\xc2\x9b\xff caf\xc3\xa9";
	run_child(do_fail, "something", &co);
	ck_assert_str_eq(co.err, "futexsim: a.machine: expected something, "
			 "got 'two\\x0alines\\x0d\\x1b[31m\\xc2\\x9b\\xff caf\xc3\xa9'\n");
}
END_TEST

/* A key with an escape sequence is shown escaped too, and so is the file. */
START_TEST(test_config_fail_escapes_keys_and_file_names)
{
	static const struct sim_origin at = { .file = "a\x1b]0;x\x07.scn",
					      .line = 3 };

	fail_at = &at;
	fail_key = "lo\x1b[2Jck";
	fail_value = NULL;
	run_child(do_fail, "a key", &co);
	ck_assert_int_eq(co.status, 2);
	ck_assert_str_eq(co.err, "futexsim: a\\x1b]0;x\\x07.scn:3: "
			 "lo\\x1b[2Jck: expected a key\n");
}
END_TEST

/* A huge value is cut: the line stays short. */
START_TEST(test_config_fail_cuts_a_long_value)
{
	static char big[100000];

	memset(big, 'v', sizeof(big) - 1);
	fail_at = NULL;
	fail_key = "args";
	fail_value = big;
	run_child(do_fail, "x", &co);
	ck_assert_int_eq(co.status, 2);
	ck_assert_int_lt(strlen(co.err), 300);
	ck_assert_ptr_nonnull(strstr(co.err, "vvv...'\n"));
}
END_TEST

/* ---- bounds and escapes of the file syntax ----------------------------- */

START_TEST(test_config_refuses_an_overlong_line_with_a_cut_excerpt)
{
	char path[64], want[128];
	static char text[SIM_CONFIG_LINE_MAX + 100];

	memcpy(text, "seed = 1\nargs = ", 16);
	memset(text + 16, 'a', sizeof(text) - 18);
	text[sizeof(text) - 2] = '\n';
	write_temp(path, text);
	fail_path = path;
	run_child(each_fail_path, NULL, &co);
	unlink(path);
	snprintf(want, sizeof(want), "%s:2: expected a line of at most 65536 bytes",
		 path);
	assert_one_line_error(&co, want, "got 'args = aaa", "...'");
	ck_assert_int_lt(strlen(co.err), 400);

	/* exactly the limit is a line */
	memset(text, 0, sizeof(text));
	memcpy(text, "args = ", 7);
	memset(text + 7, 'b', SIM_CONFIG_LINE_MAX - 7);
	text[SIM_CONFIG_LINE_MAX] = '\n';
	write_temp(path, text);
	{
		struct seen s = { 0 };

		sim_config_each(path, collect, &s);
		ck_assert_int_eq(s.n, 1);
	}
	unlink(path);
}
END_TEST

START_TEST(test_config_refuses_a_nul_byte)
{
	char path[64], want[128];
	FILE *f;

	strcpy(path, "/tmp/futexsim-config-nul");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fwrite("seed = 1\nops = 1\0002\n", 1, 19, f);
	fclose(f);
	fail_path = path;
	run_child(each_fail_path, NULL, &co);
	unlink(path);
	snprintf(want, sizeof(want), "%s:2: expected a text file", path);
	assert_one_line_error(&co, want, "NUL");

	fail_path = "/dev/zero";		/* an endless line of NULs */
	run_child(each_fail_path, NULL, &co);
	assert_one_line_error(&co, "/dev/zero:1: expected a text file");
}
END_TEST

START_TEST(test_config_value_escapes_read_back)
{
	static const char *const vals[] = {
		"#r.json", "a #b", "a\\#b", "a\\\\#b", "\\", "x\\", "a\\b",
		"a\\\\b", "#", "##  #", "caf\xc3\xa9 # \\#",
	};
	char path[64];

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		struct seen s = { 0 };
		char *text = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&text, &len);

		fputs("k = ", m);
		sim_config_put_value(m, vals[i]);
		fputs("\n", m);
		fclose(m);
		write_temp(path, text);
		sim_config_each(path, collect, &s);
		unlink(path);
		ck_assert_int_eq(s.n, 1);
		ck_assert_msg(!strcmp(s.value[0], vals[i]),
			      "'%s' written as '%s' read back as '%s'", vals[i],
			      text, s.value[0]);
		free(text);
	}
	/* a file's own escapes */
	{
		struct seen s = { 0 };

		write_temp(path, "a = x \\# y # comment\nb = \\\\# c\nc = p\\q\n");
		sim_config_each(path, collect, &s);
		unlink(path);
		ck_assert_int_eq(s.n, 3);
		ck_assert_str_eq(s.value[0], "x # y");
		ck_assert_str_eq(s.value[1], "\\# c");
		ck_assert_str_eq(s.value[2], "p\\q");
	}
}
END_TEST

START_TEST(test_config_clean_refuses_controls_and_broken_utf8)
{
	ck_assert(sim_config_clean("plain text, tabs\tok, caf\xc3\xa9"));
	ck_assert(!sim_config_clean("new\nline"));
	ck_assert(!sim_config_clean("esc\x1b[2J"));
	ck_assert(!sim_config_clean("del\x7f"));
	ck_assert(!sim_config_clean("c1 \xc2\x9b"));
	ck_assert(!sim_config_clean("broken \xc3"));
	ck_assert(!sim_config_clean("overlong \xc0\xaf"));
}
END_TEST

Suite *config_suite(void)
{
	return one_case_suite("config", 0, (const TTest *const[]){
		test_parse_u64_reads_plain_and_suffixed_counts,
		test_parse_u64_refuses_junk_signs_fractions_and_overflow,
		test_parse_duration_gives_picoseconds_for_every_unit,
		test_parse_duration_refuses_missing_unit_negative_overflow_junk,
		test_format_duration_is_exact_and_reads_back,
		test_parse_bool_reads_the_documented_words,
		test_config_each_reads_pairs_in_order_with_their_lines,
		test_config_missing_file_is_one_line_naming_it_exit_2,
		test_config_malformed_line_names_file_and_line,
		test_config_bad_key_characters_name_the_key,
		test_config_unreadable_file_is_one_line,
		test_config_fail_formats_file_line_key_expected_got,
		test_config_fail_formats_the_command_line_with_dashes,
		test_config_fail_keeps_hostile_values_on_one_line,
		test_config_fail_escapes_keys_and_file_names,
		test_config_fail_cuts_a_long_value,
		test_config_refuses_an_overlong_line_with_a_cut_excerpt,
		test_config_refuses_a_nul_byte,
		test_config_value_escapes_read_back,
		test_config_clean_refuses_controls_and_broken_utf8,
		NULL });
}
