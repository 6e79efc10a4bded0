/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/futexsim_atomic.h - a user program's atomics as
 * scheduling points of the simulated machine.
 *
 * Stage: user program -> machine (sim_hook()).  Included by
 * workloads/libsim/futexsim.h, i.e. force-included into the program.
 * Each GCC __atomic and __sync builtin is redefined as a macro that first
 * reports the access to the machine, futexsim_atomic(ptr, size, kind),
 * then performs the builtin itself (a macro's own name is not expanded
 * again inside it), then tells what it did, futexsim_atomic_done(ptr,
 * size, op, ok), for the trace and the per-word figures
 * (workloads/libsim/atomic.c).  The report is what workloads/ulock/
 * uatomic.h does for the project's own locks: the access is charged by
 * the cache-line model, and the machine may switch to another CPU before
 * it happens.  gcc's <stdatomic.h> implements atomic_load(),
 * atomic_fetch_add() and the rest with these builtins, so C11 atomics
 * are covered too; operators on _Atomic objects (x++, x = 1) are not.
 *
 * The kinds are those of enum sim_access (sim/machine/hooks.h), checked
 * in workloads/libsim/atomic.c; the ops are those of the trace's atomic
 * events (sim/trace/uword.h).
 */
#ifndef FUTEXSIM_ATOMIC_H
#define FUTEXSIM_ATOMIC_H

#define FUTEXSIM_LOAD	0
#define FUTEXSIM_STORE	1
#define FUTEXSIM_RMW	2
#define FUTEXSIM_RELAX	3
#define FUTEXSIM_FENCE	4

/* futexsim_atomic - the running task is about to access @size bytes at
 * @p (@kind: FUTEXSIM_*); a scheduling point.  Outside a simulated task
 * it does nothing. */
void futexsim_atomic(const volatile void *p, unsigned int size, int kind);

/* What a builtin did (FUTEXSIM_OP_CMPXCHG: @ok says if it swapped). */
#define FUTEXSIM_OP_LOAD		0
#define FUTEXSIM_OP_STORE		1
#define FUTEXSIM_OP_XCHG		2
#define FUTEXSIM_OP_CMPXCHG		3
#define FUTEXSIM_OP_FETCH_ADD		4
#define FUTEXSIM_OP_FETCH_SUB		5
#define FUTEXSIM_OP_FETCH_AND		6
#define FUTEXSIM_OP_FETCH_OR		7
#define FUTEXSIM_OP_FETCH_XOR		8
#define FUTEXSIM_OP_FETCH_NAND		9
#define FUTEXSIM_OP_ADD_FETCH		10
#define FUTEXSIM_OP_SUB_FETCH		11
#define FUTEXSIM_OP_AND_FETCH		12
#define FUTEXSIM_OP_OR_FETCH		13
#define FUTEXSIM_OP_XOR_FETCH		14
#define FUTEXSIM_OP_NAND_FETCH		15
#define FUTEXSIM_OP_TEST_AND_SET	16
#define FUTEXSIM_OP_CLEAR		17

/* futexsim_atomic_done - the access futexsim_atomic() announced for @p
 * was @op (FUTEXSIM_OP_*; a compare-and-swap that swapped iff @ok).
 * Not a scheduling point: it reads the word, traces the access and
 * counts it (sim/trace/uword.h) and changes nothing simulated.  Outside
 * a simulated task it does nothing. */
void futexsim_atomic_done(const volatile void *p, unsigned int size, int op,
			  int ok);

#ifndef FUTEXSIM_NO_RENAME	/* the layer's own files keep the builtins */

/* A builtin with a value (R), without one (V), a compare-and-swap that
 * returns whether it succeeded (C), __sync_val_compare_and_swap (S). */
#define FUTEXSIM__R(p, kind, op, call)					\
	__extension__ ({						\
		__auto_type _fs_p = (p);				\
		futexsim_atomic(_fs_p, sizeof(*_fs_p), (kind));		\
		__auto_type _fs_r = call;				\
		futexsim_atomic_done(_fs_p, sizeof(*_fs_p), (op), 1);	\
		_fs_r;							\
	})
#define FUTEXSIM__V(p, kind, op, call)					\
	__extension__ ({						\
		__auto_type _fs_p = (p);				\
		futexsim_atomic(_fs_p, sizeof(*_fs_p), (kind));		\
		call;							\
		futexsim_atomic_done(_fs_p, sizeof(*_fs_p), (op), 1);	\
	})
#define FUTEXSIM__C(p, call)						\
	__extension__ ({						\
		__auto_type _fs_p = (p);				\
		futexsim_atomic(_fs_p, sizeof(*_fs_p), FUTEXSIM_RMW);	\
		_Bool _fs_ok = call;					\
		futexsim_atomic_done(_fs_p, sizeof(*_fs_p),		\
				     FUTEXSIM_OP_CMPXCHG, _fs_ok);	\
		_fs_ok;							\
	})
#define FUTEXSIM__S(p, o, n)						\
	__extension__ ({						\
		__auto_type _fs_p = (p);				\
		futexsim_atomic(_fs_p, sizeof(*_fs_p), FUTEXSIM_RMW);	\
		__auto_type _fs_o = (o);				\
		__auto_type _fs_r = __sync_val_compare_and_swap(_fs_p,	\
							_fs_o, n);	\
		futexsim_atomic_done(_fs_p, sizeof(*_fs_p),		\
				     FUTEXSIM_OP_CMPXCHG, _fs_r == _fs_o); \
		_fs_r;							\
	})

#define __atomic_load_n(p, mo) \
	FUTEXSIM__R(p, FUTEXSIM_LOAD, FUTEXSIM_OP_LOAD, __atomic_load_n(_fs_p, mo))
