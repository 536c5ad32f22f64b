// swift-tools-version:6.1
// softmodem: an audio-jack modem for Arduino SoftModem and UMich HiJack boards.
//
// Dependency direction (enforced by this manifest; docs/design.md "Modules" has the map):
//   softmodem (CLI) -> ModemBench, ModemSerialPort, ModemReport, ModemALSA, CommandLineText, ...
//   ModemDecoding -> ModemAudioIO, ModemSpectrum -> ModemDSP; ModemAudioIO -> ModemSystem
//   ModemALSA, ModemSerialPort -> ModemLive -> ModemDecoding, ModemSpectrum, ModemFraming, ModemSystem
//     (ModemLive: no C, no ALSA)
//   ModemReport -> ModemDecoding, ModemCalibration -> ModemDSP
//   ModemBench -> BoardModels (the simulation module: only the bench, tests and examples use it)
// ModemDSP is pure Swift with no C of its own and no Foundation (its math is swift-numerics'
// RealModule), so it can build for iOS later.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// swift-numerics' RealModule: the one math library (elementary functions over the platform's
// libm through a header-only shim, no Foundation; it builds for iOS as the DSP core must).
let real: Target.Dependency = .product(name: "RealModule", package: "swift-numerics")

let package = Package(
    name: "softmodem",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "softmodem", targets: ["softmodem"]),
        .executable(name: "softmodem-report", targets: ["softmodem-report"]),
        .library(name: "ModemDSP", targets: ["ModemDSP"]),
        .library(name: "ModemSystem", targets: ["ModemSystem"]),
        .library(name: "ModemAudioIO", targets: ["ModemAudioIO"]),
        .library(name: "ModemFraming", targets: ["ModemFraming"]),
        // For fuzz/ (and bench/): the -v spectrum path and the tone adapter.
        .library(name: "ModemSpectrum", targets: ["ModemSpectrum"]),
        // For fuzz/: the decode session the command line runs (channel choice, observers).
        .library(name: "ModemDecoding", targets: ["ModemDecoding"]),
        // Live sessions over any sound system (and an in-memory one), and ALSA as one.
        .library(name: "ModemLive", targets: ["ModemLive"]),
        .library(name: "ModemALSA", targets: ["ModemALSA"]),
        .library(name: "ModemSerialPort", targets: ["ModemSerialPort"]),
        // Simulated boards and channels, for tests, benchmarks and programs without a board.
        .library(name: "BoardModels", targets: ["BoardModels"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.0"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
    ],
    targets: [
        // Thin C shims: one header each, linked through pkg-config.
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // Pseudo-terminals for `serial`: glibc hides posix_openpt and friends from Swift.
        .target(name: "CPseudoTerminal"),
        // The sound server's rates, through libpulse loaded at run time (no build dependency).
        .target(name: "CSoundServer", linkerSettings: [.linkedLibrary("dl")]),

        // DSP core: profiles, modulator, demodulator, UART framing. Pure Swift. Detection reads
        // HiJack packets with ModemFraming's parsers to name a board's generation.
        .target(name: "ModemDSP", dependencies: ["ModemFraming", real], swiftSettings: strict),

        // Files, paths and child processes through POSIX and swift-system, with one retry
        // policy and typed errors. No audio.
        .target(
            name: "ModemSystem", dependencies: [.product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strict),

        // Audio files, raw PCM, pipes (libsndfile; descriptors through ModemSystem).
        .target(
            name: "ModemAudioIO",
            dependencies: [
                "ModemDSP", "CSndFile", "ModemSystem",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict),

        // Byte protocols of the serial path and the reliable link. Pure Swift, no audio.
        .target(name: "ModemFraming", swiftSettings: strict),

        // Models of the real boards (transmitters, receivers) and of the channel between them. Pure Swift.
        // With the reliable-link sketch as a far end of ModemLive's in-memory line.
        .target(
            name: "BoardModels", dependencies: ["ModemDSP", "ModemFraming", "ModemLive", real], swiftSettings: strict),

        // Spectra of bursts (FFTW): measured tone frequencies and levels; the live level meter.
        .target(name: "ModemSpectrum", dependencies: ["ModemDSP", "CFFTW", real], swiftSettings: strict),

        // The loopback self-test: its test-signal timeline and the analysis of what came back
        // (latency, drift, response, levels, AGC, byte tests). Pure Swift, testable offline.
        .target(name: "ModemCalibration", dependencies: ["ModemDSP", "ModemFraming", real], swiftSettings: strict),

        // `inspect`: one streaming pass over a recording (overview, spectrogram, bursts, verdict),
        // and the document a report page is drawn from (an inspection or a loopback test), as
        // Codable values. Pure Swift, no Foundation.
        .target(
            name: "ModemReport",
            dependencies: [
                "ModemDSP", "ModemSpectrum", "ModemCalibration", "ModemDecoding", "ModemAudioIO",
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
            swiftSettings: strict),

        // The offline HTML page of a report document (Plot for the markup, libpng for the
        // pictures). Plot brings Foundation and its 38 MB of ICU tables, so only the
        // `softmodem-report` program links this module, never `softmodem`.
        .target(
            name: "ModemReportPage",
            dependencies: [
                "ModemDSP", "ModemReport", "ModemCalibration", "CPNG", "CommandLineText",
                .product(name: "Plot", package: "Plot"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
            swiftSettings: strict),

        // One input through one modem, as `decode`, `receive`, `inspect` and the live commands
        // run it: chunked steps, one channel-choice policy, observers plugged in. Prints nothing.
        .target(
            name: "ModemDecoding", dependencies: ["ModemDSP", "ModemAudioIO", "ModemSpectrum"],
            swiftSettings: strict),

        // Live sessions over an audio-device protocol: capture -> decode, transmit, the
        // full-duplex bridge with echo filtering, the reliable link and file sending, with an
        // injected clock and stop request; an in-memory sound card with faults for tests.
        .target(
            name: "ModemLive",
            dependencies: [
                "ModemDSP", "ModemAudioIO", "ModemDecoding", "ModemSpectrum", "ModemFraming", "ModemSystem",
            ],
            swiftSettings: strict),

        // Live audio on ALSA: capture/playback threads, a lock-free ring buffer, and the
        // ModemLive device protocols on top.
        .target(
            name: "ModemALSA", dependencies: ["CALSA", "CSoundServer", "ModemLive", "ModemSystem"],
            swiftSettings: strict),

        // The pseudo-terminal `serial` offers programs as their serial port, a bridge port.
        .target(
            name: "ModemSerialPort",
            dependencies: [
                "CPseudoTerminal", "ModemLive", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict),

        // The measurements of `softmodem bench`: error rates in noise beside theory and
        // minimodem, decode and encode throughput on dedicated threads, whole processes timed.
        .target(
            name: "ModemBench",
            dependencies: ["ModemDSP", "ModemAudioIO", "ModemDecoding", "BoardModels", "ModemSystem"],
            swiftSettings: strict),

        // The command line's words, shared by its two programs (and the report page): notes,
        // diagnoses and the options that would pin a detection, the loopback advice. No
        // library depends on it, so libraries hand over values and never name an option.
        .target(
            name: "CommandLineText",
            dependencies: [
                "ModemDSP", "ModemDecoding", "ModemCalibration", "ModemSpectrum", "ModemReport", "ModemFraming",
                "ModemLive", "ModemBench", "ModemAudioIO", "ModemSystem",
            ],
            swiftSettings: strict),

        .executableTarget(
            name: "softmodem",
            dependencies: [
                "ModemDSP", "ModemAudioIO", "BoardModels", "ModemSpectrum", "ModemDecoding",
                "ModemFraming", "ModemCalibration", "ModemReport",
                "ModemLive", "ModemALSA", "ModemSerialPort", "CommandLineText", "ModemSystem", "ModemBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict),

        // Draws report pages: reads a ReportDocument (JSON) on stdin, writes the HTML page on
        // stdout. `softmodem inspect` and `loopback --report` run it; users never do.
        .executableTarget(
            name: "softmodem-report",
            dependencies: [
                "ModemReport", "ModemReportPage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),

        // Examples of the public libraries on their own (built by `make test`; see Examples/).
        .executableTarget(
            name: "decode-wav",
            dependencies: [
                "ModemDSP", "ModemAudioIO", "ModemDecoding", .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Examples/DecodeWAV",
            swiftSettings: strict),
        .executableTarget(
            name: "send-to-board",
            dependencies: [
                "ModemDSP", "ModemAudioIO", "ModemDecoding", "ModemLive", "BoardModels",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Examples/SendToBoard",
            swiftSettings: strict),

        // The test targets' own helpers (the CLI runner, the headless browser, a report's JSON
        // round trip); not a product. The test signals are BoardModels'. No production target
        // depends on it.
        .target(
            name: "ModemTestSupport", dependencies: ["ModemDSP", "ModemFraming", "BoardModels", "ModemReport"],
            swiftSettings: strict),

        .testTarget(
            name: "ModemDSPTests",
            dependencies: ["ModemDSP", "ModemTestSupport", "BoardModels", "CommandLineText", real],
            swiftSettings: strict),
        .testTarget(
            name: "ModemDecodingTests",
            dependencies: ["ModemDecoding", "ModemDSP", "ModemTestSupport", "BoardModels", "CommandLineText"],
            swiftSettings: strict),
        .testTarget(name: "ModemSystemTests", dependencies: ["ModemSystem"], swiftSettings: strict),
        .testTarget(
            name: "ModemBenchTests", dependencies: ["ModemBench", "ModemDSP", "ModemDecoding"], swiftSettings: strict),
        .testTarget(name: "ModemAudioIOTests", dependencies: ["ModemAudioIO", "ModemDSP"], swiftSettings: strict),
        .testTarget(
            name: "ModemFramingTests", dependencies: ["ModemFraming", "ModemTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "LinkSimulationTests", dependencies: ["ModemFraming", "ModemDSP", "BoardModels"],
            swiftSettings: strict),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "ModemDSP", "ModemAudioIO", "ModemFraming", "BoardModels", "ModemTestSupport", "CommandLineText", real,
            ],
            swiftSettings: strict),
        .testTarget(
            name: "BoardModelTests",
            dependencies: ["BoardModels", "ModemDSP", "ModemTestSupport", "CommandLineText", real],
            swiftSettings: strict),
        .testTarget(
            name: "ModemReportTests",
            dependencies: [
                "ModemReport", "ModemReportPage", "ModemDSP", "ModemTestSupport", "BoardModels", "ModemAudioIO",
                "ModemDecoding",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ModemSpectrumTests",
            dependencies: ["ModemSpectrum", "ModemDSP", "ModemTestSupport", "BoardModels", "CommandLineText", real],
            swiftSettings: strict),
        .testTarget(
            name: "ModemCalibrationTests",
            dependencies: [
                "ModemCalibration", "ModemReport", "ModemReportPage", "BoardModels", "ModemDSP", "ModemTestSupport",
                "CommandLineText", real,
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HiJackTests", dependencies: ["ModemDSP", "ModemFraming", "BoardModels", "ModemTestSupport", real],
            swiftSettings: strict),
        .testTarget(
            name: "ModemLiveTests",
            dependencies: [
                "ModemLive", "ModemDecoding", "ModemFraming", "ModemDSP", "BoardModels", "ModemTestSupport",
                "ModemSystem", "CommandLineText", "ModemAudioIO", real,
            ],
            swiftSettings: strict),
        // Fixtures/: C source of an ALSA plugin the tests build themselves (not part of the target).
        .testTarget(
            name: "ALSALoopbackTests", dependencies: ["ModemALSA", "ModemTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
