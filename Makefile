# futexsim - one non-recursive Makefile.
#
#   make            build build/futexsim (installs missing Debian packages
#                   as root, or prints the apt-get line and stops)
#   make demo       build, then run the headline scenario
#   make lessons    the pages of docs/lessons/, into build/lessons/
#   make check      build and run every test
#   make bench      measure the simulator (prints, writes build/bench.json)
#   make tidy       static checks (cppcheck, clang-tidy)
#   make sanitize   build with sanitizers (in build/san) and run the tests
#   make asan       the same with AddressSanitizer and UBSan (build/asan)
#   make fuzz       libFuzzer targets of the parsers (build/fuzz), each run
#                   FUZZ_S seconds (default 60)
#   make clean
#
# Variables (override on the command line or in an untracked config.mak):
#   CC=gcc|clang-14   O=0|1|2|3   CORO=asm|ucontext   B=build directory
#   LTO= (no link-time optimization)
#
# Two kinds of translation unit (docs/internals.md):
#   kernel TUs  the real kernel files (extracted, unmodified, into $(B)/linux)
#               and the project's kernel-side files (sim/arch/*.c, futex/*.c,
#               sched/kapi.c, tests/k_*.c): -nostdinc, the arch shim first on
#               the include path, hardened flags, audited with nm.  The
#               x86 build of qspinlock.c and sim/arch/x86/*.c add the x86
#               shadow headers before the shim (KX86FLAGS below).
#   host TUs    everything else: C11 with libc.

-include config.mak

# No built-in rules: with them, an included .d file could be "remade"
# through %: %.o and the kernel pattern rule below (which has no .c
# prerequisite) whenever the kernel extraction is out of date.
.SUFFIXES:

CC	:= $(if $(filter default,$(origin CC)),gcc,$(CC))
O	?= 2

