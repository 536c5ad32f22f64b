// swift-tools-version:6.1
// libFuzzer targets for softmodem, kept out of the main package (as bench/ is) so that its
// build and tests never see the fuzzer runtime.
//
// Build: `swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`
// (what ./run.sh does). Each target is one executable; `make fuzz` runs each for
// FUZZ_SECONDS. Seeds come from ../samples through ./make-corpus.sh.
import PackageDescription

let package = Package(
    name: "softmodem-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "softmodem", path: "..")
    ],
    targets: [
        // The decode path as the command line drives it, from library pieces.
        .target(
            name: "FuzzSupport",
            dependencies: [
                .product(name: "ModemDSP", package: "softmodem"),
                .product(name: "ModemAudioIO", package: "softmodem"),
                .product(name: "ModemSpectrum", package: "softmodem"),
                .product(name: "ModemFraming", package: "softmodem"),
                .product(name: "ModemDecoding", package: "softmodem"),
            ]),
        .executableTarget(name: "FuzzSoundFile", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzRawPCM", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzHiJack", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzProtocols", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzLink", dependencies: ["FuzzSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
