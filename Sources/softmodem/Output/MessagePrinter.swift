import CommandLineText
import ModemAudioIO
import ModemFraming

/// Parses decoded bytes with one byte protocol and prints each message on stdout, a line
/// each (``MessageText`` words it: text, or with `json` one JSON object).
final class MessagePrinter {
    let proto: ByteProtocol
    let json: Bool
    private var parser: any MessageParser
    private var sink = ByteSink()
    private(set) var messages = 0
    private var lastTime = 0.0

    init(proto: ByteProtocol, json: Bool) {
        self.proto = proto
        self.json = json
        parser = proto.makeParser()
    }

    var discardedBytes: Int { parser.discardedBytes }

    func push(_ byte: UInt8, at time: Double) throws(CLIError) {
        lastTime = time
        for m in parser.pushAny(byte, at: time) { try print(m, at: time) }
    }

    /// Lets time pass with no byte (live): completes a message whose end is a pause.
    func advance(to time: Double) throws(CLIError) {
        guard time > lastTime, let m = parser.advanceAny(to: time) else { return }
        try print(m, at: lastTime)
    }

    /// Lets the end of the input count as silence (completes a trailing XBee "+++").
    func finish() throws(CLIError) {
        if let m = parser.advanceAny(to: lastTime + 3600) { try print(m, at: lastTime) }
        do { try sink.flush() } catch { throw CLIError(error) }
    }

    private func print(_ m: any FramedMessage, at time: Double) throws(CLIError) {
        messages += 1
        do {
            try sink.write(Array(MessageText.line(m, of: proto, at: time, json: json).utf8))
            try sink.write(10)
            try sink.flush()
        } catch {
            throw CLIError(error)
        }
    }
}
