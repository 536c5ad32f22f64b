/// What one end of the reliable link can take, stated in the link's opening exchange
/// (a ``LinkPacket/Kind/hello`` packet) so the other end sizes its packets and window to it.
///
/// Hello payload, 5 bytes (longer payloads are read by their first 5; a request adds 4 random
/// bytes and a reply repeats them, so a reply answers one request and two stations' hellos
/// never match): version (2), flags, window, largest payload, burst limit (0: none). Flags: bit 0 the end
/// listens while it talks (full duplex), bit 1 it keeps packets that arrive after a gap
/// (selective repeat; without it the sender goes back to the gap), bit 2 it repairs data
/// packets that carry Reed-Solomon parity (``LinkPacket/parityBytes``), bit 7 a request that
/// wants the far end's hello in reply.
public struct LinkCapabilities: Sendable, Equatable {
    /// Data packets the end accepts in flight (1-32: the selective acknowledgement covers 32).
    public var window: Int
    /// The largest payload it accepts in one packet (1-243).
    public var maxPayload: Int
    /// True when it receives while it transmits, so data and acknowledgements may overlap.
    public var fullDuplex: Bool
    /// True when it holds packets that arrive after a missing one; false makes the sender go
    /// back N after a loss.
    public var selective: Bool
    /// Half duplex: the most bytes it can take in one burst (a receive ring it only empties
    /// between bursts); nil when unlimited.
    public var burstBytes: Int?
    /// True when it repairs damaged bytes with the parity a data packet may carry; packets to
    /// it then carry it.
    public var corrects: Bool

    /// Clamps every field to what the wire can state.
    public init(
        window: Int, maxPayload: Int, fullDuplex: Bool, selective: Bool, burstBytes: Int? = nil, corrects: Bool = false
    ) {
        self.window = min(32, max(1, window))
        self.maxPayload = min(LinkPacket.maximumPayload, max(1, maxPayload))
        self.fullDuplex = fullDuplex
        self.selective = selective
        self.burstBytes = burstBytes.map { min(255, max(LinkPacket.wireOverhead + 1, $0)) }
        self.corrects = corrects
    }

    /// A host (softmodem on a computer): 32 packets of up to 243 bytes, full duplex, selective,
    /// repairing.
    public static let host = LinkCapabilities(
        window: 32, maxPayload: 243, fullDuplex: true, selective: true, corrects: true)

    /// `samples/arduino/reliable_link`: 8 packets of up to 64 bytes, selective (528 of its 2 KB
    /// of RAM hold the packets after a gap, so a loss costs only the packet lost: at 2450 baud
    /// the library's receiver drops about a byte in 200 and going back to the gap left 13 % of
    /// the line); SoftModem receives by interrupt while the sketch writes an acknowledgement,
    /// and the sketch empties the 31-byte ring between writes.
    public static let arduinoSketch = LinkCapabilities(window: 8, maxPayload: 64, fullDuplex: true, selective: true)

    /// A far end that stated nothing (the first link version, or a board that only reads its
    /// ring after each burst): one burst of at most 31 bytes at a time, half duplex.
    public static let arduinoRing = LinkCapabilities(
        window: 1, maxPayload: 20, fullDuplex: false, selective: false, burstBytes: 31)

    /// What two ends can do together: the smaller sizes, full duplex only when both are, the far
    /// end's buffering (selective), burst limit and repair.
    public func agreed(with far: LinkCapabilities) -> LinkCapabilities {
        LinkCapabilities(
            window: min(window, far.window), maxPayload: min(maxPayload, far.maxPayload),
            fullDuplex: fullDuplex && far.fullDuplex, selective: far.selective, burstBytes: far.burstBytes,
            corrects: far.corrects)
    }

    /// The hello payload stating these capabilities; `request` asks the far end for its own.
    public func helloPayload(request: Bool) -> [UInt8] {
        let flags = (fullDuplex ? 1 : 0) | (selective ? 2 : 0) | (corrects ? 4 : 0) | (request ? 0x80 : 0)
        return [Self.version, UInt8(flags), UInt8(window), UInt8(maxPayload), UInt8(burstBytes ?? 0)]
    }

    /// The link version this code speaks.
    public static let version: UInt8 = 2

    /// Reads a hello payload; nil when it is shorter than 5 bytes or from version 0 or 1.
    public static func fromHello(_ payload: [UInt8]) -> (capabilities: LinkCapabilities, request: Bool)? {
        guard payload.count >= 5, payload[0] >= version, payload[2] >= 1, payload[3] >= 1 else { return nil }
        let caps = LinkCapabilities(
            window: Int(payload[2]), maxPayload: Int(payload[3]), fullDuplex: payload[1] & 1 != 0,
            selective: payload[1] & 2 != 0, burstBytes: payload[4] == 0 ? nil : Int(payload[4]),
            corrects: payload[1] & 4 != 0)
        return (caps, payload[1] & 0x80 != 0)
    }
}