# The kernel (docs/kernels.md): a series the shim supports, from Debian's
# tarball, or from the user's tree (KSRC=DIR, its series read from its
# Makefile), with or without a patch applied to the copy (KPATCH=FILE).
# Each combination has its own build directory unless B= names one.
KSERIES_SUPPORTED := 6.1 6.12
ifneq ($(KSRC),)
KSRC_SERIES := $(shell sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' $(KSRC)/Makefile 2>/dev/null | paste -sd.)
KERNEL	?= $(KSRC_SERIES)
endif
KERNEL	?= 6.1
ifeq ($(filter $(KERNEL),$(KSERIES_SUPPORTED)),)
$(error KERNEL=$(KERNEL): not a series futexsim supports (expected one of: $(KSERIES_SUPPORTED))$(if $(KSRC), (KSRC=$(KSRC) is $(or $(KSRC_SERIES),not a kernel tree)),))
endif
B	?= build$(if $(filter-out 6.1,$(KERNEL)),-$(KERNEL))$(if $(KSRC),-src-$(notdir $(abspath $(KSRC))))$(if $(KPATCH),-patch-$(basename $(notdir $(KPATCH))))$(if $(filter 1,$(INSTR)),-instr)
HOSTARCH := $(shell uname -m)
CORO	?= $(if $(filter x86_64,$(HOSTARCH)),asm,ucontext)

KTAR	?= /usr/src/linux-source-$(KERNEL).tar.xz
KDIR	?= $(B)/linux
VERSION	:= $(shell cat VERSION)

# ---- flags -----------------------------------------------------------------

GCCINC	 = $(shell $(CC) -print-file-name=include)
KWARN	:= -Wall -Wno-unused-function -Wno-pointer-sign -Wno-address-of-packed-member \
	   -Werror=implicit-function-declaration -Werror=implicit-int \
	   -Werror=int-conversion -Werror=incompatible-pointer-types
# -fmacro-prefix-map: a kernel file's __FILE__ (a BUG()'s, a WARN()'s) is
# its path in the kernel tree, kernel/futex/core.c, whatever $(KDIR) is.
KCFLAGS	 = -std=gnu11 -O$(O) -g -MMD -MP $(KWARN) \
	   -fno-strict-aliasing -fno-common -fno-PIE -fno-pie \
	   -fno-stack-protector -fno-omit-frame-pointer \
	   -nostdinc -isystem $(GCCINC) -D__KERNEL__ \
	   -Isim/arch/include -I. \
	   -I$(KDIR)/include -I$(KDIR)/include/uapi \
	   -include linux/kconfig.h -include linux/compiler_types.h \
	   -include sim/prelude.h -fmacro-prefix-map=$(KDIR)/= $(LTO) $(KEXTRA) $(SAN)
KFUTEX	 = -I$(KDIR)/kernel/futex -I$(KDIR)/kernel/locking

# INSTR=1 (docs/programs.md, "Instrumented kernels"): the kernel files and
# the project's lock algorithms of futex/ compiled with the thread-sanitizer instrumentation,
# its calls renamed to sim/arch/instrument.c's __ksim_tsan_* (KINSTR_FIX),
# and with CONFIG_KCSAN: data_race() and the ASSERT_EXCLUSIVE_*() checks
# call KCSAN's interface, which sim/arch/kcsan.c serves.
KINSTR	:= $(if $(filter 1,$(INSTR)),-fsanitize=thread -DCONFIG_KCSAN=1 \
	     --param=tsan-distinguish-volatile=1 \
	     --param=tsan-instrument-func-entry-exit=0 -Wno-tsan)
KINSTR_FIX = $(if $(KINSTR),@sh mk/kinstr-rename.sh $@)
# the project's kernel code that INSTR=1 instruments: the lock algorithms
# (not the state checkers and views, which run inside the machine's
# dispatch, nor the glue), and the race oracle's kernel test code
KINSTR_SRCS := futex/tp.c futex/tp_shared.c futex/tp_unlock.c futex/mutex48.c \
	       tests/k_kcsan.c \
	       futex/qspin_2014.c futex/qspin_noundo.c futex/ticket.c
KINSTR_OBJS  = $(patsubst %.c,$(B)/kp/%.o,$(KINSTR_SRCS))

# Link-time optimization (docs/bench.md, "Link-time optimization"): with
# gcc at -O2 or -O3, not with sanitizers or INSTR=1 (mk/kinstr-rename.sh
# renames symbols of the object code, not of its LTO copy).  The objects
# are fat: nm (the kernel audit), ar and a program's link read their
# ordinary code.  LTO= turns it off.
LTO	?= $(if $(findstring clang,$(CC))$(SAN)$(filter 1,$(INSTR))$(filter-out 2 3,$(O)),,\
	   -flto=auto -ffat-lto-objects)

HCFLAGS	 = -std=gnu11 -O$(O) -g -MMD -MP -Wall -Wextra -Wno-unused-parameter \
	   -Wno-missing-field-initializers -Werror=implicit-function-declaration \
	   -fno-PIE -fno-pie -fno-omit-frame-pointer -I. -I$(B) \
	   -DSIM_CORO_$(CORO) \
	   $(shell pkg-config --cflags libunwind 2>/dev/null) $(LTO) $(HEXTRA) $(SAN)
LDFLAGS	:= -no-pie $(if $(LTO),-flto=auto -O$(O))
LDLIBS	 = $(shell pkg-config --libs libunwind 2>/dev/null) -lm $(SAN)
CHECKLIBS = $(shell pkg-config --libs check 2>/dev/null)

# ---- sources ---------------------------------------------------------------

# Real kernel files, compiled unmodified from $(KDIR).
KERNEL_FILES := kernel/locking/qspinlock.c \
		kernel/locking/mutex.c kernel/locking/osq_lock.c \
		kernel/locking/rtmutex_api.c \
		kernel/futex/core.c kernel/futex/waitwake.c \
		kernel/futex/requeue.c kernel/futex/pi.c kernel/futex/syscalls.c \
		lib/plist.c lib/rbtree.c
KERNEL_OBJS  := $(patsubst %.c,$(B)/k/%.o,$(KERNEL_FILES))

# Project code compiled as kernel TUs.
# sim/arch/series/: what one kernel series has that another has not.
KPROJ_SRCS := $(wildcard sim/arch/*.c futex/*.c) sched/kapi.c \
	      sim/arch/series/$(KERNEL).c
KPROJ_OBJS := $(patsubst %.c,$(B)/kp/%.o,$(KPROJ_SRCS))

# The real qspinlock.c a second time, with the x86 settings (the lock
# qspinlock-x86 of workload=spin), and the kernel TUs of sim/arch/x86/ that
# call it.  Only their include path and one macro differ: the x86 shadow
# sim/arch/x86/include/asm/qspinlock.h (_Q_PENDING_LOOPS 512, bts-then-read
# pending set) comes before sim/arch/include, and the exported slow path
# is renamed by the preprocessor, so both builds link into one binary.
# Each object's per-CPU qnodes[] is static data of the sim_percpu section,
# which the machine copies per CPU whole: the two builds never share nodes.
KX86FLAGS := -Isim/arch/x86/include \
	     -Dqueued_spin_lock_slowpath=queued_spin_lock_slowpath_x86
KX86_OBJS := $(B)/k-x86/kernel/locking/qspinlock.o \
	     $(patsubst %.c,$(B)/kp-x86/%.o,$(wildcard sim/arch/x86/*.c))

# Host TUs.  sim/cli/cli.c holds main().
HOST_SRCS  := $(filter-out sched/kapi.c sim/cli/cli.c sim/program/world_end.c, \
		$(filter-out sim/arch/%,$(wildcard sim/*/*.c)) \
		$(wildcard sched/*.c workloads/*.c workloads/ulock/*.c \
			   workloads/libsim/*.c))
HOST_ASM   := $(if $(filter x86_64,$(HOSTARCH)),sim/host/coro_x86_64.S \
		workloads/libsim/setjmp_x86_64.S)
HOST_OBJS  := $(patsubst %.c,$(B)/h/%.o,$(HOST_SRCS)) \
	      $(patsubst %.S,$(B)/h/%.o,$(HOST_ASM))

SIM_OBJS   := $(HOST_OBJS) $(KPROJ_OBJS) $(KERNEL_OBJS) $(KX86_OBJS)

TEST_SRCS  := $(wildcard tests/test_*.c)
TEST_KSRCS := $(wildcard tests/k_*.c)
TEST_OBJS  := $(patsubst %.c,$(B)/h/%.o,$(TEST_SRCS) tests/check_main.c) \
	      $(patsubst %.c,$(B)/kp/%.o,$(TEST_KSRCS))

# ---- top-level targets -----------------------------------------------------

.PHONY: all demo check check-instr bench tidy sanitize asan clean deps kernel-audit
all: $(B)/futexsim $(B)/libfutexsim.a

deps: $(B)/.deps
$(B)/.deps: mk/deps.sh
	@mkdir -p $(B)
	@sh mk/deps.sh $(if $(KSRC),,linux-source-$(KERNEL))
	@touch $@

# Extract the kernel subset once (again when the tarball or the patch
# changes); a user's tree is compared at every make and copied when it
# changed (mk/kernel-extract.sh).
KSOURCE	:= $(or $(KSRC),$(KTAR))
$(KDIR)/.stamp: $(if $(KSRC),FORCE,$(KTAR)) $(KPATCH) mk/kernel-extract.sh | $(B)/.deps
	@sh mk/kernel-extract.sh $(KERNEL) $(KSOURCE) $(KDIR) $(KPATCH)
$(KTAR): | $(B)/.deps
.PHONY: FORCE
FORCE:

# --version: the kernel's version, where it came from, the patch's hash.
KORIGIN = $(if $(KSRC),tree $(abspath $(KSRC))$(shell cd $(KSRC) && [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$$(pwd -P)" ] && git describe --always --dirty | sed 's/^/ at /'),Debian linux-source-$(KERNEL) $(shell dpkg-query -W -f='$${Version}' linux-source-$(KERNEL) 2>/dev/null))$(if $(KPATCH), + patch $(notdir $(KPATCH)) sha256:$(shell sha256sum < $(KPATCH) | cut -c1-12))
# FUTEXSIM_OSPIN_KERNEL: mutex_spin_on_owner() is Debian's, whose rounds
# the machine may make without their code (sim/machine/ospin.h): not in a
# user's tree, nor with a patch that touches kernel/locking/mutex.c.
OSPIN_KERNEL = $(if $(KSRC),0,$(if $(KPATCH),$(shell grep -q '^+++ .*kernel/locking/mutex\.c' $(KPATCH) && echo 0 || echo 1),1))
$(B)/version.h: VERSION Makefile $(KDIR)/.stamp
	@printf '#define FUTEXSIM_VERSION "%s"\n#define FUTEXSIM_KERNEL "%s (%s)"\n#define FUTEXSIM_KERNEL_SERIES "%s"\n#define FUTEXSIM_MACHINES_DIR "%s"\n#define FUTEXSIM_SOURCE_DIR "%s"\n#define FUTEXSIM_KERNEL_INSTRUMENTED %d\n#define FUTEXSIM_OSPIN_KERNEL %d\n' \
	  "$(VERSION)" \
	  "$$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' $(KDIR)/Makefile | paste -sd.)" \
	  "$(KORIGIN)$(if $(KINSTR),; instrumented: INSTR=1)" "$(KERNEL)" \
	  "$(CURDIR)/machines" "$(CURDIR)" $(if $(KINSTR),1,0) $(OSPIN_KERNEL) > $@.tmp && mv $@.tmp $@

$(B)/futexsim: $(B)/h/sim/cli/cli.o $(SIM_OBJS)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# User programs (sim/program/build.c, workloads/libsim/): `futexsim build` links
# a program with the whole simulator, this archive, with the compiler and
# libraries recorded in program_flags.h.
$(B)/libfutexsim.a: $(B)/h/sim/cli/cli.o $(SIM_OBJS) $(B)/libfutexsim-end.o
	@echo "  AR      $@"
	@rm -f $@ && ar rcs $@ $(filter-out $(B)/libfutexsim-end.o,$^)
# linked between a program and the archive: where its own data ends
# (sim/program/world_end.c)
$(B)/libfutexsim-end.o: $(B)/h/sim/program/world_end.o
	@cp $< $@
# After the Debian packages: LDLIBS asks pkg-config for libunwind.
$(B)/program_flags.h: Makefile | $(B)/.deps
	@mkdir -p $(@D)
	@printf '#define FUTEXSIM_CC "%s"\n#define FUTEXSIM_LDLIBS "%s"\n#define FUTEXSIM_CC_IS_CLANG %s\n' \
	  "$(CC)" "$(LDLIBS)" "$$($(CC) --version 2>/dev/null | grep -q clang && echo 1 || echo 0)" > $@
$(B)/h/sim/program/build.o: $(B)/program_flags.h

# The page of --trace=FILE.html (sim/trace/trace_html.c) carries its style
# and script inline: sim/trace/view/view.css and view.js, kept as what they
# are and turned here into two byte arrays, sim_view_css and sim_view_js.
VIEW_ASSETS := sim/trace/view/view.css sim/trace/view/view.js
$(B)/view_assets.h: $(VIEW_ASSETS) Makefile
	@mkdir -p $(@D)
	@echo "  GEN     $@"
	@for f in $(VIEW_ASSETS); do \
	  n=$$(basename $$f | tr . _); \
	  echo "static const unsigned char sim_$$n[] = {"; \
	  od -An -v -tx1 $$f | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo "};"; \
	done > $@.tmp && mv $@.tmp $@
$(B)/h/sim/trace/trace_html.o: $(B)/view_assets.h
tidy: $(B)/view_assets.h

DEMO_ARGS ?= workloads/scenarios/to-futex-demo.scn
# The pages of docs/lessons/, into $(B)/lessons/.
.PHONY: lessons
lessons: $(B)/futexsim
	@sh mk/lessons.sh $(B)

demo: $(B)/futexsim $(B)/libfutexsim.a
	$(B)/futexsim run $(DEMO_ARGS)

# ---- compile rules ----------------------------------------------------------

$(B)/k/%.o: $(KDIR)/.stamp
	@mkdir -p $(@D)
	@echo "  KCC     $*.c"
	@$(CC) $(KCFLAGS) $(KINSTR) $(KFUTEX) -c $(KDIR)/$*.c -o $@
	$(KINSTR_FIX)

$(B)/kp/%.o: %.c $(KDIR)/.stamp
	@mkdir -p $(@D)
	@echo "  KCC     $<"
	@$(CC) $(KCFLAGS) $(KFUTEX) $(KFILE) -c $< -o $@

# sim/arch/kcsan.c defines what include/linux/kcsan-checks.h declares
# with CONFIG_KCSAN (in every build: nothing calls it without INSTR=1)
$(B)/kp/sim/arch/kcsan.o: KFILE := -DCONFIG_KCSAN=1

$(KINSTR_OBJS): $(B)/kp/%.o: %.c $(KDIR)/.stamp
	@mkdir -p $(@D)
	@echo "  KCC     $<"
	@$(CC) $(KCFLAGS) $(KINSTR) $(KFUTEX) -c $< -o $@
	$(KINSTR_FIX)

# The x86 build (KX86FLAGS first: its -I wins over KCFLAGS' shim path).
$(B)/k-x86/%.o: $(KDIR)/.stamp
	@mkdir -p $(@D)
	@echo "  KCC     $*.c (x86)"
	@$(CC) $(KX86FLAGS) $(KCFLAGS) $(KINSTR) $(KFUTEX) -c $(KDIR)/$*.c -o $@
	$(KINSTR_FIX)

$(B)/kp-x86/%.o: %.c $(KDIR)/.stamp
	@mkdir -p $(@D)
	@echo "  KCC     $< (x86)"
	@$(CC) $(KX86FLAGS) $(KCFLAGS) $(KFUTEX) -c $< -o $@

$(B)/h/%.o: %.c $(B)/version.h
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(HCFLAGS) -c $< -o $@

$(B)/h/%.o: %.S
	@mkdir -p $(@D)
	@echo "  AS      $<"
	@$(CC) $(HCFLAGS) -c $< -o $@

# ---- tests -----------------------------------------------------------------

# One Check suite per tests/test_NAME.c (Suite *NAME_suite(void)); the
# registry is generated from the file names.
$(B)/tests/suites.h: $(TEST_SRCS)
	@mkdir -p $(@D)
	@for f in $(notdir $(basename $(TEST_SRCS))); do \
	  echo "SUITE($${f#test_})"; done > $@.tmp && mv $@.tmp $@
$(B)/h/tests/check_main.o: $(B)/tests/suites.h
# The tests stand where a user's program does, and `futexsim build` links
# a program with -fno-lto: their globals keep their compile units' debug
# info, which sim/report/symbols.c reads to name a program's words.
$(B)/h/tests/%.o: LTO :=

$(B)/check: $(TEST_OBJS) $(SIM_OBJS)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) $^ $(CHECKLIBS) $(LDLIBS) -o $@

check: $(B)/futexsim $(B)/check kernel-audit $(B)/libfutexsim.a
	@sh mk/deps.sh clang-14 parallel glibc-source
	@# the browser test of the HTML page skips, saying so, without it
	@sh mk/deps.sh chromium || echo "futexsim: chromium could not be installed" >&2
	@sh mk/docs-check.sh --self-test >/dev/null || { sh mk/docs-check.sh --self-test; exit 1; }
	@sh mk/docs-check.sh || exit 1
	+@sh mk/determinism.sh $(B) || exit 1
	@sh mk/litmus.sh --self-test $(B) || exit 1
	@sh mk/litmus.sh $(B) >$(B)/litmus.txt || { cat $(B)/litmus.txt; exit 1; }
	@echo "litmus: $$(grep -c 'seen' $(B)/litmus.txt) outcomes under memory=sc, tso and arm64 as SC, x86-TSO and ARMv8 allow ($(B)/litmus.txt)"
	+@sh mk/test-ucontext.sh $(B) || exit 1
	@# the futex selftests, and instrumented under the weak models (the
	@# same outcomes), the three at once
	@for m in sc tso arm64; do { sh mk/selftests.sh $(B) $${m#sc} \
	  >$(B)/selftests-$$m.txt 2>&1; echo $$? >$(B)/selftests-$$m.status; } & done; wait; \
	  cat $(B)/selftests-sc.txt; for m in sc tso arm64; do [ "$$(cat $(B)/selftests-$$m.status)" = 0 ] || \
	  { cat $(B)/selftests-$$m.txt; exit 1; }; done
	@echo "selftests: the same outcomes instrumented under memory=tso and arm64 ($(B)/selftests-{tso,arm64}.txt)"
	@sh mk/check-browser.sh $(B) || exit 1
	+@sh mk/check-kernels.sh $(B) || exit 1
	@# a fixed subset of glibc's nptl tests; .ci/run runs them all
	@sh mk/check-glibc.sh --strict $(B) 1 $$(grep -v '^#' tests/glibc/quick.list) \
	  >$(B)/check-glibc-quick.txt || { cat $(B)/check-glibc-quick.txt; exit 1; }
	@tail -1 $(B)/check-glibc-quick.txt | sed 's/^/check-glibc (quick.list): /'
	+@$(MAKE) --no-print-directory fuzz-smoke || exit 1
	@# the unit suites, two shards at once, each from a scratch folder
	@sh mk/check-units.sh $(B) 2

# the instrumented kernel build (INSTR=1) in $(B)/instr: mk/check-instr.sh
check-instr: $(B)/futexsim
	@sh mk/check-instr.sh $(B)

# Unexpected global data in a kernel object means a macro went missing
# (an undefined attribute macro turns `__attr name;` into a variable).
kernel-audit: $(KERNEL_OBJS) $(KPROJ_OBJS) $(KX86_OBJS)
	@sh mk/nm-audit.sh $(KERNEL_OBJS) $(KPROJ_OBJS) $(KX86_OBJS)

# ---- benchmark, static checks ----------------------------------------------

$(B)/bench: $(B)/h/bench/bench.o $(B)/h/bench/bench_spawn.o \
	    $(B)/h/bench/bench_native.o $(SIM_OBJS)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@
bench: $(B)/bench $(B)/futexsim $(B)/libfutexsim.a
	@$(B)/bench $(B)/bench.json

tidy: $(B)/version.h
	cppcheck --quiet --error-exitcode=1 --std=c11 -I. -I$(B) \
	  --suppress=missingIncludeSystem \
	  $(filter-out sim/arch/%,$(wildcard sim/*/*.c)) sched/core.c workloads
	@# one file per clang-tidy: clang 14's valist checker carries state
	@# from one file to the next and then misses va_start() there
	printf '%s\n' $(HOST_SRCS) | \
	  xargs -P 2 -I{} clang-tidy --quiet {} -- -I. -I$(B) -std=gnu11
	@# the page's script (sim/trace/view/): its syntax, where node exists
	@if command -v node >/dev/null; then node --check sim/trace/view/view.js; \
	  else echo "tidy: no node: view.js not checked"; fi