#define __atomic_load(p, r, mo) \
	FUTEXSIM__V(p, FUTEXSIM_LOAD, FUTEXSIM_OP_LOAD, __atomic_load(_fs_p, r, mo))
#define __atomic_store_n(p, v, mo) \
	FUTEXSIM__V(p, FUTEXSIM_STORE, FUTEXSIM_OP_STORE, __atomic_store_n(_fs_p, v, mo))
#define __atomic_store(p, v, mo) \
	FUTEXSIM__V(p, FUTEXSIM_STORE, FUTEXSIM_OP_STORE, __atomic_store(_fs_p, v, mo))
#define __atomic_exchange_n(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_XCHG, __atomic_exchange_n(_fs_p, v, mo))
#define __atomic_exchange(p, v, r, mo) \
	FUTEXSIM__V(p, FUTEXSIM_RMW, FUTEXSIM_OP_XCHG, __atomic_exchange(_fs_p, v, r, mo))
#define __atomic_compare_exchange_n(p, e, d, w, s, f) \
	FUTEXSIM__C(p, __atomic_compare_exchange_n(_fs_p, e, d, w, s, f))
#define __atomic_compare_exchange(p, e, d, w, s, f) \
	FUTEXSIM__C(p, __atomic_compare_exchange(_fs_p, e, d, w, s, f))
#define __atomic_fetch_add(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_ADD, __atomic_fetch_add(_fs_p, v, mo))
#define __atomic_fetch_sub(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_SUB, __atomic_fetch_sub(_fs_p, v, mo))
#define __atomic_fetch_and(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_AND, __atomic_fetch_and(_fs_p, v, mo))
#define __atomic_fetch_or(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_OR, __atomic_fetch_or(_fs_p, v, mo))
#define __atomic_fetch_xor(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_XOR, __atomic_fetch_xor(_fs_p, v, mo))
#define __atomic_fetch_nand(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_NAND, __atomic_fetch_nand(_fs_p, v, mo))
#define __atomic_add_fetch(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_ADD_FETCH, __atomic_add_fetch(_fs_p, v, mo))
#define __atomic_sub_fetch(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_SUB_FETCH, __atomic_sub_fetch(_fs_p, v, mo))
#define __atomic_and_fetch(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_AND_FETCH, __atomic_and_fetch(_fs_p, v, mo))
#define __atomic_or_fetch(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_OR_FETCH, __atomic_or_fetch(_fs_p, v, mo))
#define __atomic_xor_fetch(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_XOR_FETCH, __atomic_xor_fetch(_fs_p, v, mo))
#define __atomic_nand_fetch(p, v, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_NAND_FETCH, __atomic_nand_fetch(_fs_p, v, mo))
#define __atomic_test_and_set(p, mo) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_TEST_AND_SET, __atomic_test_and_set(_fs_p, mo))
#define __atomic_clear(p, mo) \
	FUTEXSIM__V(p, FUTEXSIM_STORE, FUTEXSIM_OP_CLEAR, __atomic_clear(_fs_p, mo))
#define __sync_fetch_and_add(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_ADD, __sync_fetch_and_add(_fs_p, v))
#define __sync_fetch_and_sub(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_SUB, __sync_fetch_and_sub(_fs_p, v))
#define __sync_fetch_and_or(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_OR, __sync_fetch_and_or(_fs_p, v))
#define __sync_fetch_and_and(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_AND, __sync_fetch_and_and(_fs_p, v))
#define __sync_fetch_and_xor(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_XOR, __sync_fetch_and_xor(_fs_p, v))
#define __sync_fetch_and_nand(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_FETCH_NAND, __sync_fetch_and_nand(_fs_p, v))
#define __sync_add_and_fetch(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_ADD_FETCH, __sync_add_and_fetch(_fs_p, v))
#define __sync_sub_and_fetch(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_SUB_FETCH, __sync_sub_and_fetch(_fs_p, v))
#define __sync_or_and_fetch(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_OR_FETCH, __sync_or_and_fetch(_fs_p, v))
#define __sync_and_and_fetch(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_AND_FETCH, __sync_and_and_fetch(_fs_p, v))
#define __sync_xor_and_fetch(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_XOR_FETCH, __sync_xor_and_fetch(_fs_p, v))
#define __sync_nand_and_fetch(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_NAND_FETCH, __sync_nand_and_fetch(_fs_p, v))
#define __sync_bool_compare_and_swap(p, o, n) \
	FUTEXSIM__C(p, __sync_bool_compare_and_swap(_fs_p, o, n))
#define __sync_val_compare_and_swap(p, o, n) FUTEXSIM__S(p, o, n)
#define __sync_lock_test_and_set(p, v) \
	FUTEXSIM__R(p, FUTEXSIM_RMW, FUTEXSIM_OP_XCHG, __sync_lock_test_and_set(_fs_p, v))
#define __sync_lock_release(p) \
	FUTEXSIM__V(p, FUTEXSIM_STORE, FUTEXSIM_OP_CLEAR, __sync_lock_release(_fs_p))
#define __atomic_thread_fence(mo) \
	(futexsim_atomic(0, 0, FUTEXSIM_FENCE), __atomic_thread_fence(mo))
#define __sync_synchronize() \
	(futexsim_atomic(0, 0, FUTEXSIM_FENCE), __sync_synchronize())

/* PAUSE in a spin loop (x86 cpu_relax()): a RELAX scheduling point. */
#define __builtin_ia32_pause() futexsim_atomic(0, 0, FUTEXSIM_RELAX)

#endif /* FUTEXSIM_NO_RENAME */

#endif /* FUTEXSIM_ATOMIC_H */
