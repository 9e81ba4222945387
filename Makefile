# SPDX-License-Identifier: MIT
# The front door: `make run` and `make check` do all the set-up on a fresh
# Debian 12 machine (see README.md).  Everything else is Meson.
BUILD      ?= build
ASAN_BUILD ?= build-asan
MESON_OPTS ?=
PERFKIT     = $(BUILD)/src/cli/perfkit

.PHONY: all deps build asan run check clean

all: build

deps:
	@sh scripts/deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD) $(MESON_OPTS)

$(ASAN_BUILD)/build.ninja:
	meson setup $(ASAN_BUILD) -Db_sanitize=address,undefined -Db_lundef=false \
		-Ddefault_library=static $(MESON_OPTS)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

asan: deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

# perfkit's main job on a bundled demo: profile the workload with call chains,
# print the top of the report, write a flame graph, pprof and JSON to build/demo/.
run: build
	@sh scripts/demo.sh $(PERFKIT) $(BUILD)/tests/perfkit-workload $(BUILD)/demo

# Every test: every suite on the normal build, then every suite again under
# ASan+UBSan (the CLI suite runs the sanitized perfkit).  Each test runs in
# a private TMPDIR under <build>/tests-tmp/ and fails if it leaves anything
# there (tests/tools/tmpguard.sh).  The 'valgrind' suite (the CLI under
# memcheck) exists in the normal build only.  The last line is "N passed,
# N failed".
check: build asan
	@rm -rf $(BUILD)/tests-tmp $(ASAN_BUILD)/tests-tmp
	@meson test -C $(BUILD) --no-rebuild --print-errorlogs </dev/null >/dev/null 2>&1 || true
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		meson test -C $(ASAN_BUILD) --no-rebuild --print-errorlogs </dev/null >/dev/null 2>&1 || true
	@python3 tests/tools/summary.py $(BUILD) $(ASAN_BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
