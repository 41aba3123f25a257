# tabula: make (optimised native build, profile-guided), make check (debug build + all test
# suites), make run, make deps, make bench, make install, make clean, make prompt-test (the
# interactive prompt in tmux), make fuzz (libFuzzer on the command loop and the parsers,
# FUZZ_SECONDS), make tools (the offline programs of tools/).
# `make deps` installs the missing build dependencies with apt-get when run as root, or prints
# the exact command to run; `make run` and `make check` call it first. A plain `make` installs
# nothing: with a library missing it prints the command and stops.

CC      ?= cc
PREFIX  ?= /usr/local
BIN     := tabula
PACKAGES := check libedit-dev pkg-config

WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
# -ffp-contract=off: no fused multiply-adds, so that the backgammon nets compute the same bits
# in every build (release, debug, sanitizers) and searches count the same nodes.
BASE    := -std=gnu11 -I. -pthread -MMD -MP -ffp-contract=off $(WARN)
RELEASE_FLAGS := -O3 -march=native -DNDEBUG
ifeq ($(CI),true)
RELEASE_FLAGS += -Werror
endif
DEBUG_FLAGS   := -O1 -g -Werror
ifeq ($(SANITIZE),1)
DEBUG_FLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
TESTDIR := build/sanitize
else
TESTDIR := build/debug
endif

# Expanded when a recipe runs, after `deps` has made sure pkg-config and the libraries exist.
EDIT_CFLAGS  = $(shell pkg-config --cflags libedit)
EDIT_LIBS    = $(shell pkg-config --libs libedit)
CHECK_CFLAGS = $(shell pkg-config --cflags check)
CHECK_LIBS   = $(shell pkg-config --libs check)

