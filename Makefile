# paylinks: build, test and install the checkout simulator.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SWIFT ?= swift
# Warnings are errors everywhere, so what builds here builds in CI.
SWIFTFLAGS ?= -Xswiftc -warnings-as-errors

.PHONY: build test run release install uninstall lint format golden clean

build:
	$(SWIFT) build $(SWIFTFLAGS)

test:
	$(SWIFT) test $(SWIFTFLAGS)

# Re-record the golden files after an intended change to the output; review the diff.
golden:
	PAYLINKS_RECORD_GOLDEN=1 $(SWIFT) test $(SWIFTFLAGS) --filter GoldenTests

run:
	$(SWIFT) run $(SWIFTFLAGS) paylinks purchase --sku starter_pack_001

release:
	$(SWIFT) build -c release $(SWIFTFLAGS) --static-swift-stdlib

install: release
	install -d "$(DESTDIR)$(BINDIR)"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/paylinks" "$(DESTDIR)$(BINDIR)/paylinks"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/paylinks"

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

clean:
	rm -rf .build
