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
TEST_SRC   := $(wildcard tests/*.c)

REL_OBJ  := $(patsubst %.c,build/release/%.o,$(ENGINE_SRC) $(PROTO_SRC) protocol/main.c)
TEST_OBJ := $(patsubst %.c,$(TESTDIR)/%.o,$(ENGINE_SRC) $(PROTO_SRC) $(TEST_SRC))

.PHONY: all check run bench pgo deps install clean format format-check

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
	$(CC) $(BASE) $(DEBUG_FLAGS) $(CHECK_CFLAGS) -c -o $@ $<

$(TESTDIR)/check_tabula: $(TEST_OBJ)
	$(CC) $(BASE) $(DEBUG_FLAGS) -o $@ $^ $(CHECK_LIBS) -lm

check: $(TESTDIR)/check_tabula
	cd tests && ../$(TESTDIR)/check_tabula

run: $(BIN)
	./$(BIN)

bench: $(BIN)
	sh bench/perft.sh ./$(BIN)

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

-include $(REL_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
