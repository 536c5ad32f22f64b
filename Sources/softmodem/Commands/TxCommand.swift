import ArgumentParser
import CommandLineText
import ModemDSP
import ModemLive

/// `softmodem tx`: bytes in, sound out of an ALSA device.
struct TxCommand: ParsableCommand, MessageSender {
    static let configuration = CommandConfiguration(
        commandName: "tx",
        abstract: "Send stdin (or --text) through a sound device; exits when the last sample has played.",
        discussion: """
            Bytes that arrive together go out as one burst (preamble, characters, postamble). \
            With --keep-open the device runs from start to end and plays silence between \
            bursts, as the phone apps do, so device start-up never eats a preamble. \
            --protocol NAME builds one message from the options, as `encode --protocol` does. \
            SIGINT/SIGTERM stop reading, finish the burst and drain the device.
            """)

    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup var sending: TransmitOptions

    @Flag(name: .long, help: "Keep the device running, playing silence between bursts.")
    var keepOpen = false

    /// Idle line and power after the last byte (HiJack), so the board is still powered
    /// while it delivers the parity edge and the device does not cut the final cells.
    static let hiJackTail = 0.2

    func run() throws {
        try sending.send(with: self, idleLine: true)
    }

    func send<Maker: DescribedMaker>(_ maker: Maker, message: [UInt8]?) throws(CLIError) {
        let tail = maker.channelPlan == .dataLeftPowerRight ? Self.hiJackTail : 0
        StopSignal.install()
        let notices = NoticePrinter(verbose: verbosity.verbose)
        notices.describeTransmitter = maker.describe(sampleRate:)
        do {
            var tx = try LiveTransmitter(maker, context: audio.context(notices: notices), keepOpen: keepOpen)
            tx.start()
            if let bytes = message {
                try bytes.withUnsafeBufferPointer { b throws(LiveError) in try tx.send(b) }
            } else {
                var stdin = DescriptorInput()
                try tx.send(from: &stdin)
            }
            try tx.finish(tail: tail)
            if verbosity.verbose {
                Diagnostics.info(
                    "tx: \(LiveText.counters(tx.counters))\(StopSignal.isRequested ? " (interrupted)" : "")")
            }
        } catch {
            throw CLIError(error)
        }
    }
}
