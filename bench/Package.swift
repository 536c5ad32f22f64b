// swift-tools-version:6.1
// Benchmarks for softmodem, kept out of the main package so that `swift build` and
// `swift test` there never fetch or build package-benchmark.
//
// Run: `make bench` (or `swift package --disable-sandbox benchmark` in this directory).
// Smoke run for CI: `./run-smoke.sh`. Allocation gates: `Thresholds/`.
import PackageDescription

let package = Package(
    name: "softmodem-bench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "softmodem", path: ".."),
        // ordo-one/package-benchmark, renamed ordo-one/benchmark. Only the malloc interposer
        // trait: it counts allocations without jemalloc, and leaving out the default
        // RuntimeInterposer trait drops a dependency that only serves ARC counting.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ModemBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ModemDSP", package: "softmodem"),
                .product(name: "ModemAudioIO", package: "softmodem"),
                .product(name: "BoardModels", package: "softmodem"),
            ],
            path: "Benchmarks/ModemBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
    ],
    swiftLanguageModes: [.v6]
)
