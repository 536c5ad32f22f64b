import ArgumentParser
import CommandLineText
import ModemDSP
import ModemDecoding
import ModemLive

/// What the full-duplex commands (term, serial) take beside the modem and the device: our
/// level, the echo guard, the reliable link, the profile to send with when receiving with
/// `auto`, and HiJack's line and power tone. Builds the receiver and the transmitter once and
/// runs a ``LiveBridge`` (or, with `--reliable`, a ``ReliableBridge``) with them.
struct DuplexOptions: ParsableArguments {
    @OptionGroup var hijack: HiJackOptions
    @OptionGroup var power: PowerToneOptions

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Peak level in dBFS (-120 to 0).", valueName: "dbfs"))
    var amplitude: Double = -1

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How long after our own transmission has played its echo may still arrive, in ms (sound servers add latency).",
            valueName: "ms"))
    var echoGuard: Double = 500

    @Flag(
        name: .long,
        help:
            "Carry the bytes as reliable-link packets (acknowledged, retransmitted): each arrives once and in order, or the loss is reported. The far end must run it too."
    )
    var reliable = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --profile auto (which only receives): the FSK profile to send with, 8N1 (default softmodem-1225).",
            valueName: "name"))
    var sendProfile: ProfileName?

    static let defaultSendProfile = ProfileName(.softmodem1225)

    func validate() throws {
        guard amplitude.isFinite, (-120...0).contains(amplitude) else {
            throw ValidationError(ModemConfigurationError.invalidAmplitude(amplitude).description)
        }
        guard echoGuard.isFinite, (0...10_000).contains(echoGuard) else {
            throw ValidationError("--echo-guard must be 0 to 10000 ms")
        }
    }

    /// Chooses the concrete receiver and transmitter for `modem` once and runs the bridge
    /// with them; returns its report. `waitsForDevice`: a device that stops delivering audio
    /// or goes away is waited for, not an error (``CaptureReader``). Bytes the reliable link
    /// never got acknowledged are an error, after the `-v` report.
    func run(
        _ modem: ProfileOptions, audio: LiveAudioOptions, verbosity: VerbosityOptions, waitsForDevice: Bool = false,
        input: inout some ByteInput, output: some BridgePort, tick: () -> Bool = { true }
    ) throws(CLIError) -> BridgeReport {
        let incoming = try modem.receiveModem(squelch: DemodulatorConfiguration.defaultSquelch, hiJackBaud: true)
        let outgoing = try sendingOptions(modem).transmitModem(hijack: hijack, power: power)
        let reporter = BurstReporter(verbosity: verbosity, modem: incoming)
        let notices = NoticePrinter(verbose: verbosity.verbose)
        notices.modemName = reporter.modemName
        let context = audio.context(notices: notices)
        StopSignal.install()
        let report: BridgeReport
        if reliable {
            var bridge = ReliableBridge(context: context, reporter: reporter, echoGuard: echoGuard / 1000)
            bridge.waitsForDevice = waitsForDevice
            report = try run(bridge, incoming, outgoing, notices, input: &input, output: output, tick: tick)
        } else {
            var bridge = LiveBridge(context: context, reporter: reporter, echoGuard: echoGuard / 1000)
            bridge.waitsForDevice = waitsForDevice
            report = try run(bridge, incoming, outgoing, notices, input: &input, output: output, tick: tick)
        }
        if let lost = report.link?.unacknowledgedBytes, lost > 0 {
            if verbosity.verbose { Diagnostics.info(LiveText.bridge(report)) }
            throw .runtime(
                "reliable link: \(lost) bytes written were never acknowledged by the far end and may be lost")
        }
        return report
    }

    /// How the modem is named in announcements: the profile, the one sent with when
    /// receiving with auto, and the reliable link.
    func describe(_ modem: ProfileOptions) -> String {
        var text = modem.profile.name
        if modem.profile.isAuto { text += ", sending \((sendProfile ?? Self.defaultSendProfile).name)" }
        return text + (reliable ? ", reliable link" : "")
    }

    /// The options to send with: the received profile's, or with `--profile auto` the one
    /// `--send-profile` names (softmodem-1225 by default) in 8N1.
    private func sendingOptions(_ modem: ProfileOptions) throws(CLIError) -> ProfileOptions {
        guard modem.profile.isAuto else {
            if sendProfile != nil {
                throw .usage("--send-profile applies to --profile auto; the profile named sends and receives")
            }
            return modem
        }
        let name = sendProfile ?? Self.defaultSendProfile
        if name.isAuto || name.isHiJack { throw .usage("--send-profile must name an FSK profile, not \(name.name)") }
        do {
            return try ProfileOptions.parse(["--profile", name.name])
        } catch {
            throw .usage(ProfileOptions.message(for: error))
        }
    }

    private func run(
        _ loop: some DuplexLoop, _ incoming: Modem, _ outgoing: Modem, _ notices: NoticePrinter,
        input: inout some ByteInput, output: some BridgePort, tick: () -> Bool
    ) throws(CLIError) -> BridgeReport {
        switch (incoming, outgoing) {
        case (.fsk(let settings), .fsk(let sent)):
            let maker = FSKTransmitterMaker(settings: sent, amplitudeDB: amplitude, preamble: 50, postamble: 7)
            return try run(loop, settings, maker, tail: 0, notices, input: &input, output: output, tick: tick)
        case (.auto(let settings), .fsk(let sent)):
            let maker = FSKTransmitterMaker(settings: sent, amplitudeDB: amplitude, preamble: 50, postamble: 7)
            return try run(loop, settings, maker, tail: 0, notices, input: &input, output: output, tick: tick)
        case (.hijack(let settings), .hijack(let s)):
            // The board talks at its own rate (--baud moves the receiver); we send at the
            // host's stock rate.
            let maker = HiJackTransmitterMaker(
                baud: s.generation.hostBaud, bytePeriod: s.bytePeriod, invert: s.invert, amplitudeDB: amplitude,
                preamble: 50, postamble: 7, power: power, idleLine: true, generation: s.generation)
            return try run(
                loop, settings, maker, tail: TxCommand.hiJackTail, notices, input: &input, output: output, tick: tick)
        default:
            throw .usage("--profile \(incoming.name) cannot be used to send and receive")
        }
    }

    private func run<Factory: ObservedReceiverFactory, Maker: DescribedMaker>(
        _ loop: some DuplexLoop, _ factory: Factory, _ maker: Maker, tail: Double, _ notices: NoticePrinter,
        input: inout some ByteInput, output: some BridgePort, tick: () -> Bool
    ) throws(CLIError) -> BridgeReport {
        notices.describeTransmitter = maker.describe(sampleRate:)
        do {
            return try loop.run(factory, maker, tail: tail, input: &input, output: output, tick: tick)
        } catch {
            throw CLIError(error)
        }
    }
}
