import ArgumentParser
import ModemDSP
import ModemLive

/// What every transmitting command (encode, tx) takes: the modem, the bytes' source (stdin,
/// `--text` or a `--protocol` message), the level, the burst's preamble and postamble, and
/// HiJack's line and power tone; checked once here.
struct TransmitOptions: ParsableArguments {
    @OptionGroup var modem: ProfileOptions
    @OptionGroup(title: "Byte protocol") var messages: ProtocolOptions
    @OptionGroup(title: "Byte protocol") var fields: MessageFieldOptions
    @OptionGroup var hijack: HiJackOptions
    @OptionGroup var power: PowerToneOptions

    @Option(name: .long, help: ArgumentHelp("Send this text instead of reading stdin.", valueName: "string"))
    var text: String?

    @Option(
        name: .long, parsing: .unconditional, help: ArgumentHelp("Peak level in dBFS (-120 to 0).", valueName: "dbfs"))
    var amplitude: Double = -1

    @Option(name: .long, help: ArgumentHelp("Mark bits (HiJack: idle 1s) before the data.", valueName: "bits"))
    var preamble = 50

    @Option(name: .long, help: ArgumentHelp("Mark bits (HiJack: idle 1s) after the data.", valueName: "bits"))
    var postamble = 7

    func validate() throws {
        guard amplitude.isFinite, (-120...0).contains(amplitude) else {
            throw ValidationError(ModemConfigurationError.invalidAmplitude(amplitude).description)
        }
        guard (0...10_000).contains(preamble), (0...10_000).contains(postamble) else {
            throw ValidationError("--preamble and --postamble must be 0 to 10000 bits")
        }
    }

    /// The modem to transmit with; options that do not apply to it are usage errors.
    func transmitModem() throws(CLIError) -> Modem { try modem.transmitModem(hijack: hijack, power: power) }

    /// The bytes given on the command line: a `--protocol` message built from the fields
    /// (and `--text`), or `--text`; nil when they are to be read from stdin.
    func message() throws(CLIError) -> [UInt8]? {
        if messages.json { throw .usage("--json applies to decoding") }
        if let p = try messages.resolved() { return try fields.encode(p, text: text) }
        return text.map { Array($0.utf8) }
    }

    /// The FSK transmitter these options describe.
    func fsk(_ settings: FSKSettings) -> FSKTransmitterMaker {
        FSKTransmitterMaker(settings: settings, amplitudeDB: amplitude, preamble: preamble, postamble: postamble)
    }

    /// The HiJack transmitter these options describe; `idleLine`: a live line (idle 1s at
    /// rest) rather than a recording's power-only lead-in.
    func hijack(_ settings: HiJackSettings, idleLine: Bool) -> HiJackTransmitterMaker {
        HiJackTransmitterMaker(
            baud: settings.sendBaud, bytePeriod: settings.bytePeriod, invert: settings.invert, amplitudeDB: amplitude,
            preamble: preamble, postamble: postamble, power: power, idleLine: idleLine, generation: settings.generation)
    }
}

/// A command that sends a message with whichever transmitter the options choose: the
/// sending is written once, generic over the transmitter, and specialised for each modem.
protocol MessageSender {
    /// Sends `message` (nil: read stdin) with the transmitter `maker` makes.
    func send<Maker: DescribedMaker>(_ maker: Maker, message: [UInt8]?) throws(CLIError)
}

extension TransmitOptions {
    /// Chooses the concrete transmitter once, from the modem, and has `sender` send the
    /// message these options give. `idleLine`: HiJack's resting data line carries idle 1s
    /// (a live line) rather than silence (a recording's power-only lead-in and tail).
    func send(with sender: some MessageSender, idleLine: Bool) throws(CLIError) {
        let modem = try transmitModem()
        let message = try message()
        switch modem {
        case .fsk(let settings):
            try sender.send(fsk(settings), message: message)
        case .auto:
            throw CLIError.usage("--profile auto finds the modem when receiving; name a profile to send")
        case .hijack(let settings):
            try sender.send(hijack(settings, idleLine: idleLine), message: message)
        }
    }
}
