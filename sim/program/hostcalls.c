/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/program/hostcalls.c - the allow list of `futexsim build`: the libc,
 * libm and libgcc symbols a program's objects may keep, and the
 * instructions they may not contain (see sim/program/hostcalls.h).
 *
 * Stage: CLI, before the flow.  Called by sim/program/build.c; calls
 * libc's string functions only.
 *
 * What is on the list touches no host state: it computes from its
 * arguments (and, for strtol() and friends, errno; for ctype, the "C"
 * locale's tables).  Left off on purpose: whatever reads or writes a
 * file, a stream other than the simulated stdout and stderr, the
 * environment, the host clock or the host's randomness; whatever
 * allocates host memory (its addresses would differ from run to run;
 * libsim has arena forms of strdup() and asprintf()); setjmp()/longjmp()
 * (they would jump between tasks' stacks).  docs/programs.md, "What
 * is refused", lists the outcome of the common host calls.
 */
#include <string.h>

#include "sim/program/hostcalls.h"

static const char *const allowed[] = {
	/* string.h, strings.h */
	"memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr",
	"memmem", "mempcpy", "memccpy", "rawmemchr", "bcmp", "bcopy",
	"bzero", "explicit_bzero", "strlen", "strnlen", "strcpy", "strncpy",
	"stpcpy", "stpncpy", "strcat", "strncat", "strlcpy", "strlcat",
	"strcmp", "strncmp", "strcasecmp", "strncasecmp", "strverscmp",
	"strchr", "strrchr", "strchrnul", "strstr", "strcasestr", "strspn",
	"strcspn", "strpbrk", "strtok", "strtok_r", "strsep", "index",
	"rindex", "ffs", "ffsl", "ffsll", "strerror", "strerror_r",
	"__xpg_strerror_r", "basename", "__xpg_basename", "dirname",
	/* stdlib.h: conversions, sorting, arithmetic */
	"strtol", "strtoll", "strtoul", "strtoull", "strtoq", "strtouq",
	"strtod", "strtof", "strtold", "strtoimax", "strtoumax",
	"__isoc23_strtol", "__isoc23_strtoll", "__isoc23_strtoul",
	"__isoc23_strtoull", "__isoc23_strtoimax", "__isoc23_strtoumax",
	"atoi", "atol", "atoll", "atof", "qsort", "qsort_r", "bsearch",
	"lfind", "lsearch", "abs", "labs", "llabs", "imaxabs", "div", "ldiv",
	"lldiv", "imaxdiv", "rand_r", "erand48", "nrand48", "jrand48",
	/* formatting into a buffer, scanning a string */
	"snprintf", "sprintf", "vsnprintf", "vsprintf", "sscanf", "vsscanf",
	"__isoc99_sscanf", "__isoc99_vsscanf", "__isoc23_sscanf",
	"__isoc23_vsscanf",
	/* ctype.h */
	"__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc",
	"tolower", "toupper", "isalnum", "isalpha", "isascii", "isblank",
	"iscntrl", "isdigit", "isgraph", "islower", "isprint", "ispunct",
	"isspace", "isupper", "isxdigit", "toascii",
	/* getopt() over the program's argv; signal sets (no signal) */
	"getopt", "getopt_long", "getopt_long_only", "optarg", "optind",
	"opterr", "optopt", "sigemptyset", "sigfillset", "sigaddset",
	"sigdelset", "sigismember",
	/* the compiler's and the C library's plumbing; __sigsetjmp (the
	 * context save of pthread_cleanup_push()) is linked to the layer's
	 * futexsim___sigsetjmp_cancel(), which saves no signal mask */
	"__sigsetjmp", "__stack_chk_fail", "__errno_location", "_GLOBAL_OFFSET_TABLE_",
	"stdout", "stderr",
	NULL
};

/* libm: each also with its f and l suffixes (sqrtf, sqrtl). */
static const char *const math[] = {
	"sqrt", "cbrt", "hypot", "pow", "exp", "exp2", "expm1", "exp10",
	"log", "log2", "log10", "log1p", "logb", "ilogb", "sin", "cos",
	"tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
	"asinh", "acosh", "atanh", "sincos", "floor", "ceil", "round",
	"lround", "llround", "trunc", "rint", "lrint", "llrint", "nearbyint",
	"fmod", "remainder", "remquo", "fabs", "fmin", "fmax", "fdim", "fma",
	"frexp", "ldexp", "scalbn", "scalbln", "modf", "copysign", "nan",
	"nextafter", "erf", "erfc", "lgamma", "tgamma", NULL
};

static int in(const char *const *list, const char *sym, size_t len)
{
	for (; *list; list++)
		if (strlen(*list) == len && !strncmp(*list, sym, len))
			return 1;
	return 0;
}

/* libgcc's helpers: __udivti3, __popcountdi2, __muldc3 ... */
static int libgcc(const char *sym)
{
	size_t n = strlen(sym), i = 2;

	if (n < 5 || strncmp(sym, "__", 2) != 0 || sym[n - 1] < '2' ||
	    sym[n - 1] > '4')
		return 0;
	while (i < n - 1 && sym[i] >= 'a' && sym[i] <= 'z')
		i++;
	return i == n - 1;
}

int sim_hostcall_allowed(const char *sym)
{
	size_t n = strlen(sym);

	/* the layer's, and the instrumentation's (workloads/libsim/instrument.c) */
	if (!strncmp(sym, "futexsim_", 9) || !strncmp(sym, "__tsan_", 7))
		return 1;
	if (in(allowed, sym, n) || in(math, sym, n) || libgcc(sym))
		return 1;
	return n > 1 && (sym[n - 1] == 'f' || sym[n - 1] == 'l') &&
	       in(math, sym, n - 1);
}

static const char *const insns[] = {
	"syscall", "sysenter", "rdtsc", "rdtscp", "rdrand", "rdseed",
	"rdpid", "cpuid", NULL
};

const char *sim_hostcall_insn(const char *insn)
{
	char word[32];
	const char *p = insn;

	/* each word before the operands' symbols (<...>) and comments */
	while (*p && *p != '<' && *p != '#') {
		size_t n = strcspn(p, " \t,<#");

		if (n && n < sizeof(word)) {
			memcpy(word, p, n);
			word[n] = '\0';
			for (int i = 0; insns[i]; i++)
				if (!strcmp(word, insns[i]))
					return insns[i];
			if (!strcmp(word, "int") && strstr(p, "$0x80"))
				return "int $0x80";
		}
		p += n ? n : 1;
	}
	return NULL;
}
