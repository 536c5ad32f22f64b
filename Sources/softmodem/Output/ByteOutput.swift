import ModemAudioIO
import ModemDSP
import ModemDecoding

/// Where decoded characters go, for every modem and every receiving command: raw bytes,
/// hex (a line per burst), timestamped lines (live), or parsed messages.
///
/// One rule for times: a character's (and so a message's) time is the end of its last
/// decisive bit, in seconds from the start of the input.
struct ByteOutput: ~Copyable {
    enum Format {
        /// The bytes as they are.
        case raw
        /// Two hex digits per byte, a line per burst.
        case hex
        /// A line per byte: time, latency from its end to output (ms), hex, character.
        case timestamps
    }

    let format: Format
    /// With `--protocol`: parses the bytes and prints messages instead.
    let printer: MessagePrinter?
    private let parses: Bool
    /// Silence (samples, from one character's end to the next one's start) that starts a
    /// new hex line.
    private let gapSamples: Int64
    private var sink = ByteSink()
    private var lastEnd: Int64 = -1
    private(set) var bytes = 0

    /// - Parameter gapBits: silence in bit times that ends a burst (see ``ModemReceiverFactory/burstGapBits``).
    init(format: Format = .raw, printer: MessagePrinter?, sampleRate: Double, baud: Double, gapBits: Double) {
        self.format = format
        self.printer = printer
        parses = printer != nil
        gapSamples = Int64(gapBits * sampleRate / baud)
    }

    /// Messages printed with `--protocol`, else bytes written: what `--count` counts.
    var delivered: Int { printer?.messages ?? bytes }

    /// Writes one good character (errors are counted by the session, not written).
    /// - Parameter latency: live only, seconds from the character's end to now.
    mutating func write(_ e: ModemEvent, rate: Double, latency: Double = 0) throws(CLIError) {
        guard e.kind == .byte else { return }
        bytes += 1
        let time = Double(e.endSample) / rate
        // Tested as a flag: binding the optional reference would retain it for every byte.
        if parses {
            try printer!.push(e.value, at: time)
            return
        }
        do {
            switch format {
            case .raw:
                try sink.write(e.value)
            case .hex:
                let gap = lastEnd >= 0 && e.startSample - lastEnd > gapSamples
                try sink.write(Array(((gap ? "\n" : lastEnd >= 0 ? " " : "") + cFormat("%02x", e.value)).utf8))
            case .timestamps:
                let c = e.value >= 0x20 && e.value < 0x7f ? String(UnicodeScalar(e.value)) : "."
                try sink.write(Array((cFormat("%.4f %.1f %02x ", time, latency * 1000, e.value) + c + "\n").utf8))
            }
        } catch {
            throw CLIError(error)
        }
        lastEnd = e.endSample
    }

    /// Live: stream time has reached `time` (seconds) with no byte since the last.
    mutating func advance(to time: Double) throws(CLIError) {
        if parses { try printer!.advance(to: time) }
    }

    mutating func flush() throws(CLIError) {
        do { try sink.flush() } catch { throw CLIError(error) }
    }

    /// Ends the output: completes a message the end of input completes (unless `--count`
    /// was reached, which ends on a complete message), ends a hex line.
    mutating func finish(countReached: Bool = false) throws(CLIError) {
        if let printer, !countReached { try printer.finish() }
        if format == .hex && lastEnd >= 0 { try? sink.write(10) }
        try flush()
    }
}
