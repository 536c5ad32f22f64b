// An example of softmodem as a library: send a file over the reliable link to a model of an
// Arduino board running the reliable-link sketch, through the in-memory sound card, with no
// sound hardware and no command-line code. The same `LiveLink.sendFile` runs
// `softmodem send FILE --device D` on ALSA; here the device is a `MemoryAudioSystem` on a
// virtual clock, so a transfer of minutes takes a fraction of a second.
//
// The board (BoardModels' `ReliableLinkBoard`) hears our audio through the arms22 library's
// receiver model and answers with its transmitter model. `--drop-acks-at SECONDS` makes our
// capture deliver nothing for a second from then, so acknowledgements are lost and packets
// are sent again. The file's content, as the board received it, goes to stdout; the
// transfer's figures to stderr.
//
//     swift run -c release send-to-board samples/all-bytes-softmodem-2450.bin --drop-acks-at 3 | cmp - samples/all-bytes-softmodem-2450.bin
import BoardModels
import ModemAudioIO
import ModemDSP
import ModemDecoding
import ModemLive
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

@main
struct SendToBoard {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var dropAt: Double?
        if let i = arguments.firstIndex(of: "--drop-acks-at"), i + 1 < arguments.count {
            dropAt = Double(arguments[i + 1])
            arguments.removeSubrange(i...(i + 1))
        }
        guard arguments.count == 1 else { fail("usage: send-to-board FILE [--drop-acks-at SECONDS]") }
        do {
            let content = try readFile(arguments[0])
            let (report, received) = try send(content, name: "file", dropAcksAt: dropAt)
            var out = ByteSink()
            try out.write(received)
            try out.flush()
            let s = report.statistics
            say(
                "\(s.payloadBytes) of \(report.totalBytes) bytes acknowledged in \(Int(report.elapsed)) s of line time, "
                    + "\(s.packetsSent) packets, \(s.retransmissions) retransmitted")
            if report.outcome != .delivered { fail("the board did not acknowledge everything") }
        } catch {
            fail("\(error)")
        }
    }

    /// Sends `content` to a board model at softmodem-1225; returns the transfer's report and
    /// the content the board received.
    static func send(_ content: [UInt8], name: String, dropAcksAt: Double?) throws -> (FileSendReport, [UInt8]) {
        let profile = ModemProfile.softmodem1225
        let card = MemoryAudioSystem(clock: VirtualClock())
        guard let board = ReliableLinkBoard(profile: profile, sampleRate: Double(card.sampleRate)) else {
            fail("no board model for \(profile.name)")
        }
        card.farEnd = board
        if let dropAcksAt { card.faults = [.stall(at: dropAcksAt, seconds: 1)] }
        let context = LiveContext(
            system: card, capture: card.captureRequest, playback: card.playbackRequest, clock: card.clock)
        var link = try LiveLink(
            context: context, settings: FSKSettings(profile: profile), preamble: 50, reporter: SilentReporter())
        let report = try link.sendFile(
            content, name: name, baud: profile.baud, preamble: 50, turnaround: 0.25, timeout: 3600)
        // The board's messages: the file header, then the content.
        return (report, board.messages.count == 2 ? board.messages[1] : [])
    }

    /// The whole file at `path` (swift-system's `open` and `read`, retrying EINTR).
    static func readFile(_ path: String) throws -> [UInt8] {
        let fd = try FileDescriptor.open(path, .readOnly)
        defer { try? fd.close() }
        var all: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0, retryOnInterrupt: true) }
            if n == 0 { return all }
            all += chunk[0..<n]
        }
    }

    static func say(_ line: String) {
        var err = ByteSink(descriptor: .standardError, name: "stderr")
        try? err.write(Array("send-to-board: \(line)\n".utf8))
        try? err.flush()
    }

    static func fail(_ line: String) -> Never {
        say(line)
        exit(1)
    }
}
