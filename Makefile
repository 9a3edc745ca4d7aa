# paylinks: build, test and install the checkout simulator.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SWIFT ?= swift
# Warnings are errors everywhere, so what builds here builds in CI.
SWIFTFLAGS ?= -Xswiftc -warnings-as-errors

.PHONY: build test run release dist startup-order bench fuzz browser mutate attack docs install uninstall lint format catalog api golden clean openapi openapi-check

build:
	$(SWIFT) build $(SWIFTFLAGS)

test:
	$(SWIFT) test $(SWIFTFLAGS)

# After editing Fixtures/*.json: write the compiled built-in catalog with its generator.
catalog:
	$(SWIFT) run $(SWIFTFLAGS) generate-catalog Fixtures Sources/PaylinksKit/Catalog/BuiltInCatalog.swift

# After an intended change to the core's public API: write its listing from the symbol graph.
api:
	$(SWIFT) build $(SWIFTFLAGS) --target PaylinksKit
	$(SWIFT) run $(SWIFTFLAGS) api-listing .build/debug/Modules API/PaylinksKit.txt

# After an intended change to the output: re-record the golden files, then review the
# diff. The recording run fails on purpose, so that it can never pass unnoticed.
golden: catalog
	-PAYLINKS_RECORD_GOLDEN=1 $(SWIFT) test $(SWIFTFLAGS) --filter GoldenTests
	@echo "golden files re-recorded: review 'git diff Tests', then run 'make test'"

run:
	$(SWIFT) run $(SWIFTFLAGS) paylinks purchase --sku starter_pack_001

# A stripped binary that starts fast and needs nothing beside it: on Linux, statically
# linked against the Swift runtime.
# Type metadata is reached through accessors rather than looked up by mangled name at
# run time, which saves a tenth of the start-up work. Values are copied and destroyed by
# code made for their type (-disable-type-layout), not through "type layouts", with which
# the copy or destruction of an optional struct asks for its run-time type, made at its
# first use: without them a purchase spends 9% fewer instructions at start, a session 2%
# fewer. The command's main-actor code (the simulator, the flows, the audits) runs on the
# main thread; the server's loops, the deliveries and the log's writer run on threads of
# their own, from which the compiler lets none of it be called, and share their state
# under locks. So the run-time checks of main-actor isolation are left out: they would
# link the concurrency runtime (and libdispatch), whose start-up costs another tenth.
# On Linux the executable is also linked at a fixed address and exports none of its
# symbols: a position-independent one has 18,000 addresses the loader must fix up at
# every start (a page copied for each page of them), and the 4,000 symbols Swift exports
# by default make every look-up the loader does at start walk a larger table. Nor does
# it look for libraries beside itself ($ORIGIN), where there are none: that search costs
# 44 failed system calls a start.
# Exclusive access to a variable is proven by the compiler where it can be, and checked at
# run time in the debug builds the tests run, not in the release binary: there each access
# to a class's property or a global registered itself in a table of the thread's accesses
# and looked itself up there, a twentieth of the instructions a session cost the server.
# The modules are also optimized across their boundaries: the server's loops, generic over
# what answers them, are compiled for the sandbox, and the JSON reader's small functions
# are inlined where a request is read, not called through a protocol's table; a session
# then costs another 4% fewer instructions, an award's main thread and lane 4% fewer.
# Apple platforms have no static Swift standard library; there the binary links the
# system's Swift runtime, which every macOS since 10.14.4 carries.
# Each function is also in a section of its own, and those a start runs are laid out
# together, in the order of Sources/paylinks/startup-order.txt (make startup-order), and so
# is the data of the files whose variables it uses: a start then faults in a few pages of
# code and data, not dozens spread over the binary.
# The C++ library the Swift runtime uses is linked in too, from its archive: loading the
# shared libstdc++ costs a start 1.6 million instructions, most of them the loader looking
# up the symbols of its 5,000 relocations, more than all the rest of a start. Nothing else
# in the process uses C++, so the one copy serves all of it, and the binary no longer
# needs the system's libstdc++. The linker takes a library named with -l from the first
# folder of its search path that has it, so a folder holding only the archive, searched
# before the system's, makes it take the archive. Where the C++ compiler's libraries hold
# no archive, the folder is empty and the binary links the shared library, as before.
# The linker is LLVM's (lld) rather than gold: of the archive's code the binary keeps only
# what it calls, and gold would still have it need every C library function the rest
# names, arc4random among them, which glibc has only since 2.36, so the binary would no
# longer start on glibc 2.35 (Ubuntu 22.04). lld leaves out what only dropped code names.
ifeq ($(shell uname -s),Linux)
CXXARCHIVE := $(shell clang -print-file-name=libstdc++.a 2>/dev/null)
CXXARCHIVEDIR = $(CURDIR)/.build/libstdc++-archive
STATICFLAGS = --static-swift-stdlib --disable-local-rpath -Xswiftc -Xclang-linker -Xswiftc -no-pie \
	-Xlinker --no-export-dynamic -Xswiftc -L$(CXXARCHIVEDIR) -Xswiftc -use-ld=lld
