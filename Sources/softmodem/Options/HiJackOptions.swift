import ArgumentParser
import ModemDSP

/// Options of the HiJack phone -> board signal (`encode --profile hijack`).
struct HiJackOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "HiJack: bit cells from one start bit to the next (14-100000; default \(HiJack.defaultBytePeriod)).",
            valueName: "cells"))
    var bytePeriod: Int?

    @Flag(name: .long, help: "HiJack: invert the data signal, for audio paths that invert it.")
    var invert = false

    /// True when any option here was given (they only make sense with the hijack profile).
    var anyGiven: Bool { bytePeriod != nil || invert }
}

/// The tone that powers a HiJack board (`encode --profile hijack`, `power`).
struct PowerToneOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "HiJack: power tone on the right channel, Hz (default: hijack 22050 at 44.1 kHz, else 21000; hijack-infinity 21000; hijack-lab11 10000).",
            valueName: "hz"))
    var powerTone: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "HiJack: power tone peak level, 0-1 of full scale; 0 disables it (default 1; hijack-lab11 0.33).",
            valueName: "level"))
    var powerAmplitude: Double?

    var anyGiven: Bool { powerTone != nil || powerAmplitude != nil }

    /// The power tone generator at a sample rate, the generation's unless overridden; a
    /// usage error for impossible values.
    func tone(sampleRate: Double, generation: HiJackGeneration) throws(CLIError) -> HiJackPowerTone {
        let own = generation.powerTone(sampleRate: sampleRate)
        let level = powerAmplitude ?? own.amplitude
        guard level.isFinite, (0...1).contains(level) else {
            throw .usage("--power-amplitude must be between 0 and 1 (full scale), not \(level)")
        }
        let frequency = powerTone ?? own.frequency
        do {
            return try HiJackPowerTone(frequency: frequency, sampleRate: sampleRate, amplitude: Float(level))
        } catch {
            throw .usage("--power-tone: \(error)")
        }
    }
}
