import Foundation
import ModemAudioIO
import ModemDSP
import ModemFraming
import ModemTestSupport

/// The reliable link between a ``ReliableSender`` on the host and samples/arduino/reliable_link
/// running on the real SoftModem library in avrsim, closed in rounds: avrsim reads a whole WAV,
/// so each round the host decides what to play for the next `step` seconds (from the
/// acknowledgements heard so far), avrsim runs the firmware again from reset to the round's
/// end (it is deterministic, so earlier rounds replay exactly), and the board's output is
/// decoded for the acknowledgements of that round. To the host this is a capture path
/// `step` seconds late, like a sound server's buffers.
struct FirmwareLink {
    let profile: ModemProfile
    let firmware: String
    let dir: URL
    let step: Double
    var sender: ReliableSender
    private var encoder: BurstEncoder
    private var host: [Float] = []
    private var lineFree = 0.0
    /// Seconds of simulated time at which the host's audio starts at the comparator (avrsim's default).
    static let inputStart = 0.25
    static let sampleRate = 44_100.0
    /// When the host heard the acknowledgement that completed the transfer.
    private(set) var finishedAt: Double?
    /// When the first data packet started on the line.
    private(set) var firstData: Double?
    /// What the board wrote to its serial port.
    private(set) var delivered = Data()

    init(profile: ModemProfile, firmware: String, dir: URL, step: Double, message: [UInt8]) throws {
        self.profile = profile
        self.firmware = firmware
        self.dir = dir
        self.step = step
        let modulator = try FSKModulator(profile: profile, sampleRate: Self.sampleRate, amplitude: 0.9)
        encoder = BurstEncoder(modulator: modulator, preambleBits: 50, postambleBits: 7)
        // The capture path is a round late: the first timeout allows for that.
        sender = ReliableSender(configuration: LinkConfiguration(baud: profile.baud, turnaround: step))
        sender.send(message)
    }

    /// Runs rounds until the sender is idle or `limit` simulated seconds pass; true when idle.
    mutating func run(limit: Double) throws -> Bool {
        var start = Self.inputStart
        while start < limit && finishedAt == nil {
            let end = start + step
            var t = start
            while t < end {
                if let burst = sender.nextBurst(at: t) { play(burst, at: t) }
                t += 0.01
            }
            try emulate(until: end)
            try listen(from: start, to: end)
            start = end
        }
        return finishedAt != nil
    }

    private mutating func play(_ burst: [UInt8], at t: Double) {
        let begin = max(t, lineFree)
        if firstData == nil && sender.agreed != nil { firstData = begin }
        let index = Int(((begin - Self.inputStart) * Self.sampleRate).rounded())
        if host.count < index { host += [Float](repeating: 0, count: index - host.count) }
        host += encoder.burst(burst)
        lineFree = Self.inputStart + Double(host.count) / Self.sampleRate
    }

    private mutating func emulate(until end: Double) throws {
        let wav = dir.appendingPathComponent("host.wav").path
        let writer = try SoundFileWriter(path: wav, sampleRate: Int(Self.sampleRate), channels: 1)
        let padded = host + [Float](repeating: 0, count: Int(0.1 * Self.sampleRate))
        try padded.withUnsafeBufferPointer { try writer.write($0, channels: 1) }
        try writer.finish()
        let uart = dir.appendingPathComponent("uart.bin").path
        let r = try CLI.run(
            EmulatedBoard.avrsim,
            [
                "-t", String(end), "--volts-peak", "1.0", "-i", wav, "-o", dir.appendingPathComponent("board.wav").path,
                "-U", uart, firmware,
            ], timeout: 600)
        guard r.status == 0 else { throw EmulatedBoard.Failure("avrsim: \(r.stderr)") }
        delivered = (try? Data(contentsOf: URL(fileURLWithPath: uart))) ?? Data()
    }

    /// Decodes the board's whole output again and hands the sender this round's bytes at the
    /// round's end, when a host `step` seconds behind would have them.
    private mutating func listen(from start: Double, to end: Double) throws {
        let source = try SoundFileReader(path: dir.appendingPathComponent("board.wav").path)
        var samples = [Float](repeating: 0, count: Int(source.frames) * source.channels)
        let n = try samples.withUnsafeMutableBufferPointer { try source.read(into: $0) }
        var demodulator = try FSKDemodulator(DemodulatorConfiguration(profile: profile, sampleRate: source.sampleRate))
        var events: [ModemEvent] = []
        samples.withUnsafeBufferPointer { demodulator.process(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &events) }
        demodulator.flush(into: &events)
        for e in events where e.kind == .byte {
            let t = Double(e.endSample) / source.sampleRate
            guard t >= start && t < end else { continue }
            sender.receive(CollectionOfOne(e.value), at: end)
            if sender.isIdle && finishedAt == nil { finishedAt = t }
        }
    }

    /// Payload bytes a second from the first data packet to the last acknowledgement, as a
    /// fraction of the line's bytes a second.
    var efficiency: Double {
        guard let finishedAt, let firstData else { return 0 }
        return Double(sender.statistics.payloadBytes) / ((finishedAt - firstData) * profile.baud / 10)
    }
}
