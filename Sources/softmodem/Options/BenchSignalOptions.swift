import ArgumentParser

/// The signal a benchmark makes: its sample rate, and the seed its bytes (and noise) derive
/// from, so the same command measures the same work.
struct BenchSignalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Sample rate in Hz.", valueName: "hz"))
    var rate: Double = 44_100

    @Option(name: .long, help: ArgumentHelp("Seed of the bytes; noise seeds derive from it.", valueName: "n"))
    var seed: UInt64 = 1
}