# make sanitize: every TU (kernel ones too) and the links, user programs'
# included, built with UBSan in build/san (or the B given); then the
# Check suites and the kernel's futex selftests run under it, and the
# first report ends its process (halt_on_error), failing its test.
# mk/ubsan.supp lists known reports left to their files' owners.  Not
# the determinism script: it compares builds, not behaviour.  Not part
# of `make check` (time).  SAN is empty in every other build.
# ASan with it: `make asan`, below.
SAN_B	 = $(if $(filter command line,$(origin B)),$(B),build/san)
SAN_FLAGS ?= -fsanitize=undefined
SAN_ENV	 = UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$(abspath mk/ubsan.supp)
sanitize:
	+@$(MAKE) --no-print-directory B=$(SAN_B) SAN="$(SAN_FLAGS)" \
	  $(SAN_B)/futexsim $(SAN_B)/check $(SAN_B)/libfutexsim.a
	@$(SAN_ENV) sh mk/selftests.sh $(SAN_B)
	@mkdir -p $(SAN_B)/checkrun
	@cd $(SAN_B)/checkrun && CK_DEFAULT_TIMEOUT=1200 $(SAN_ENV) \
	  FUTEXSIM=$(abspath $(SAN_B))/futexsim $(abspath $(SAN_B))/check

