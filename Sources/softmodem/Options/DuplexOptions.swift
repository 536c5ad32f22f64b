import ArgumentParser
import ModemDSP

/// What the full-duplex commands (term, serial) take beside the modem and the device: our
/// level, the echo guard, and HiJack's line and power tone. Builds the receiver and the
/// transmitter once and runs a ``LiveBridge`` with them.
struct DuplexOptions: ParsableArguments {
    @OptionGroup var hijack: HiJackOptions
    @OptionGroup var power: PowerToneOptions

    @Option(name: .long, help: ArgumentHelp("Peak level in dBFS (-120 to 0).", valueName: "dbfs"))
    var amplitude: Double = -1

    @Option(name: .long, help: ArgumentHelp("How long after our own transmission has played its echo may still arrive, in ms (sound servers add latency).", valueName: "ms"))
    var echoGuard: Double = 500

    func validate() throws {
        guard amplitude.isFinite, (-120...0).contains(amplitude) else {
            throw ValidationError(ModemConfigurationError.invalidAmplitude(amplitude).description)
        }
        guard echoGuard.isFinite, (0...10_000).contains(echoGuard) else { throw ValidationError("--echo-guard must be 0 to 10000 ms") }
    }

    /// Chooses the concrete receiver and transmitter for `modem` once and runs the bridge
    /// with them; returns its counters and the devices' `-v` counters.
    func run(_ modem: ProfileOptions, audio: LiveAudioOptions, verbosity: VerbosityOptions, input: inout InputReader,
             output: some BridgePort, tick: () throws(CLIError) -> Bool = { true }) throws(CLIError) -> (LiveBridge.Counters, String) {
        let incoming = try modem.receiveModem(squelch: DemodulatorConfiguration.defaultSquelch, hiJackBaud: true)
        let outgoing = try modem.transmitModem(hijack: hijack, power: power)
        func bridge(_ factory: some ModemReceiverFactory) -> LiveBridge {
            LiveBridge(audio: audio, reporter: BurstReporter(verbosity: verbosity, modem: incoming, factory: factory), echoGuard: echoGuard / 1000)
        }
        switch (incoming, outgoing) {
        case (.fsk(let settings), _):
            let maker = FSKTransmitterMaker(settings: settings, amplitudeDB: amplitude, preamble: 50, postamble: 7)
            return try bridge(settings).run(settings, maker, tail: 0, input: &input, output: output, tick: tick)
        case (.hijack(let settings), .hijack(let s)):
            // The board talks at its own rate (--baud moves the receiver); we send at the
            // host's stock rate.
            let maker = HiJackTransmitterMaker(baud: HiJack.hostBaud, bytePeriod: s.bytePeriod, invert: s.invert, amplitudeDB: amplitude,
                                               preamble: 50, postamble: 7, power: power, idleLine: true)
            return try bridge(settings).run(settings, maker, tail: TxCommand.hiJackTail, input: &input, output: output, tick: tick)
        case (.hijack, _), (.auto, _):
            throw .usage("--profile \(incoming.name) cannot be used to send and receive")
        }
    }
}
