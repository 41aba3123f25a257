# tabula: make (optimised native build), make check (debug build + all test suites),
# make run, make bench, make pgo, make install, make clean.
# Missing build dependencies are installed with apt-get when run as root; otherwise the exact
# command to run is printed.

CC      ?= cc
PREFIX  ?= /usr/local
BIN     := tabula
PACKAGES := check libedit-dev pkg-config

WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
BASE    := -std=gnu11 -I. -pthread -MMD -MP $(WARN)
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

ENGINE_SRC := $(wildcard engine/core/*.c engine/mill/*.c)
PROTO_SRC  := $(filter-out protocol/main.c,$(wildcard protocol/*.c))
BENCH_SRC  := bench/bench.c
TEST_SRC   := $(wildcard tests/*.c)

REL_OBJ  := $(patsubst %.c,build/release/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(BENCH_SRC) protocol/main.c)
TEST_OBJ := $(patsubst %.c,$(TESTDIR)/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(BENCH_SRC) $(TEST_SRC))
# The same program built like the tests, to check that its bench signature is the release's.
DEBUG_BIN_OBJ := $(patsubst %.c,$(TESTDIR)/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(BENCH_SRC) protocol/main.c)
# The depth of the bench that `make check` compares between the release and the test build.
CHECK_BENCH_DEPTH := 5

# Bench tools with their own main(): self-play matches and evaluation tuning.
TOOL_OBJ := $(patsubst %.c,build/release/%.o,$(ENGINE_SRC) bench/play.c)

.PHONY: all check run bench tools pgo deps install clean format format-check

all: $(BIN)

deps:
	@missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	pkg-config --exists check 2>/dev/null || missing="$$missing check"; \
	pkg-config --exists libedit 2>/dev/null || missing="$$missing libedit-dev"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing missing packages:$$missing"; \
	    apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PACKAGES) >/dev/null || exit 1; \
	  else \
	    echo "Missing packages:$$missing. Install them with:"; \
	    echo "  sudo apt-get install -y $(PACKAGES)"; \
	    exit 1; \
	  fi; \
	fi

$(BIN): $(REL_OBJ)
	$(CC) $(BASE) $(RELEASE_FLAGS) $(PGO_FLAGS) -o $@ $^ $(EDIT_LIBS) -lm

build/release/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(RELEASE_FLAGS) $(PGO_FLAGS) $(EDIT_CFLAGS) -c -o $@ $<

$(TESTDIR)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(DEBUG_FLAGS) $(CHECK_CFLAGS) $(EDIT_CFLAGS) -c -o $@ $<

$(TESTDIR)/check_tabula: $(TEST_OBJ)
	$(CC) $(BASE) $(DEBUG_FLAGS) -o $@ $^ $(CHECK_LIBS) -lm

$(TESTDIR)/$(BIN): $(DEBUG_BIN_OBJ)
	$(CC) $(BASE) $(DEBUG_FLAGS) -o $@ $^ $(EDIT_LIBS) -lm

# The suites, then the bench signature: the release and the test build must count the same
# nodes position by position (only the nps may differ).
check: $(TESTDIR)/check_tabula $(TESTDIR)/$(BIN) $(BIN)
	cd tests && ../$(TESTDIR)/check_tabula
	./$(BIN) bench $(CHECK_BENCH_DEPTH) > $(TESTDIR)/bench.release
	./$(TESTDIR)/$(BIN) bench $(CHECK_BENCH_DEPTH) > $(TESTDIR)/bench.test
	@sed -i 's/ [0-9]* nps$$//' $(TESTDIR)/bench.release $(TESTDIR)/bench.test
	diff $(TESTDIR)/bench.release $(TESTDIR)/bench.test
	@tail -n 1 $(TESTDIR)/bench.test | grep -qx '[1-9][0-9]* nodes'
	@echo "bench $(CHECK_BENCH_DEPTH): $$(tail -n 1 $(TESTDIR)/bench.test) in both builds"

run: $(BIN)
	./$(BIN)

bench: $(BIN)
	sh bench/perft.sh ./$(BIN)
	sh bench/search.sh ./$(BIN)

tools: build/selfplay build/tune

build/selfplay: $(TOOL_OBJ) build/release/bench/selfplay.o
	$(CC) $(BASE) $(RELEASE_FLAGS) -o $@ $^ -lm

build/tune: $(TOOL_OBJ) build/release/bench/tune.o
	$(CC) $(BASE) $(RELEASE_FLAGS) -o $@ $^ -lm

# Profile-guided build: train on perft, then rebuild with the profile.
pgo: | deps
	$(MAKE) clean
	$(MAKE) $(BIN) PGO_FLAGS="-fprofile-generate -fprofile-update=atomic -fprofile-dir=$(CURDIR)/build/pgo"
	sh bench/perft.sh ./$(BIN) >/dev/null
	rm -rf build/release $(BIN)
	$(MAKE) $(BIN) PGO_FLAGS="-fprofile-use -fprofile-correction -fprofile-dir=$(CURDIR)/build/pgo -Wno-missing-profile"

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/$(BIN)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build $(BIN)

-include $(REL_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(TESTDIR)/protocol/main.d