ENGINE_SRC := $(wildcard engine/core/*.c engine/mill/*.c engine/backgammon/*.c)
PROTO_SRC  := $(filter-out protocol/main.c,$(wildcard protocol/*.c))
MATCH_SRC  := $(wildcard match/*.c)
# The backgammon modules of tools/ that the suites test (the trainer, pubeval, games).
BG_TOOL_SRC := tools/pubeval.c tools/bggames.c tools/td.c
TEST_SRC   := $(wildcard tests/*.c)

REL_OBJ  := $(patsubst %.c,build/release/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(MATCH_SRC) protocol/main.c)
TEST_OBJ := $(patsubst %.c,$(TESTDIR)/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(MATCH_SRC) $(BG_TOOL_SRC) \
              $(TEST_SRC))
# The same program built like the tests, to check that its bench signature is the release's.
DEBUG_BIN_OBJ := $(patsubst %.c,$(TESTDIR)/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(MATCH_SRC) protocol/main.c)
# The depth of the bench that `make check` compares between the release and the test build.
CHECK_BENCH_DEPTH := 5

# The offline programs of tools/, each with its own main(): self-play matches, evaluation
# tuning, endgame positions, the backgammon trainer and the match against pubeval.
TOOL_OBJ := $(patsubst %.c,build/release/%.o,$(ENGINE_SRC) tools/play.c match/stats.c match/opening.c)
BG_TOOL_OBJ := $(patsubst %.c,build/release/%.o,$(ENGINE_SRC) $(BG_TOOL_SRC))

.PHONY: FORCE all check check-all check-isa check-vectors run bench selfmatch features tools \
	tbconvert deps deps-check prompt-deps prompt-test fuzz-deps fuzz install clean format \
	format-check

all: $(BIN)

# (After `all`, which must stay the first target: `make` alone builds the engine.)
# The nets' weights are embedded by an .incbin that the compiler's dependency lists miss.
BG_WEIGHTS := engine/backgammon/weights.bin
build/release/engine/backgammon/weights.o build/debug/engine/backgammon/weights.o \
build/sanitize/engine/backgammon/weights.o build/fuzz/engine/backgammon/weights.o: $(BG_WEIGHTS)
# The same for the opening books of the mill variants.
BOOK_FILES := $(wildcard match/openings/*.txt)
build/release/match/books.o build/debug/match/books.o build/sanitize/match/books.o \
build/fuzz/match/books.o build/pgo-gen/match/books.o: $(BOOK_FILES)

# $(call need,PACKAGES) in a recipe, after a test that set $$missing to what is missing: install
# PACKAGES with apt-get as root, else print the command and fail.
define need
if [ -n "$$missing" ]; then \
  if [ "$$(id -u)" = 0 ]; then \
    echo "Installing missing packages:$$missing"; \
    apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(1) >/dev/null || exit 1; \
  else \
    echo "Missing packages:$$missing. Install them with:"; \
    echo "  sudo apt-get install -y $(1)"; \
    exit 1; \
  fi; \
fi
endef

# What the build needs: pkg-config and the libraries (sets $$missing).
FIND_MISSING = missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	pkg-config --exists check 2>/dev/null || missing="$$missing check"; \
	pkg-config --exists libedit 2>/dev/null || missing="$$missing libedit-dev"
# The optional compilers: clang 19 for the fast release build, clang for the instruction-set
# checks of `make check` (sets $$optional).
FIND_OPTIONAL = optional=""; \
	command -v clang-19 >/dev/null 2>&1 && command -v ld.lld-19 >/dev/null 2>&1 && \
	  command -v llvm-profdata-19 >/dev/null 2>&1 && \
	  ls /usr/lib/llvm-19/lib/clang/*/lib/linux/libclang_rt.profile*.a >/dev/null 2>&1 || \
	  optional="$(CLANG_PACKAGES)"; \
	command -v clang >/dev/null 2>&1 || optional="$$optional clang"

# Install everything missing (as root), or print the command to run.
deps:
	@$(FIND_MISSING); command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	$(FIND_OPTIONAL); \
	if [ -n "$$optional" ] && [ "$$(id -u)" = 0 ]; then missing="$$missing $$optional"; fi; \
	$(call need,$$missing); \
	if [ -n "$$optional" ] && [ "$$(id -u)" != 0 ]; then \
	  echo "Optional: the fast release build and the clang checks need:"; \
	  echo "  sudo apt-get install -y $$optional"; fi

# The build's own check: with a library missing, say which command installs it and stop.
deps-check:
	@$(FIND_MISSING); \
	if [ -n "$$missing" ]; then \
	  echo "Missing packages:$$missing. Install them with 'make deps' (as root) or:"; \
	  echo "  sudo apt-get install -y$$missing"; exit 1; fi

# The release compiler: clang 19 with link-time optimization where it is installed, since on
# the AMD EPYC it builds a faster engine than GCC (6% from the nine start, 13% in `tabula
# bench`, the same tree; docs/search.md, "The release build"). `make deps` installs it; where
# it is missing, the build says so and uses $(CC). CLANG=0 builds with $(CC) alone. The
# suites' build is always $(CC), so `make check` also compares the bench node counts of the
# two compilers. build/release-cc names the
# compiler the release objects are built with; when it changes, they are built again.
CLANG ?= 1
CLANG_PACKAGES := clang-19 lld-19 llvm-19 libclang-rt-19-dev
REL_CC = $(shell cat build/release-cc 2>/dev/null || echo $(CC))
IS_CLANG = $(filter clang-19,$(REL_CC))
# -pgso=false: code the training does not run is optimised as without a profile, not for size.
REL_LTO = $(if $(IS_CLANG),-flto -mllvm -pgso=false)
REL_LINK = $(if $(IS_CLANG),-flto -fuse-ld=lld-19 -Xlinker -mllvm -Xlinker -pgso=false)
# clang 19 links with link-time optimization and profiles (its own linker and runtime).
CLANG_WORKS = command -v llvm-profdata-19 >/dev/null 2>&1 && \
  echo 'int main(void) { return 0; }' | clang-19 -flto -fuse-ld=lld-19 -fprofile-generate \
    -x c - -o /dev/null >/dev/null 2>&1

build/release-cc: FORCE | deps-check
	@mkdir -p build; cc="$(CC)"; \
	if [ "$(CLANG)" = 1 ]; then \
	  if { $(CLANG_WORKS); }; then cc=clang-19; else \
	    echo "clang 19 is missing, so the release build uses $(CC), a little slower (install" \
	      "it with: make deps, or sudo apt-get install -y $(CLANG_PACKAGES); or make CLANG=0)"; \
	  fi; \
	fi; \
	[ "$$(cat $@ 2>/dev/null)" = "$$cc" ] || echo "$$cc" > $@

FORCE:

# The release build is profile-guided unless PGO=0: the same program is first built with
# counters in build/pgo-gen, run on the search (the bench positions, a search from the nine
# start, a backgammon search: a few seconds), and its profile guides the optimised build. The
# search is the same (the same bench node counts), only faster on the AMD EPYC: with GCC, 3.5%
# to 5.6% in `tabula bench`, 4% to 11% to depth 16 and 17 from the nine start (docs/search.md,
# "The release build"). Any change to a source file trains the profile again and rebuilds every release
# object. Code the training does not run is optimised as without a profile
# (-fprofile-partial-training, -pgso=false), not for size.
# GCC's flags (GCC 10 and later) or clang 19's: with another compiler the build is plain.
PGO ?= $(shell { $(CC) -v 2>&1 | grep -q '^gcc version' && \
         $(CC) -fprofile-partial-training -E -x c /dev/null >/dev/null 2>&1; } || \
         { [ "$(CLANG)" = 1 ] && command -v clang-19 >/dev/null; } && echo 1 || echo 0)
PGO_DIR := build/pgo
ifeq ($(PGO),1)
PGO_GEN_OBJ := $(patsubst build/release/%,build/pgo-gen/%,$(REL_OBJ))
# With GCC, both builds name their profile data after the source file (-dumpbase), not the
# object: GCC keys the counts of static functions by that name, and the objects lie in
# different places. clang's counts are merged into one file.
PGO_FLAGS = $(if $(IS_CLANG),-fprofile-use=$(CURDIR)/$(PGO_DIR)/tabula.profdata \
              -Wno-profile-instr-unprofiled,-fprofile-use=$(CURDIR)/$(PGO_DIR) \
              -fprofile-partial-training -fprofile-correction -Wno-missing-profile -dumpbase $<)
PGO_PROFILE := $(PGO_DIR)/profile.stamp
endif

# The one line that says how the release build was made.
PGO_WORD = $(if $(filter 1,$(PGO)),profile-guided,plain)

$(BIN): $(REL_OBJ)
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) $(REL_LINK) -o $@ $^ $(EDIT_LIBS) -lm
	@v=$$($(REL_CC) -v 2>&1 | sed -n 's/.*\(gcc\|clang\) version \([0-9]*\).*/\1 \2/p' | head -n 1); \
	echo "tabula: release build with $(REL_CC)$(if $(IS_CLANG),, ($$v)), $(PGO_WORD)"