# make asan: `make sanitize` with AddressSanitizer (and its leak checker)
# besides UBSan, in build/asan (or the B given).  The coroutine switches
# tell ASan which stack runs (sim/host/coro.c), the arena poisons its block
# headers, tails and free blocks (sim/host/arena.c), and the coroutine stacks
# and the arena are root regions of the leak checker.  Arena and stack
# addresses are those of every build, so reports and traces are the same
# bytes.  Not part of `make check` (time: the build, then the suites at
# about 3x their speed).
ASAN_B	 = $(if $(filter command line,$(origin B)),$(B),build/asan)
asan:
	+@$(MAKE) --no-print-directory sanitize B=$(ASAN_B) \
	  SAN_FLAGS="-fsanitize=address,undefined"

# ---- fuzzing ----------------------------------------------------------------

# make fuzz: libFuzzer targets of the parsers (tests/fuzz/README.md), built
# with clang-14 and -fsanitize=fuzzer,address,undefined in build/fuzz (or
# the B given): the whole simulator again there, SAN= as `make asan`, the
# targets linked with -fsanitize=fuzzer (libFuzzer's main()).  Then each
# target runs FUZZ_S seconds (mk/fuzz.sh).  `make check` runs the short,
# fixed smoke of mk/fuzz-smoke.sh (make fuzz-smoke).  fuzz-bins is the
# sub-make's target, in the fuzz build directory only; it compiles the
# kernel files this build extracted ($(KDIR)), not a copy of its own.
FUZZ_B	   = $(if $(filter command line,$(origin B)),$(B),build/fuzz)
FUZZ_CC	   ?= clang-14
FUZZ_S	   ?= 60
FUZZ_SAN   := -fsanitize=fuzzer-no-link,address,undefined
FUZZ_LINK  := -fsanitize=fuzzer,address,undefined \
	      -Wl,--wrap=fopen,--wrap=fclose,--wrap=getline \
	      -Wl,--wrap=malloc,--wrap=free
