import ModemDSP
import ModemDecoding
import ModemFraming
import Testing

@testable import ModemLive

/// A host sending a file with `softmodem send` on the far end of the in-memory line: a
/// ``ReliableSender`` whose packets are FSK bursts, listening for ACKs between them (half
/// duplex, as the live sender is).
final class FileSenderFarEnd: MemoryFarEnd {
    private var sender = ReliableSender(configuration: LinkConfiguration(baud: 1225, turnaround: 0.25))
    private var encoder = BurstEncoder(modulator: try! FSKModulator(profile: .softmodem1225, sampleRate: 44_100))
    private var demodulator = try! FSKDemodulator(DemodulatorConfiguration(profile: .softmodem1225, sampleRate: 44_100))
    private var outgoing: [Float] = []
    private var sent = 0
    private var events: [ModemEvent] = []

    init(_ messages: [[UInt8]]) {
        for m in messages { sender.send(m) }
    }

    var isIdle: Bool { sender.isIdle }
    var statistics: LinkStatistics { sender.statistics }

    func exchange(heard: UnsafeBufferPointer<Float>, sent out: UnsafeMutableBufferPointer<Float>, at frame: Int64) {
        let now = Double(frame + Int64(heard.count)) / 44_100
        if sent < outgoing.count {
            let n = min(out.count, outgoing.count - sent)
            for i in 0..<n { out[i] += outgoing[sent + i] }
            sent += n
            return
        }
        events.removeAll(keepingCapacity: true)
        demodulator.process(heard, into: &events)
        sender.receive(events.filter { $0.kind == .byte }.map(\.value), at: now)
        if let burst = sender.nextBurst(at: now) {
            outgoing = encoder.burst(burst, trailingSilence: 441)
            sent = 0
        }
    }
}

/// Another far end that, besides, requests a stop at `seconds` into the line (as Ctrl-C would).
final class StopRequestingFarEnd: MemoryFarEnd {
    let inner: any MemoryFarEnd
    let stop: StopFlag
    let seconds: Double

    init(_ inner: any MemoryFarEnd, stop: StopFlag, at seconds: Double) {
        self.inner = inner
        self.stop = stop
        self.seconds = seconds
    }

    func exchange(heard: UnsafeBufferPointer<Float>, sent: UnsafeMutableBufferPointer<Float>, at frame: Int64) {
        if Double(frame) / 44_100 >= seconds { stop.request() }
        inner.exchange(heard: heard, sent: sent, at: frame)
    }
}

/// A store in memory, with what was begun, abandoned and committed.
final class MemoryFileStore: FileStore {
    var writing: [UInt8] = []
    var committed: [(FileHeader, [UInt8])] = []
    var abandoned: [String] = []

    func begin(_ header: FileHeader) throws(FileStoreError) { writing = [] }
    func write(_ bytes: [UInt8]) throws(FileStoreError) { writing += bytes }
    func commit(_ header: FileHeader) throws(FileStoreError) { committed.append((header, writing)) }
    func abandon(_ header: FileHeader) { abandoned.append(header.name) }
}

/// `receive --device`'s loop (``LiveLink/receiveFiles(into:baud:turnaround:timeout:)``) over
/// the in-memory sound card, on its virtual clock: in well under a second of real time.
@Suite struct FileReceiveTests {
    static func file(_ name: String, _ content: [UInt8]) -> [[UInt8]] {
        [FileHeader(name: name, size: UInt64(content.count), crc: CRC32.update(0, content)).encoded, content]
    }

    @Test func aFileArrivesWholeThroughAStallAndTheLinkLingersForTheSender() throws {
        let (system, context, log) = memoryLine()
        let content = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
        let far = FileSenderFarEnd(Self.file("data.bin", content))
        system.farEnd = far
        system.faults = [.stall(at: 1.5, seconds: 1.0)]
        let store = MemoryFileStore()
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        let report = try link.receiveFiles(into: store, baud: 1225, turnaround: 0.25, timeout: 120)
        #expect(report.outcome == .received)
        #expect(report.unfinished == nil)
        #expect(store.committed.map(\.1) == [content])
        #expect(store.committed.map(\.0.name) == ["data.bin"])
        #expect(report.files.map(\.name) == ["data.bin"])
        // Every ACK got through before the link ended: the sender is done, not retrying.
        #expect(far.isIdle)
        #expect(log.notices.contains { if case .fileReceived(let h) = $0 { h.name == "data.bin" } else { false } })
        // The rate counts from the first packet to the last: not the settling, not the lingering.
        #expect(report.receivingSeconds > 0 && report.receivingSeconds < report.elapsed - 1)
        #expect(report.efficiency > 0.05 && report.efficiency < 1, "\(report.efficiency)")
    }

    @Test func aSenderThatStopsHalfWayLeavesTheFileUnfinishedAndAbandoned() throws {
        let (system, context, _) = memoryLine()
        let content = Array(repeating: UInt8(0x41), count: 200)
        // The header promises 400 bytes; only 200 come.
        let header = FileHeader(name: "half", size: 400, crc: 0)
        system.farEnd = FileSenderFarEnd([header.encoded, content])
        let store = MemoryFileStore()
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        #expect(throws: LiveError.self) {
            _ = try link.receiveFiles(into: store, baud: 1225, turnaround: 0.25, timeout: 60)
        }
        #expect(store.committed.isEmpty)
        #expect(store.abandoned == ["half"])
    }

    @Test func nothingSentTimesOutWithNoFile() throws {
        let (_, context, _) = memoryLine()
        let store = MemoryFileStore()
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        let report = try link.receiveFiles(into: store, baud: 1225, turnaround: 0.25, timeout: 3)
        #expect(report.outcome == .timedOut)
        #expect(report.unfinished == .noFile)
        #expect(report.files.isEmpty)
        #expect(report.receivingSeconds == 0 && report.bytesPerSecond == 0)
    }

    @Test func aStopRequestEndsTheReceptionAndAbandonsTheFileInProgress() throws {
        let (system, context, _) = memoryLine()
        let content = Array(repeating: UInt8(0x42), count: 2_000)
        system.farEnd = StopRequestingFarEnd(FileSenderFarEnd(Self.file("big", content)), stop: context.stop, at: 4)
        let store = MemoryFileStore()
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        let report = try link.receiveFiles(into: store, baud: 1225, turnaround: 0.25, timeout: 60)
        #expect(report.outcome == .interrupted)
        #expect(store.abandoned == ["big"])
        guard case .incomplete(let h, let received) = report.unfinished else {
            Issue.record("\(String(describing: report.unfinished))")
            return
        }
        #expect(h.name == "big" && received > 0 && received < 2_000)
    }
}