build/release/%.o: %.c $(PGO_PROFILE) build/release-cc | deps-check
	@mkdir -p $(dir $@)
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) $(REL_LTO) $(PGO_FLAGS) $(EDIT_CFLAGS) -c -o $@ $<

build/pgo-gen/%.o: %.c build/release-cc | deps-check
	@mkdir -p $(dir $@)
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) -fprofile-generate=$(CURDIR)/$(PGO_DIR) -fprofile-update=atomic \
	  $(if $(IS_CLANG),,-dumpbase $<) $(EDIT_CFLAGS) -c -o $@ $<

build/pgo-gen/$(BIN): $(PGO_GEN_OBJ)
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) -fprofile-generate=$(CURDIR)/$(PGO_DIR) -o $@ $^ \
	  $(EDIT_LIBS) -lm

$(PGO_DIR)/profile.stamp: build/pgo-gen/$(BIN)
	rm -rf $(PGO_DIR)
	@mkdir -p $(PGO_DIR)
	./build/pgo-gen/$(BIN) bench 10 >/dev/null
	printf 'position startpos\ngo depth 13\n' | ./build/pgo-gen/$(BIN) >/dev/null
	printf 'setoption name UCI_Variant value backgammon\nposition startpos moves 31\ngo depth 2\n' | \
	  ./build/pgo-gen/$(BIN) >/dev/null
	$(if $(IS_CLANG),llvm-profdata-19 merge -o $(PGO_DIR)/tabula.profdata $(PGO_DIR)/*.profraw)
	@$(if $(IS_CLANG),llvm-profdata-19 show --all-functions $(PGO_DIR)/tabula.profdata | \
	  grep -q '^  engine/mill/search.c;search:$$',ls $(PGO_DIR)/*mill#search.c.gcda >/dev/null 2>&1) || \
	  { echo "no profile in $(PGO_DIR)" >&2; exit 1; }
	@touch $@

$(TESTDIR)/%.o: %.c | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(DEBUG_FLAGS) $(CHECK_CFLAGS) $(EDIT_CFLAGS) -c -o $@ $<

$(TESTDIR)/check_tabula: $(TEST_OBJ)
	$(CC) $(BASE) $(DEBUG_FLAGS) -o $@ $^ $(CHECK_LIBS) $(EDIT_LIBS) -lm

$(TESTDIR)/$(BIN): $(DEBUG_BIN_OBJ)
	$(CC) $(BASE) $(DEBUG_FLAGS) -o $@ $^ $(EDIT_LIBS) -lm

# The suites, the prompt in a terminal (tmux, half a second), the perft vectors through the
# release build (its vector code, compiled for this processor, is not in the suites' build),
# then the bench signature: the release and the test build must count the same nodes position
# by position (only the nps may differ). On a processor with AVX-512 the release build does not
# reach the AVX2 code that processors without it run, so an AVX2 build (build/avx2) is checked
# the same way there.
# `make check` first makes sure of the dependencies (make deps), then runs check-all.
check:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory check-all

check-all: $(TESTDIR)/check_tabula $(TESTDIR)/$(BIN) $(BIN) | prompt-deps
	python3 tests/check_layout.py
	cd tests && TABULA_BIN=../$(TESTDIR)/$(BIN) ../$(TESTDIR)/check_tabula
	sh tests/prompt_test.sh ./$(TESTDIR)/$(BIN)
	@$(MAKE) --no-print-directory check-vectors VEC_BIN=./$(BIN)
	@$(MAKE) --no-print-directory check-isa
	@if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then \
	  $(MAKE) --no-print-directory build/avx2/$(BIN) && \
	  $(MAKE) --no-print-directory check-vectors VEC_BIN=./build/avx2/$(BIN); fi

# The files with code for each instruction set (every engine file that includes
# <immintrin.h>, tests __AVX2__, __AVX512*, __BMI2__, or the bit gathers of
# engine/mill/board.h, and every engine file that includes a header that does), compiled
# (not run) for each level with both compilers the build can pick, warnings as errors, so that a combination this processor lacks (AVX-512
# without VPOPCNTDQ, say) still compiles cleanly. GCC compiles with -O1 (its -fsyntax-only
# misses unused static functions); clang's checks come from its front end.
VECTOR_PAT := immintrin\.h|__(AVX|BMI)|BITSHUFFLE
VECTOR_HDR = $(shell grep -lE '$(VECTOR_PAT)' $$(find engine -name '*.h'))
VECTOR_SRC = $(shell { grep -lE '$(VECTOR_PAT)' $$(find engine -name '*.c'); \
               $(if $(VECTOR_HDR),grep -lF $(foreach h,$(VECTOR_HDR),-e '"$(h)"') \
                 $$(find engine -name '*.c');) } | sort -u)
CHECK_ISAS := x86-64 x86-64-v3 x86-64-v4 icelake-server
ISA_FLAGS  := -std=gnu11 -I. -pthread -ffp-contract=off $(WARN) -Werror
ISA_CLANG  = $(shell command -v clang-19 >/dev/null 2>&1 && echo clang-19 || \
               { command -v clang >/dev/null 2>&1 && echo clang; })

check-isa:
	@if [ "$$(uname -m)" != x86_64 ]; then echo "vector code: not an x86-64 machine"; exit 0; fi; \
	status=0; \
	for isa in $(CHECK_ISAS); do for f in $(VECTOR_SRC); do \
	  $(CC) $(ISA_FLAGS) -march=$$isa -O1 -c -o /dev/null $$f || \
	    { echo "vector code: $(CC) -march=$$isa: $$f does not compile cleanly"; status=1; }; \
	  if [ -n "$(ISA_CLANG)" ]; then $(ISA_CLANG) $(ISA_FLAGS) -march=$$isa -fsyntax-only $$f || \
	    { echo "vector code: $(ISA_CLANG) -march=$$isa: $$f does not compile cleanly"; status=1; }; \
	  fi; \
	done; done; \
	[ -n "$(ISA_CLANG)" ] || echo "vector code: no clang to check with (make deps installs it)"; \
	[ $$status = 0 ] && echo "vector code: $(words $(VECTOR_SRC)) files compile cleanly for" \
	  "$(CHECK_ISAS) with $(CC)$(if $(ISA_CLANG), and $(ISA_CLANG))"; \
	exit $$status

# The test build's bench signature, without its nps.
$(TESTDIR)/bench.test: $(TESTDIR)/$(BIN)
	./$(TESTDIR)/$(BIN) bench $(CHECK_BENCH_DEPTH) > $@.tmp
	@sed -i 's/ [0-9]* nps$$//' $@.tmp
	@tail -n 1 $@.tmp | grep -qx '[1-9][0-9]* nodes'
	@mv $@.tmp $@

# The perft vectors and the bench signature through VEC_BIN, against the test build.
check-vectors: $(TESTDIR)/bench.test
	sh tests/perft_release.sh $(VEC_BIN)
	$(VEC_BIN) bench $(CHECK_BENCH_DEPTH) > $(TESTDIR)/bench.release
	@sed -i 's/ [0-9]* nps$$//' $(TESTDIR)/bench.release
	diff $(TESTDIR)/bench.release $(TESTDIR)/bench.test
	@echo "bench $(CHECK_BENCH_DEPTH): $$(tail -n 1 $(TESTDIR)/bench.test) in $(VEC_BIN) and the test build"

AVX2_OBJ := $(patsubst %.c,build/avx2/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(MATCH_SRC) protocol/main.c)
AVX2_FLAGS := -O2 -march=x86-64-v3 -DNDEBUG

build/avx2/%.o: %.c | deps-check
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(AVX2_FLAGS) $(EDIT_CFLAGS) -c -o $@ $<

build/avx2/$(BIN): $(AVX2_OBJ)
	$(CC) $(BASE) $(AVX2_FLAGS) -o $@ $^ $(EDIT_LIBS) -lm

run:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory $(BIN)
	./$(BIN)

# The interactive prompt in a real terminal (tmux): completion, board, history, quit.
prompt-deps:
	@missing=""; command -v tmux >/dev/null 2>&1 || missing=" tmux"; \
	$(call need,tmux)

prompt-test: $(BIN) | prompt-deps
	sh tests/prompt_test.sh ./$(BIN)

# libFuzzer on the command loop (fuzz/fuzz_commands.c) and on the position and move parsers
# (fuzz/fuzz_position.c), both with address and undefined-behaviour sanitizers, run side by
# side for FUZZ_SECONDS. Seeds and dictionaries are in fuzz/; the corpus grows in
# build/fuzz-corpus, crashes land in build/fuzz-artifacts, the logs in build/fuzz/*.log.
FUZZ_SECONDS ?= 600
FUZZ_CC      := clang
FUZZ_FLAGS   := -std=gnu11 -I. -pthread -MMD -MP $(WARN) -g -O1 -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_OBJ     := $(patsubst %.c,build/fuzz/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(MATCH_SRC))
# -max_len: long enough to cross every fixed buffer of the loop (a line of several KB);
# -timeout: one input taking longer is reported as a hang.
FUZZ_RUN     := -max_total_time=$(FUZZ_SECONDS) -timeout=25 -print_final_stats=1 \
                -artifact_prefix=build/fuzz-artifacts/

fuzz-deps:
	@missing=""; \
	echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' | \
	  $(FUZZ_CC) -fsanitize=fuzzer,address,undefined -x c - -o /dev/null 2>/dev/null || \
	  missing=" clang libclang-rt-dev"; \
	$(call need,clang libclang-rt-dev)

build/fuzz/%.o: %.c | deps-check fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(EDIT_CFLAGS) -c -o $@ $<

build/fuzz/fuzz_commands: $(FUZZ_OBJ) build/fuzz/fuzz/fuzz_commands.o
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -Wl,--wrap=tt_init -o $@ $^ $(EDIT_LIBS) -lm

build/fuzz/fuzz_position: $(filter build/fuzz/engine/%,$(FUZZ_OBJ)) \
		build/fuzz/engine/mill/sanmill.o build/fuzz/fuzz/fuzz_position.o
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ -lm

fuzz: build/fuzz/fuzz_commands build/fuzz/fuzz_position
	@mkdir -p build/fuzz-corpus/commands build/fuzz-corpus/position build/fuzz-artifacts
	@echo "fuzzing for $(FUZZ_SECONDS) s; progress in build/fuzz/commands.log and position.log"
	@build/fuzz/fuzz_commands $(FUZZ_RUN) -max_len=16384 -dict=fuzz/commands.dict \
	  build/fuzz-corpus/commands fuzz/corpus/commands > build/fuzz/commands.log 2>&1 & c=$$!; \
	build/fuzz/fuzz_position $(FUZZ_RUN) -max_len=4096 -dict=fuzz/position.dict \
	  build/fuzz-corpus/position fuzz/corpus/position > build/fuzz/position.log 2>&1 & p=$$!; \
	wait $$c; cs=$$?; wait $$p; ps=$$?; \
	for f in commands position; do \
	  echo "== $$f: $$(ls build/fuzz-corpus/$$f | wc -l) inputs in build/fuzz-corpus/$$f"; \
	  sed -n '/invariant broken\|ERROR:\|runtime error:/,/^SUMMARY/p' build/fuzz/$$f.log; \
	  grep -E '^(stat::|Done|.*Test unit written)' build/fuzz/$$f.log; \
	done; \
	if [ $$cs = 0 ] && [ $$ps = 0 ]; then echo "fuzz: no crash, hang or sanitizer report"; \
	else echo "fuzz: FOUND A PROBLEM, see build/fuzz/*.log and build/fuzz-artifacts"; exit 1; fi

bench: $(BIN)
	sh bench/perft.sh ./$(BIN)
	sh bench/search.sh ./$(BIN)

# Matches through `tabula match`: self-play under a clock (LIMIT, GAMES; no faults expected, Elo
# interval around 0), and one match per search feature against the engine without it.
selfmatch: $(BIN)
	sh scripts/selfmatch.sh ./$(BIN)

features: $(BIN)
	sh scripts/features.sh ./$(BIN)

tools: build/selfplay build/tune build/tbpick build/train-bg build/bg-pubeval

build/train-bg: $(BG_TOOL_OBJ) build/release/tools/bgtrain.o
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) $(REL_LINK) -o $@ $^ -lm

build/bg-pubeval: $(BG_TOOL_OBJ) build/release/tools/bgpubeval.o
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) $(REL_LINK) -o $@ $^ -lm

build/selfplay: $(TOOL_OBJ) build/release/tools/selfplay.o
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) $(REL_LINK) -o $@ $^ -lm

build/tune: $(TOOL_OBJ) build/release/tools/tune.o
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) $(REL_LINK) -o $@ $^ -lm

build/tbpick: $(TOOL_OBJ) build/release/tools/tbpick.o
	$(REL_CC) $(BASE) $(RELEASE_FLAGS) $(REL_LINK) -o $@ $^ -lm

# Endgame databases against the plain engine (scripts/tbconvert.sh; TB=the database file).
tbconvert: $(BIN) build/tbpick
	sh scripts/tbconvert.sh ./$(BIN) $(TB)

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)
	install -d $(DESTDIR)$(PREFIX)/share/man/man6
	install -m 644 docs/tabula.6 $(DESTDIR)$(PREFIX)/share/man/man6/tabula.6

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build $(BIN)

-include $(REL_OBJ:.o=.d) $(PGO_GEN_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(TESTDIR)/protocol/main.d \
	$(FUZZ_OBJ:.o=.d) build/fuzz/fuzz/fuzz_commands.d build/fuzz/fuzz/fuzz_position.d \
	$(wildcard build/release/tools/*.d)
