/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/memmodel.h - the memory model of the stores of an
 * instrumented program and of the libraries (the built-in workloads'
 * user locks and the program's library, workloads/ulock/uatomic.h)
 * (scenario key memory=, docs/programs.md "Memory models"):
 *
 *   sc     every store visible to all CPUs at once (the default);
 *   tso    x86-TSO: per-CPU FIFO store buffers (Owens, Sarkar and
 *          Sewell, "A better x86 memory model: x86-TSO", TPHOLs 2009);
 *   arm64  per-CPU store buffers that drain in any order the ARMv8
 *          model allows for stores (Pulte, Flur, Deacon, French, Sarkar
 *          and Sewell, "Simplifying ARM concurrency: multicopy-atomic
 *          axiomatic and operational models for ARMv8", POPL 2018), of
 *          code compiled with the usual C11 mappings (plain and relaxed
 *          STR, release and seq_cst STLR, acquire and seq_cst loads
 *          LDAR, acquire fences DMB ISHLD, the others DMB ISH).
 *
 * Stage: machine.  Called by sim/machine/machine.c (every hook, every
 * change of the executing CPU), the program's instrumentation
 * (workloads/libsim/instrument.c: each plain or volatile store, each
 * atomic) and the syscall layer (sim/syscall/syscall.c).
 *
 * A buffered store goes into its CPU's buffer instead of memory: the
 * CPU's own loads see it (they read memory, and memory shows the
 * executing CPU's buffered stores over the values all CPUs see: an
 * "overlay" put on and taken off as CPUs take turns), the others do not
 * until it drains.
 *
 * Which store may drain.  tso: the oldest.  arm64: any store with no
 * older store of its CPU to a byte it covers (coherence), except a
 * release store, which waits until every older one has drained
 * (entry i may drain iff i = 0, or it is not a release and no older
 * entry overlaps it).
 *
 * arm64 loads may be satisfied early: when a store becomes visible, the
 * other CPUs running a task may go on reading its bytes as they were (a
 * view that lags, as an invalidation queue makes one), until the view
 * is refreshed: in timed mode SIM_STALE_LAG_PS after the store, under
 * explore by a draw; always at a full barrier (DMB ISH, and what drains
 * the buffer below), an acquire (LDAR, an acquire RMW, DMB ISHLD), and
 * for the bytes the CPU stores to or makes an RMW on.  So a load passes
 * older loads (MP with a plain reader, IRIW), never reads a value older
 * than one its CPU read or wrote (coherence), and an RMW reads the
 * latest.  Under explore a store may also become visible before the
 * CPU's older loads (a promise, below: the LB shape).  Left out:
 * dependencies are not seen as instructions: an address dependency does
 * not order loads, and a store that depends on a load only in form may
 * be promised before it (ARMv8 orders both; C11 does not for relaxed and
 * plain accesses, nor do compilers keep such dependencies).  This arm64
 * is a subset of ARMv8's behaviours (what it shows can happen; not all
 * that can happen shows), but for dependencies.
 *
 * When.  Everything drains when its CPU makes a fence or a
 * read-modify-write (tso: every RMW, they are locked, and every fence
 * that is an instruction: the kernel's and the libraries', a program's
 * seq_cst one, MFENCE, not its weaker ones, compiler barriers on x86;
 * arm64: a fence other than an acquire one, an RMW of the kernel or the
 * libraries, or a program's RMW with release order; a program's RMW
 * drains the stores to its bytes first, an acquire one the release
 * stores too), switches tasks, creates one, and (tso; arm64: except the
 * futex calls, whose real code runs with the program's stores still
 * buffered, a system call being no barrier on ARMv8) enters the kernel.
 * arm64 acquire loads (LDAR) wait for the CPU's release stores (RCsc).
 * In timed mode a store drains once the clock of the CPU that runs
 * passes its completion (tso: its issue plus the machine's `store` time;
 * arm64: its issue plus the cost the cache model charged it, so a store
 * that hits can overtake one that misses), at least one nanosecond on;
 * under explore, at each hook a draw of the run's PRNG (decision "D" of
 * replay files) drains one store that may drain, or none.  A full buffer
 * (SIM_SB_ENTRIES) drains as much as it must.
 *
 * Writes that are not buffered (the kernel's, the simulated system
 * calls') take effect at once and win over a buffered store of their
 * CPU to the same bytes.  A kernel store's hook drains its CPU's
 * buffered stores first (x86 and arm64 keep a store after older ones
 * the kernel relies on: TSO's FIFO, the release orders of its unlocks);
 * the system calls' writes are ordered by the fences and RMWs around
 * them.  The libraries' stores (uatomic_store(): release; the relaxed
 * ones of the workloads' protected data) are buffered as a program's.
 */
#ifndef SIM_MACHINE_MEMMODEL_H
#define SIM_MACHINE_MEMMODEL_H

#include <stdint.h>

struct sim_cpu;

#define SIM_SB_ENTRIES	32	/* a store buffer's size (Skylake: 56)	*/
#define SIM_STALE_LAG_PS 50000	/* arm64, timed: how long a view lags	*/

enum sim_memory {
	SIM_MEMORY_SC,
	SIM_MEMORY_TSO,
	SIM_MEMORY_ARM64,
};

extern int sim__sb_on;		/* memory=tso or arm64 in this run	*/
extern int sim__sb_arm64;	/* memory=arm64				*/
/* Set by the caller of an RMW, FENCE or STORE hook that orders the
 * buffer itself (a program's atomic, workloads/libsim/instrument.c; a
 * buffered store): the hook then does not drain.  A STORE hook without
 * it is a store that is not buffered (the kernel's): the CPU's buffered
 * stores drain first, so that it comes after them.  The hook takes the
 * flag and clears it at its start (other CPUs' hooks run inside it). */
extern int sim__sb_keep;
/* What the last hook charged its access (sim__hook() sets it on its
 * return when sim__sb_on): an arm64 store's time to drain in timed
 * mode. */
extern uint64_t sim__sb_cost_ps;

/* sim_memory_set - the run's model.  After sim_machine_init(), which
 * resets it to sc. */
void sim_memory_set(enum sim_memory m);

/* sim_memory_name - "sc", "tso" or "arm64": the run's model. */
const char *sim_memory_name(void);

/* sim_sb_store - CPU @c, executing, is about to store @size bytes (at
 * most 16) at @p; the store goes into its buffer, a release store
 * (STLR) if @release (arm64; tso ignores it).  Call right after the
 * store's hook (its scheduling point, made with sim__sb_keep), before
 * the store. */
void sim_sb_store(struct sim_cpu *c, const volatile void *p, unsigned int size,
		  int release);

/* sim_sb_store_hooked - the hook of a buffered store of @size bytes at
 * @p (a store's scheduling point, which drains nothing: the caller sets
 * sim__sb_keep), then sim_sb_store() on the CPU that executes after it.
 * For the libraries' stores (workloads/ulock/uatomic.h); call only when
 * sim__sb_on and sim__hooks_live. */
void sim_sb_store_hooked(const volatile void *p, unsigned int size,
			 int release);

/* sim_sb_drain - every store of executing CPU @c becomes visible, and
 * (arm64) its view is refreshed: a full barrier. */
void sim_sb_drain(struct sim_cpu *c);

/* sim_sb_drain_stores - sim_sb_drain() but the view: the buffer of a
 * hook's fence or RMW, before its scheduling point (the view is refreshed
 * right before the access, sim_sb_refresh()). */
void sim_sb_drain_stores(struct sim_cpu *c);

/* sim_sb_refresh - arm64: executing CPU @c's view is refreshed (it
 * reads what all CPUs see): an acquire. */
void sim_sb_refresh(struct sim_cpu *c);

/* sim_sb_acquire - arm64: an acquire load of the libraries (their code
 * is not instrumented; workloads/ulock/uatomic.h) on the executing CPU,
 * if a task runs: sim_sb_drain_release(), then sim_sb_refresh(). */
void sim_sb_acquire(void);

/* sim_sb_rmw - arm64: executing CPU @c is about to make an RMW on the
 * @size bytes at @p, which reads the latest value: its view of them is
 * refreshed. */
void sim_sb_rmw(struct sim_cpu *c, const volatile void *p, unsigned int size);

/* sim_sb_drain_release - arm64: the release stores of executing CPU @c
 * become visible (with the older stores they wait for): an acquire
 * load's or acquire RMW's wait (RCsc). */
void sim_sb_drain_release(struct sim_cpu *c);

/* sim_sb_drain_over - the stores of executing CPU @c to the @size bytes
 * at @p become visible (with the older stores they wait for): an RMW's
 * coherence with the CPU's own stores. */
void sim_sb_drain_over(struct sim_cpu *c, const volatile void *p,
		       unsigned int size);

/* sim_sb_hook - a hook of executing CPU @c, before its access: stores
 * that completed drain (timed), or one chosen by a draw (explore). */
void sim_sb_hook(struct sim_cpu *c);

/* sim_sb_settle - a hook of executing CPU @c, right before its access
 * (after the hook's dispatch, when other CPUs' stores may have become
 * visible): arm64, its view of stores SIM_STALE_LAG_PS old is refreshed
 * (timed), or of one chosen by a draw (explore). */
void sim_sb_settle(struct sim_cpu *c);

/*
 * Promises (arm64, explore): the LB shape, a store visible before an
 * older load of its CPU.  At a program's plain or relaxed load (a
 * promise point, before the load's hook), a draw may ask for one: the
 * world is forked and the CPU's task runs alone from there, its stores
 * recorded up to the first barrier, acquire, RMW or release store (its
 * window: what the CPU would store whatever the other CPUs do, the
 * certification of Kang, Hur, Lahav, Vafeiadis and Dreyer's promising
 * semantics, POPL 2017, and of Pulte et al.'s Promising-ARM, PLDI 2019).
 * Back in the run, a draw picks one of those stores, if any has no older
 * store of the CPU to its bytes, and it becomes visible to all now; the
 * CPU itself reads the bytes as they were until it stores them.  The
 * store it then makes must be that one (the same bytes, the same value)
 * before any barrier, acquire or RMW: else the run is infeasible
 * (SIM_FAIL_INFEASIBLE), not an execution, and explore counts it apart.
 * A store that depends on the load (its value, its address, whether it
 * happens) is promised only with what the load read in the window, and
 * a different read makes it infeasible: dependencies are honoured by
 * their values, as C11 has them, not by the instructions ARMv8 sees.
 */
#define SIM_SB_WINDOW	16	/* stores of a window, at most		*/

struct sim_sb_window {
	int n;
	struct {
		uint64_t addr;
		uint8_t size;
		uint8_t val[16];
	} st[SIM_SB_WINDOW];
};

/* sim_sb_promise_point - executing CPU @c is about to load @load (code
 * @pc), plainly or relaxed, with its hook still to come: it may promise
 * a store of its window (above). */
void sim_sb_promise_point(struct sim_cpu *c, const volatile void *load,
			  uintptr_t pc);

/* sim_sb_certify - in the forked child (sim/explore/promise.c): record
 * the window of executing CPU @c, and at its end call @end with it
 * (which does not return). */
void sim_sb_certify(struct sim_cpu *c,
		    void (*end)(const struct sim_sb_window *w));

/* sim_sb_certify_end - the window ends now (the CPU cannot run on, or
 * ran the bound of sim/explore/promise.c): @end of sim_sb_certify(). */
void sim_sb_certify_end(void) __attribute__((noreturn));

/* sim_sb_busy - has CPU @cpu stores buffered, or a view that lags? */
int sim_sb_busy(int cpu);

/* sim_sb_switch - @to starts executing (NULL: none): the overlay of the
 * CPU that did comes off memory, @to's goes on. */
void sim_sb_switch(struct sim_cpu *to);

/* sim_sb_entry - the @i-th oldest store in CPU @cpu's buffer: its
 * address, size, value (the bytes as a little-endian number, 0 for a
 * 16-byte store) and whether it is a release store.  Return: 1, or 0 if
 * there is no such store.  For the failure report
 * (sim/report/failure.c). */
int sim_sb_entry(int cpu, int i, uint64_t *addr, unsigned int *size,
		 uint64_t *val, int *release);

/*
 * The latest reorderings, for the failure report: a load of a CPU that
 * passed its buffered stores to other bytes (tso, arm64: the oldest of
 * them named; a load of the kernel, or of an address another CPU's
 * buffer has held), a store that became visible before an older one of
 * its CPU (arm64), or a load that read bytes its CPU's view lagged over
 * (arm64).  sim_sb_load() is the machine's call at each load
 * while its CPU has stores buffered.
 */
#define SIM_SB_REORDERS	16

enum sim_reorder_kind {
	SIM_REORDER_STORE,	/* a store visible before an older one	*/
	SIM_REORDER_LOAD,	/* a load before an older store was visible */
	SIM_REORDER_STALE,	/* arm64: a load read bytes as they were
				 * before another CPU's visible store	*/
	SIM_REORDER_PROMISE,	/* arm64: a store visible before an older
				 * load (passed) of its CPU: a promise	*/
};

struct sim_sb_reorder {
	uint64_t time_ps;
	uint64_t first;		/* the access				*/
	uint64_t passed;	/* the store it passed, or (STALE) the
				 * store whose bytes it read as before	*/
	uintptr_t pc;		/* a load's code (its hook's caller), or 0 */
	uint32_t times;		/* how many times the pair was seen	*/
	uint8_t kind;		/* enum sim_reorder_kind		*/
	int16_t cpu;
	int16_t by;		/* the CPU of the store passed		*/
	char task[16];
};

void sim_sb_load(struct sim_cpu *c, const volatile void *p, unsigned int size,
		 uintptr_t pc);

/* sim_sb_reorder - the @i-th latest reordering (0: the latest).
 * Return: it, or NULL. */
const struct sim_sb_reorder *sim_sb_reorder(int i);

/* sim_sb_reset - empty every buffer, the model sc (machine init). */
void sim_sb_reset(void);

#endif /* SIM_MACHINE_MEMMODEL_H */
