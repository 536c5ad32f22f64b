public import ModemDecoding
public import ModemFraming

/// The loop of a full-duplex session once the receiver and the transmitter are chosen: raw
/// bytes (``LiveBridge``) or reliable-link packets (``ReliableBridge``).
public protocol DuplexLoop {
    /// Runs until a stop request or the input's end; `tick` is called every pass (at least
    /// every 20 ms) and may end the session by returning false.
    func run<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, tail: Double, input: inout some ByteInput, output: some BridgePort,
        tick: () -> Bool
    ) throws(LiveError) -> BridgeReport
}

/// What a bridge did: bytes delivered and echo dropped, the devices' counters and, for the
/// reliable link, its statistics.
public struct BridgeReport {
    /// Bytes delivered to the output.
    public var received = 0
    /// Bytes dropped as the echo of our own (raw bridge) or packets of ours heard back
    /// (reliable link).
    public var echoed = 0
    /// What the receiver decoded.
    public var decoded = DecodeStats()
    /// The capture's frames, overruns, dropped frames and priority.
    public var capture = CaptureCounters(framesCaptured: 0, overruns: 0, droppedFrames: 0, isRealTime: false)
    /// Bytes sent and the playback's frames, filler silence, underruns and priority.
    public var playback = PlaybackCounters(
        bytesSent: 0, framesPlayed: 0, silenceFrames: 0, underruns: 0, isRealTime: false)
    /// The reliable link's sending and receiving statistics, packets damaged, and bytes the
    /// far end never acknowledged (lost, unless it got them and its ACK did not come back).
    public var link: ReliableLinkReport?

    /// An empty report: nothing counted yet and no link statistics.
    public init() {}
}

/// The reliable link's side of a ``BridgeReport``.
public struct ReliableLinkReport: Sendable, Equatable {
    /// What our sending end counted: packets, retransmissions, timeouts, payload acknowledged.
    public var sent: LinkStatistics
    /// What our receiving end counted: packets, duplicates, payload delivered.
    public var received: LinkStatistics
    /// Packets that arrived damaged (CRC, length, COBS).
    public var damagedPackets: Int
    /// Packets of ours heard back and dropped.
    public var echoesDropped: Int
    /// Bytes the far end had not acknowledged when the bridge stopped.
    public var unacknowledgedBytes: Int
    /// Seconds during which some of our bytes were unacknowledged: the time the link spent
    /// sending (an interactive session idles most of the time, so its whole length would say
    /// nothing of the link's speed).
    public var sendingSeconds: Double = 0
    /// Bytes a second the line carries (the modem's characters, framing bits included).
    public var lineBytesPerSecond: Double = 0

    /// Payload acknowledged over ``sendingSeconds`` (a rate of 0 before anything was sent).
    public var rate: PayloadRate {
        PayloadRate(bytes: sent.payloadBytes, seconds: sendingSeconds, lineBytesPerSecond: lineBytesPerSecond)
    }
}