ORDERFLAGS = -Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/Sources/paylinks/startup-order.txt \
	-Xlinker --no-warn-symbol-ordering
endif
STRIPFLAGS = -Xlinker -s
RELEASEFLAGS = -c release $(STATICFLAGS) $(ORDERFLAGS) $(STRIPFLAGS) \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xfrontend -Xswiftc -disable-dynamic-actor-isolation \
	-Xswiftc -Xfrontend -Xswiftc -disable-type-layout \
	-Xswiftc -enforce-exclusivity=unchecked -Xswiftc -cross-module-optimization

release:
ifdef CXXARCHIVEDIR
	@mkdir -p "$(CXXARCHIVEDIR)" && rm -f "$(CXXARCHIVEDIR)/libstdc++.a"
	@if test -f "$(CXXARCHIVE)"; then ln -s "$(CXXARCHIVE)" "$(CXXARCHIVEDIR)/libstdc++.a"; \
	else echo "note: no libstdc++.a beside the C++ compiler's libraries (clang -print-file-name=libstdc++.a); the binary links the system's libstdc++ and starts slower" >&2; fi
endif
	$(SWIFT) build $(RELEASEFLAGS) $(SWIFTFLAGS)

# After a change to what a start runs: write the list of the functions it runs, which the
# release build lays out together.
startup-order:
	bash Benchmarks/startup-order.sh

# Every figure against its target (Benchmarks/bench.sh): BENCH_ONLY=e,i for some sections,
# BENCH_ROUNDS=N for more rounds, BENCH_QUICK=1 for a smoke run of the script.
bench:
	bash Benchmarks/bench.sh

# The DocC documentation of the PaylinksKit library, with its getting-started article.
docs:
	$(SWIFT) build --target PaylinksKit -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir \
		-Xswiftc .build/symbol-graphs
	docc convert Sources/PaylinksKit/PaylinksKit.docc --additional-symbol-graph-dir .build/symbol-graphs \
		--fallback-display-name PaylinksKit --fallback-bundle-identifier paylinks.PaylinksKit \
		--output-path .build/docs --warnings-as-errors
	@echo "documentation: .build/docs"

# libFuzzer targets for the argument parser, the fixtures, the scenarios, the HTTP parsers
# (each linked with the transport alone, the requests answered and refused as the server
# does), a game server's answer to an award and the sandbox's journals: FUZZ_SECONDS each (60 by default), or FUZZ_RUNS
# executions each when given (make fuzz FUZZ_RUNS=10000000); FUZZ_TARGETS="fixtures
# requests" runs only those.
FUZZ_SECONDS ?= 60
export FUZZ_RUNS FUZZ_TARGETS
fuzz:
	bash Fuzz/fuzz.sh $(FUZZ_SECONDS)

# The mutation check: each mutant of Tests/Mutation/mutants.json planted in turn, the
# suite run against it; fails when one survives.
mutate:
	python3 Tests/Mutation/mutate.py

# The attack suite: hostile clients and award endpoints against paylinks serve, each case
# bounded; the normal request's latency and the server's memory are printed per case.
attack:
	$(SWIFT) build --product paylinks
	python3 Tests/Attack/attack.py "$$($(SWIFT) build --show-bin-path)/paylinks"

# The sandbox against its OpenAPI document: the document validated, then schemathesis run
# against a live paylinks serve on loopback, seeded and bounded; installs both.
openapi-check:
	$(SWIFT) build --product paylinks
	bash Tests/Shell/check-openapi.sh "$$($(SWIFT) build --show-bin-path)/paylinks"

