/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/glibc/include/libc-diag.h - glibc's warning-suppression macros
 * as a test built outside glibc sees them: gcc's diagnostic pragmas.
 *
 * Stage: tests (the glibc harness).
 */
#ifndef TST_LIBC_DIAG_H
#define TST_LIBC_DIAG_H
#define TST_DIAG_PRAGMA(x)		_Pragma(#x)
#define DIAG_PUSH_NEEDS_COMMENT		TST_DIAG_PRAGMA(GCC diagnostic push)
#define DIAG_POP_NEEDS_COMMENT		TST_DIAG_PRAGMA(GCC diagnostic pop)
#define DIAG_IGNORE_NEEDS_COMMENT(ver, opt) \
	TST_DIAG_PRAGMA(GCC diagnostic ignored opt)
#define DIAG_IGNORE_Os_NEEDS_COMMENT(ver, opt)
#endif
