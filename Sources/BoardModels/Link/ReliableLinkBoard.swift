public import ModemDSP
public import ModemFraming
public import ModemLive

/// An Arduino SoftModem board running the reliable-link sketch, on the far end of an
/// in-memory line (``MemoryAudioSystem``): what the host plays goes through the arms22
/// library's receiver model (``ArduinoSoftModemReceiver``: comparator, tick timer, 32-slot
/// ring); the sketch drains the ring into a ``ReliableReceiver`` and writes its ACKs
/// through the library's transmitter model (``ArduinoSoftModemTransmitter``: square wave,
/// divider, coupling capacitor). The payload delivered is kept in ``messages``.
///
/// As on the board, the library keeps receiving by interrupt while `SoftModem::write` blocks
/// for an ACK, but the sketch empties the 31-byte ring only after `write` returns; it states
/// ``LinkCapabilities/arduinoSketch`` in its hello.
public final class ReliableLinkBoard: MemoryFarEnd {
    private var receiver: ArduinoSoftModemReceiver
    private var transmitter: ArduinoSoftModemTransmitter
    private var link: ReliableReceiver
    private let sampleRate: Double
    private var outgoing: [Float] = []
    private var sent = 0
    private var partial: [UInt8] = []
    /// Whole messages delivered so far, in order.
    public private(set) var messages: [[UInt8]] = []
    /// Payload bytes delivered so far (whole messages and the one in progress).
    public private(set) var payloadBytes = 0

    /// A board for `profile` at the line's `sampleRate`; `turnaround` is the sketch's wait
    /// after a packet before it answers (seconds). Nil for a profile a board cannot run.
    public init?(profile: ModemProfile, sampleRate: Double, turnaround: Double = 0.04) {
        guard let timing = ArduinoSoftModemTiming(profile: profile) else { return nil }
        receiver = ArduinoSoftModemReceiver(timing: timing, sampleRate: sampleRate)
        transmitter = ArduinoSoftModemTransmitter(timing: timing, sampleRate: sampleRate)
        link = ReliableReceiver(
            configuration: LinkConfiguration(capabilities: .arduinoSketch, baud: profile.baud, turnaround: turnaround))
        self.sampleRate = sampleRate
    }

    /// Bytes the library's ring dropped because the sketch did not read them in time.
    public var ringOverflows: Int { receiver.overflowCount }

    /// What the sketch's receiving end counted.
    public var statistics: LinkStatistics { link.statistics }

    /// Plays out a pending answer (the ring filling meanwhile, unread, as `SoftModem::write`
    /// blocks); otherwise feeds the ring to the sketch and queues any answer it gives.
    public func exchange(
        heard: UnsafeBufferPointer<Float>, sent out: UnsafeMutableBufferPointer<Float>, at frame: Int64
    ) {
        let now = Double(frame + Int64(heard.count)) / sampleRate
        receiver.process(heard)
        if sent < outgoing.count {
            let n = min(out.count, outgoing.count - sent)
            for i in 0..<n { out[i] += outgoing[sent + i] }
            sent += n
            return
        }
        for d in link.receive(receiver.drain(), at: now) {
            partial += d.bytes
            payloadBytes += d.bytes.count
            if d.endOfMessage {
                messages.append(partial)
                partial = []
            }
        }
        if let ack = link.nextBurst(at: now) {
            outgoing.removeAll(keepingCapacity: true)
            sent = 0
            transmitter.write(ack, into: &outgoing)
            transmitter.idle(microseconds: 2_000, into: &outgoing)
        }
    }
}
