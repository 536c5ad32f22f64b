import BoardModels
import ModemDSP
import ModemDecoding
import ModemLive

/// A memory device at 44.1 kHz with 10 ms periods on a fresh virtual clock, and a context
/// on it that logs its notices.
func memoryLine(echoGain: Float = 0) -> (MemoryAudioSystem, LiveContext, NoticeLog) {
    let system = MemoryAudioSystem(clock: VirtualClock())
    system.echoGain = echoGain
    system.echoDelayFrames = 2 * system.periodFrames
    let log = NoticeLog()
    let context = LiveContext(
        system: system, capture: system.captureRequest, playback: system.playbackRequest, clock: system.clock,
        notices: log)
    return (system, context, log)
}

/// What the real board sends for `bytes` at softmodem-1225 (the arms22 library's
/// transmitter model: square wave, divider, coupling capacitor), as one `write()`.
func boardSignal(_ bytes: [UInt8], sampleRate: Double = 44_100) -> [Float] {
    let timing = ArduinoSoftModemTiming(profile: .softmodem1225)!
    var tx = ArduinoSoftModemTransmitter(timing: timing, sampleRate: sampleRate)
    var out: [Float] = []
    tx.write(bytes, into: &out)
    tx.idle(microseconds: 5_000, into: &out)
    tx.flush(into: &out)
    return out
}

/// The far end's line frame at `seconds`.
func frame(_ seconds: Double) -> Int64 { Int64(seconds * 44_100) }

let settings1225 = FSKSettings(profile: .softmodem1225)

/// Polls `rx` until the clock passes `seconds`; returns the bytes decoded, then stops it.
func decode<R>(_ rx: inout LiveDecoder<R>, until seconds: Double, clock: any LiveClock) throws(LiveError) -> [UInt8] {
    var bytes: [UInt8] = []
    rx.start()
    while clock.now() < seconds {
        guard try rx.poll(timeout: 0.05) else { continue }
        bytes += rx.events.filter { $0.kind == .byte }.map(\.value)
    }
    rx.stop()
    bytes += rx.events.filter { $0.kind == .byte }.map(\.value)
    return bytes
}

/// Bytes decoded from what the far end heard (our playback), by our own receiver.
func decodeHeard(_ samples: [Float]) throws -> [UInt8] {
    var demodulator = try FSKDemodulator(DemodulatorConfiguration(profile: .softmodem1225, sampleRate: 44_100))
    var events: [ModemEvent] = []
    samples.withUnsafeBufferPointer { demodulator.process($0, into: &events) }
    demodulator.flush(into: &events)
    return events.filter { $0.kind == .byte }.map(\.value)
}

/// A byte input that hands out each piece once the clock reaches its time.
struct TimedInput: ByteInput {
    var pieces: [(at: Double, bytes: [UInt8])]
    let clock: any LiveClock
    /// Ends the input at this time (nil: never).
    var endsAt: Double?
    private(set) var buffer: [UInt8] = []

    init(_ pieces: [(at: Double, bytes: [UInt8])], clock: any LiveClock, endsAt: Double? = nil) {
        self.pieces = pieces
        self.clock = clock
        self.endsAt = endsAt
    }

    mutating func read(waiting milliseconds: Int32) throws(LiveError) -> ByteInputResult {
        if let first = pieces.first, clock.now() >= first.at {
            pieces.removeFirst()
            buffer = first.bytes
            return .bytes(first.bytes.count)
        }
        if pieces.isEmpty, let endsAt, clock.now() >= endsAt { return .end }
        return .nothing
    }
}
