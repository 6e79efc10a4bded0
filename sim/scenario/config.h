/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/config.h - "key = value" text: scenario files, machine presets and
 * the command line's --key=value options, with the origin of every value.
 *
 * Stage: CLI input.  Used by sim/scenario/scenario.c and sim/scenario/preset.c.
 *
 * Error convention of the CLI layer: bad input is reported by
 * sim_config_fail() as ONE line on stderr naming the file, the line, the
 * key and what was expected, and the process exits with status 2.
 *
 * File syntax: one "key = value" per line of at most SIM_CONFIG_LINE_MAX
 * bytes (no NUL byte); blank lines and lines whose first non-blank
 * character is '#' are ignored; a '#' preceded by a blank starts a
 * trailing comment; keys are [a-z0-9-]+; values are trimmed, and in a
 * value "\#" stands for '#' and "\\" for '\' (any other backslash is
 * itself), so every value without control characters can be written
 * back (sim_config_put_value()) and re-read to itself.
 */
#ifndef SIM_CONFIG_H
#define SIM_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SIM_CONFIG_LINE_MAX	65536	/* bytes of one line, newline excluded */

/* Where a value came from: "FILE:LINE" or "command line (--key)". */
struct sim_origin {
	const char *file;	/* path, or "command line"		*/
	int line;		/* 1-based; 0 for the command line	*/
};

/* The callback of sim_config_each(): one key/value pair; @at->file is the
 * @path given to sim_config_each(), so it lives as long as that string. */
typedef void sim_config_fn(void *ctx, const char *key, const char *value,
			   const struct sim_origin *at);

/* sim_config_each - parse @path, calling @fn for every key/value pair in
 * file order. A missing/unreadable file or a malformed line fails (exit 2).
 * @fn reports its own errors through sim_config_fail().  An unreadable
 * file is blamed on the command line (the scenario file argument). */
void sim_config_each(const char *path, sim_config_fn *fn, void *ctx);
/* sim_config_read - sim_config_each() for a file named by key @key given
 * at @from (e.g. "machine = big.machine" at scen.scn:2): an unreadable
 * file is reported as a bad value of that key. */
void sim_config_read(const char *path, const struct sim_origin *from,
		     const char *key, sim_config_fn *fn, void *ctx);

/* sim_config_fail - the one-line bad-input error: prints
 *   futexsim: FILE:LINE: KEY: expected EXPECTED, got 'VALUE'
 * (or "futexsim: command line: --KEY: ..." ) and exits with status 2.
 * @value may be NULL (then the ", got" part is left out); @key may be NULL
 * (a malformed line has none); @at->line 0 with a file name gives
 * "futexsim: FILE: ..." (a check of the file as a whole).  The file, the
 * key and the value are shown cleaned and cut (sim_config_put_clean()),
 * so the message stays one short line, written with one write(2). */
void sim_config_fail(const struct sim_origin *at, const char *key,
		     const char *expected, const char *value)
	__attribute__((noreturn));

/* sim_config_fail_hook - NULL in futexsim and its tests.  A harness that
 * must survive bad input (the fuzz targets of tests/fuzz/) sets it to a
 * function that does not return (it longjmp()s back to the harness);
 * sim_config_fail() calls it after writing its line, in place of
 * exit(2).  A hook that returns gets the exit anyway. */
extern void (*sim_config_fail_hook)(void);

/* sim_config_split - one line of a "key = value" file, cut in place:
 * *@key and *@value point into @line, the value unescaped and without its
 * trailing comment.  A line that is not "key = value" fails at @at.
 * Return: 1 for a key/value line, 0 for a blank or comment line. */
int sim_config_split(char *line, const struct sim_origin *at, char **key,
		     char **value);

/* sim_config_put_value - write @v as a value of a "key = value" line that
 * sim_config_split() reads back as @v ('#' and the backslashes before '#'
 * or '\' escaped).  @v has no control characters (sim_config_clean()) and
 * no leading or trailing blank. */
void sim_config_put_value(FILE *out, const char *v);

/* sim_config_clean - is @v free of control characters (C0 but tab, DEL,
 * C1, broken UTF-8)?  Values with them are refused: a newline or an
 * escape sequence could not be written back to a file, nor shown. */
int sim_config_clean(const char *v);

/* sim_config_put_clean - @v for a human: control characters and broken
 * UTF-8 as \xHH, cut after @max characters with "...". */
void sim_config_put_clean(FILE *out, const char *v, size_t max);

/* sim_config_trim - cut @s's trailing blanks in place.  Return: its first
 * non-blank character. */
char *sim_config_trim(char *s);

/* Value parsers: return 0 on success, -1 if @s is not of the form. */
int sim_parse_u64(const char *s, uint64_t *out);		/* 123, 10M, 1k	*/
int sim_parse_duration_ps(const char *s, uint64_t *out_ps);	/* 5s 20ms 3us 7ns 1.7ns */
int sim_parse_bool(const char *s, int *out);			/* yes/no/1/0/true/false/on/off */

/* sim_format_duration_ps - @ps as the shortest exact duration string that
 * sim_parse_duration_ps() reads back ("5s", "20ms", "1.7ns", "0ns").
 * Return: @buf. */
const char *sim_format_duration_ps(uint64_t ps, char *buf, int len);

#endif /* SIM_CONFIG_H */