FUZZ_NAMES := scenario machine replay build
# A target that #includes a simulator source links without its object.
FUZZ_OWN_replay := $(B)/h/sim/replay/replay.o
FUZZ_OWN_build  := $(B)/h/sim/program/build.o

.PHONY: fuzz fuzz-build fuzz-bins fuzz-smoke
fuzz-build:
	@sh mk/deps.sh clang-14
	+@$(MAKE) --no-print-directory B=$(FUZZ_B) KDIR=$(abspath $(KDIR)) \
	  CC=$(FUZZ_CC) O=1 SAN="$(FUZZ_SAN)" fuzz-bins
fuzz-bins: $(patsubst %,$(B)/fuzz_%,$(FUZZ_NAMES))
fuzz: fuzz-build
	@sh mk/fuzz.sh $(FUZZ_B) $(FUZZ_S)
fuzz-smoke: fuzz-build
	@sh mk/fuzz-smoke.sh $(FUZZ_B)

$(B)/fuzz_%: $(B)/h/tests/fuzz/fuzz_%.o $(B)/h/tests/fuzz/fuzz.o $(SIM_OBJS)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS) $(filter-out $(FUZZ_OWN_$*),$^) $(LDLIBS) \
	  $(FUZZ_LINK) -o $@
$(B)/h/tests/fuzz/fuzz_build.o: $(B)/program_flags.h
# the objects of a pattern rule's chain: kept, so an up-to-date build
# does nothing
.SECONDARY: $(patsubst %,$(B)/h/tests/fuzz/fuzz_%.o,$(FUZZ_NAMES)) \
	    $(B)/h/tests/fuzz/fuzz.o

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- glibc's nptl tests (not part of `make check`: time) ------------------
#
# make check-glibc: glibc 2.36's nptl tests (Debian's glibc-source),
# built unmodified natively and with `futexsim build`, each run over
# GLIBC_SEEDS seeds; a table and `N passed, M failed, K skipped`
# (mk/check-glibc.sh; the driver and the skip list in tests/glibc/).
# GLIBC_MIN=N fails the target when fewer than N pass.
GLIBC_SEEDS ?= 3
GLIBC_MIN ?= 0
.PHONY: check-glibc
check-glibc: $(B)/futexsim $(B)/libfutexsim.a
	@sh mk/check-glibc.sh --min $(GLIBC_MIN) $(B) $(GLIBC_SEEDS)