# The sandbox's checkout page in headless Chromium, driven by Selenium; installs both.
browser:
	bash Tests/Browser/run.sh

MANDIR ?= $(PREFIX)/share/man
BASHDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHDIR ?= $(PREFIX)/share/zsh/site-functions
FISHDIR ?= $(PREFIX)/share/fish/vendor_completions.d

# The binary, the manual page and the completions, all written by the binary itself.
install: release
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(BASHDIR)" "$(DESTDIR)$(ZSHDIR)" "$(DESTDIR)$(FISHDIR)"
	install -m 755 "$$($(SWIFT) build $(RELEASEFLAGS) --show-bin-path)/paylinks" "$(DESTDIR)$(BINDIR)/paylinks"
	"$(DESTDIR)$(BINDIR)/paylinks" man > "$(DESTDIR)$(MANDIR)/man1/paylinks.1"
	"$(DESTDIR)$(BINDIR)/paylinks" completions bash > "$(DESTDIR)$(BASHDIR)/paylinks"
	"$(DESTDIR)$(BINDIR)/paylinks" completions zsh > "$(DESTDIR)$(ZSHDIR)/_paylinks"
	"$(DESTDIR)$(BINDIR)/paylinks" completions fish > "$(DESTDIR)$(FISHDIR)/paylinks.fish"

# The release tarball, in dist/: paylinks-VERSION-OS-ARCH.tar.gz, holding in one directory
# what make install installs (bin/, share/) and the README, and SHA256SUMS beside it. The
# same commit gives the same bytes: the files' order, owners and times (the commit's) are
# fixed, and gzip records no name or time. GNU tar.
DISTDIR ?= dist
dist: release
	@set -e; \
	version=$$("$$($(SWIFT) build $(RELEASEFLAGS) --show-bin-path)/paylinks" --version | cut -d ' ' -f 2); \
	name=paylinks-$$version-$$(uname -s | tr 'A-Z' 'a-z')-$$(uname -m); \
	stage=$$(mktemp -d); trap 'rm -rf "$$stage"' EXIT; \
	$(MAKE) --no-print-directory install PREFIX= DESTDIR="$$stage/$$name" >/dev/null; \
	install -m 644 README.md CHANGELOG.md "$$stage/$$name/"; \
	if [ -f LICENSE ]; then install -m 644 LICENSE "$$stage/$$name/"; fi; \
	mkdir -p "$(DISTDIR)"; \
	tar -C "$$stage" --sort=name --owner=0 --group=0 --numeric-owner --mode='u+rwX,go+rX,go-w' \
		--mtime="@$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null || echo 0)}" -cf - "$$name" | gzip -9n > "$(DISTDIR)/$$name.tar.gz"; \
	(cd "$(DISTDIR)" && sha256sum "$$name.tar.gz" > SHA256SUMS); \
	echo "$(DISTDIR)/$$name.tar.gz"; cat "$(DISTDIR)/SHA256SUMS"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/paylinks" "$(DESTDIR)$(MANDIR)/man1/paylinks.1" "$(DESTDIR)$(BASHDIR)/paylinks" \
		"$(DESTDIR)$(ZSHDIR)/_paylinks" "$(DESTDIR)$(FISHDIR)/paylinks.fish"

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Fuzz Examples

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Fuzz Examples

clean:
	rm -rf .build

# After editing Schemas/sandbox.openapi.json: write the copy the sandbox serves at
# /openapi.json, a Swift string of the same bytes (a test keeps them equal).
openapi:
	@{ printf '%s\n' '// swift-format-ignore-file' \
		'// Generated from Schemas/sandbox.openapi.json by `make openapi`; do not edit.' \
		'// A test keeps it equal to the file.' '' \
		'/// The sandbox'"'"'s OpenAPI document, the bytes of Schemas/sandbox.openapi.json.' \
		'enum SandboxOpenAPIDocument {' '    /// The document, as the sandbox serves it.' \
		'    static let text = ##"""'; cat Schemas/sandbox.openapi.json; printf '%s\n' '"""##' '}'; } \
		> Sources/PaylinksSandbox/SandboxOpenAPIDocument.swift
