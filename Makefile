# softmodem: build, test and demo on Debian/Ubuntu with Swift installed.
# `make build` and `make demo` install the missing build packages first; `make test` adds the test tools.

SWIFT       ?= swift
CONFIG      ?= release
BIN         := .build/$(CONFIG)/softmodem
# What building and running need: the C libraries softmodem links (ALSA, FFTW, libsndfile,
# libpng) and dygraphs, which `inspect` inlines into its reports at run time. `make build`
# and `make demo` install only these.
DEB_PACKAGES := pkg-config libasound2-dev libfftw3-dev libsndfile1-dev libpng-dev libjs-dygraphs
# What `make test` adds: chromium renders inspect's reports, minimodem for interop,
# PulseAudio + ALSA plugins for the loopback tests, gcc to build their exclusive-access
# ALSA plugin, sox for signal checks, GNU time for bench/compare-minimodem.sh, espeak-ng
# and sox for the interference corpus of speech, music and tones, pyserial for the serial
# bridge test, and PipeWire with WirePlumber and pipewire-pulse for the live suite's second
# pass: Tests/ALSALoopbackTests/Fixtures/pipewire-session.sh runs them headless and takes
# the pipewire-alsa plugin from its package without installing it, since Debian 12's
# pipewire-alsa conflicts with pulseaudio), and for the emulated board (the real SoftModem
# firmware on a simulated ATmega328P, ../shared/emulated-board) the AVR toolchain, the
# Arduino core and simavr.
TEST_DEB_PACKAGES := chromium minimodem pulseaudio libasound2-plugins alsa-utils sox time gcc espeak-ng python3-serial \
                pipewire pipewire-bin wireplumber pipewire-pulse dbus-daemon pulseaudio-utils \
                gcc-avr avr-libc binutils-avr arduino-core-avr libsimavr-dev libelf-dev

.PHONY: all deps deps-test build demo test test-unit bench bench-smoke samples clean format format-check size-check doc-check

all: build

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

# The build's packages and the test tools (`make test`, the benchmarks, fuzzing).
deps-test:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_PACKAGES) $(TEST_DEB_PACKAGES)"

# The command-line tool links the Swift runtime (and FoundationEssentials, which
# swift-argument-parser imports and the report's JSON encoder uses) statically: a decode starts in about half the time (no dynamic symbol
# resolution), and the binary runs on machines without a Swift toolchain. Tests build the
# usual dynamic way.
STATIC      ?= --static-swift-stdlib

# Code generation for the processor of the machine that builds (AVX2 and FMA on current
# x86-64, as FFTW picks at run time): the demodulator's loops run 10-20 % faster. Output is
# bit-identical either way, since Swift never fuses or reorders floating-point arithmetic
# by itself. PORTABLE=1 builds for any processor of the architecture: use it for a binary
# that is to run on other machines.
ifeq ($(PORTABLE),1)
CPUFLAGS    :=
else
CPUFLAGS    := -Xswiftc -target-cpu -Xswiftc native
endif

# Linked by the toolchain's lld with packed relative relocations (DT_RELR, glibc 2.36 and
# later; the package's Depends says so): the static runtime's 92,000 relative relocations
# then cost the loader a third of the cycles, about 0.4 ms less on every start.
LINKFLAGS   ?= -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs

# Two programs: softmodem, and softmodem-report, which draws the HTML pages of `inspect` and
# `loopback --report` for it (the HTML library links Foundation and its 38 MB of ICU tables,
# which softmodem leaves out).
build: deps
	$(SWIFT) build -c $(CONFIG) --product softmodem $(STATIC) $(CPUFLAGS) $(LINKFLAGS)
	$(SWIFT) build -c $(CONFIG) --product softmodem-report $(STATIC) $(CPUFLAGS) $(LINKFLAGS)

# Decode a capture from samples/ to readable text.
demo: build
	@echo "decoding samples/hello-softmodem-1225.wav:" >&2
	@$(BIN) decode samples/hello-softmodem-1225.wav

# The whole suite: unit, round-trip, interop with minimodem, real captures,
# bad input, then the benchmarks in smoke mode.
# Formatting: swift-format (part of the toolchain) with the rules in .swift-format.
# `make format` rewrites the sources; `make format-check` (run first by `make test`) fails
# on any file the formatter would change or any rule it reports.
FORMAT_PATHS := Package.swift Sources Tests bench/Package.swift bench/Benchmarks fuzz/Package.swift fuzz/Sources

format:
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

format-check:
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)

# CONTRIBUTING's size rules: no Swift file over 350 lines, no function over 80.
size-check:
	python3 tools/check-sizes.py Sources Tests Examples bench/Benchmarks fuzz/Sources

# Every public declaration of the libraries has a doc comment (docs/design.md).
doc-check:
	python3 tools/check-doc-comments.py Sources

test: deps-test format-check size-check doc-check
	$(SWIFT) build -c $(CONFIG) $(CPUFLAGS)
	SOFTMODEM_BIN=$(CURDIR)/$(BIN) $(SWIFT) test -c $(CONFIG) $(CPUFLAGS) --parallel --skip ALSALoopbackTests
	# The live-audio loopback runs alone: on two cores the CPU-heavy suites above (fuzzing,
	# link simulation, minutes of noise) can starve the real-time sound server it talks to.
	# Twice: through PulseAudio's `pulse` device (with the kernel-rules cards), then through
	# PipeWire's `pipewire` device (with its `pulse` and `default`).
	SOFTMODEM_LIVE_STACK=pulseaudio SOFTMODEM_BIN=$(CURDIR)/$(BIN) $(SWIFT) test -c $(CONFIG) $(CPUFLAGS) --skip-build --filter ALSALoopbackTests
	SOFTMODEM_LIVE_STACK=pipewire SOFTMODEM_BIN=$(CURDIR)/$(BIN) $(SWIFT) test -c $(CONFIG) $(CPUFLAGS) --skip-build --filter ALSALoopbackTests
	$(MAKE) bench-smoke
	$(MAKE) fuzz-smoke
	$(MAKE) test-install

bench-smoke:
	@if [ -f bench/Package.swift ]; then cd bench && ./run-smoke.sh; fi

bench:
	cd bench && $(SWIFT) package $(CPUFLAGS) benchmark

# Regenerate samples/ with the project's own encoder.
samples: build
	./samples/regenerate.sh $(BIN)

# ---- Installing like a Linux tool ----
# `make install [PREFIX=/usr/local] [DESTDIR=]`: the binaries `make build` makes (softmodem
# in PREFIX/bin, its report drawer in PREFIX/lib/softmodem), one man page
# per command (softmodem, softmodem-decode, ...) and the bash, zsh and fish completions,
# all generated from the command definitions. `make deb`: the same as a Debian package.
PREFIX          ?= /usr/local
DESTDIR         ?=
# swift-argument-parser's man page generator: the tool its GenerateManual plugin runs. The
# plugin itself first rebuilds the whole package in release with its own flags (without
# the static Swift runtime) over $(BIN); the tool alone, built in debug, leaves the release
# build as it is.
GENERATE_MANUAL := .build/debug/generate-manual
# A package is for other machines: built PORTABLE unless DEB_PORTABLE=0.
DEB_PORTABLE    ?= 1
DEB_DIR         ?= .build/deb
DEB_REVISION    ?= 1
DEB_MAINTAINER  ?= softmodem maintainers <maintainers@users.noreply.a-seed-933976fa.example>
# dpkg-shlibdeps and strip for the package; lintian, man and the three shells for its test.
PACKAGING_DEB_PACKAGES := dpkg-dev binutils lintian man-db bsdextrautils bash-completion zsh fish

.PHONY: install deb test-install deps-packaging generate-manual

deps-packaging:
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(PACKAGING_DEB_PACKAGES)"

generate-manual:
	$(SWIFT) build --product generate-manual

install: build generate-manual
	packaging/install.sh $(BIN) $(GENERATE_MANUAL) "$(DESTDIR)" "$(PREFIX)"

deb: deps-packaging generate-manual
	$(MAKE) --no-print-directory build PORTABLE=$(DEB_PORTABLE)
	DEB_MAINTAINER="$(DEB_MAINTAINER)" DEB_REVISION=$(DEB_REVISION) packaging/build-deb.sh $(BIN) $(GENERATE_MANUAL) $(DEB_DIR)

# Installs into a temporary DESTDIR and builds a package, both from the release build that
# `make build` makes with the CPU flags of this run, then checks them:
# packaging/test-install.sh. That build links the Swift runtime statically and the one
# `make test` tests does not, so within `make test` this step recompiles the release build.
test-install: deps-packaging
	MAKE="$(MAKE)" PORTABLE=$(if $(filter 1,$(PORTABLE)),1,0) packaging/test-install.sh

clean:
	rm -rf .build bench/.build fuzz/.build fuzz/work

# Hardening (docs/hardening.md): coverage-guided fuzzing (fuzz/, its own package, as bench/
# is), the unit suites under AddressSanitizer and the live-audio layer under
# ThreadSanitizer, a mutation check of the command line, and a live soak over PulseAudio.
DEB_PACKAGES += python3
FUZZ_SECONDS ?= 60
SOAK_MINUTES ?= 30
MUTATIONS    ?= 3000
.PHONY: fuzz fuzz-smoke sanitize mutate-check soak

# The seed corpus takes a HiJack signal from the built softmodem when there is one.
fuzz: deps-test
	FUZZ_SECONDS=$(FUZZ_SECONDS) SOFTMODEM_BIN=$(CURDIR)/$(BIN) fuzz/run.sh

# The short run `make test` does: each target for a few seconds.
fuzz-smoke: deps-test
	FUZZ_SECONDS=5 SOFTMODEM_BIN=$(CURDIR)/$(BIN) fuzz/run.sh

sanitize: deps-test
	./fuzz/sanitize.sh

mutate-check: build
	MUTATIONS=$(MUTATIONS) fuzz/mutate-check.sh $(CURDIR)/$(BIN)

soak: build
	SOAK_MINUTES=$(SOAK_MINUTES) fuzz/soak.sh $(CURDIR)/$(BIN)
