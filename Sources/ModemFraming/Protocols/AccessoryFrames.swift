/// An accessory frame ("Prynt" style), both directions:
/// `0x0F 0xF0 counter command length payload... crcHigh crcLow`.
///
/// The CRC is CRC-16/CCITT-FALSE (see ``CRC16``) over everything before it, sync bytes
/// included, sent big-endian. `length` counts payload bytes (at most ``maximumPayload``).
/// The counter increments by one per frame (mod 256); a jump reveals lost frames.
public struct AccessoryFrame: FramedMessage, Equatable {
    /// The two bytes every frame starts with, 0x0F then 0xF0.
    public static let sync: (UInt8, UInt8) = (0x0F, 0xF0)
    /// The longest payload a frame carries, in bytes; a larger length byte marks a false sync.
    public static let maximumPayload = 64
    /// Bytes a frame adds to its payload: 2 sync, counter, command, length and a 2-byte CRC.
    public static let overhead = 7

    /// The frame counter: one more than the previous frame's, wrapping from 255 to 0.
    public var counter: UInt8
    /// The command byte (e.g. ``batteryCommand``).
    public var command: UInt8
    /// The bytes after the length byte, at most ``maximumPayload``.
    public var payload: [UInt8]
    /// Frames missing between the previous frame and this one (from the counter); 0 for the first.
    public var lostBefore: Int

    /// A frame from its fields; a payload longer than ``maximumPayload`` is cut.
    public init(counter: UInt8, command: UInt8, payload: [UInt8] = [], lostBefore: Int = 0) {
        self.counter = counter
        self.command = command
        self.payload = Array(payload.prefix(Self.maximumPayload))
        self.lostBefore = lostBefore
    }

    /// The frame on the wire: sync, counter, command, length, payload, then the CRC-16
    /// big-endian.
    public var raw: [UInt8] {
        var f: [UInt8] = [Self.sync.0, Self.sync.1, counter, command, UInt8(payload.count)] + payload
        let c = CRC16.checksum(f)
        f.append(UInt8(c >> 8))
        f.append(UInt8(c & 0xFF))
        return f
    }

    /// "counter", "command", "payload" and "lost" (frames lost before this one), plus
    /// "battery" for a battery report.
    public var fields: [MessageField] {
        var f = [
            MessageField("counter", .int(Int(counter))), MessageField("command", .int(Int(command))),
            MessageField("payload", .bytes(payload)), MessageField("lost", .int(lostBefore)),
        ]
        if let level = batteryLevel { f.append(MessageField("battery", .string(level.name))) }
        return f
    }

    /// Counter, command and payload in hex, plus the loss count when frames were lost.
    public var description: String {
        "frame #\(counter) command 0x\(hexString([command])) payload \(hexString(payload))"
            + (lostBefore > 0 ? " (\(lostBefore) lost before)" : "")
    }

    /// Command byte of the battery-level report used in the examples.
    public static let batteryCommand: UInt8 = 0x10

    /// Battery level values of the battery report.
    public enum BatteryLevel: UInt8, Sendable {
        case low = 0x01
        case normal = 0x02
        case high = 0x03
        case notInitialised = 0xFF
        /// The level as shown in text and JSON output ("low", "normal", "high", "not initialised").
        public var name: String {
            switch self {
            case .low: "low"
            case .normal: "normal"
            case .high: "high"
            case .notInitialised: "not initialised"
            }
        }
    }

    /// The battery level, for a one-byte battery report.
    public var batteryLevel: BatteryLevel? {
        command == Self.batteryCommand && payload.count == 1 ? BatteryLevel(rawValue: payload[0]) : nil
    }
}

/// Builds frames with an incrementing counter.
public struct AccessoryFrameEncoder: Sendable {
    /// The counter the next ``encode(command:payload:)`` uses; it wraps from 255 to 0.
    public var nextCounter: UInt8
    /// An encoder whose first frame carries `firstCounter`.
    public init(firstCounter: UInt8 = 0) { nextCounter = firstCounter }

    /// The next frame's bytes; payloads longer than ``AccessoryFrame/maximumPayload`` are cut.
    public mutating func encode(command: UInt8, payload: [UInt8] = []) -> [UInt8] {
        defer { nextCounter &+= 1 }
        return AccessoryFrame(counter: nextCounter, command: command, payload: payload).raw
    }
}

/// Parses accessory frames. On a bad sync, length or CRC, the first held byte is discarded
/// and the rest re-examined, so a frame that starts inside garbage (or inside a damaged
/// frame) is still found. Counts frames lost according to the counter.
public struct AccessoryFrameParser: MessageParser {
    /// Bytes dropped so far while searching for a valid frame (bad sync, length or CRC).
    public private(set) var discardedBytes = 0
    /// Frames missing according to the counter, over the whole stream.
    public private(set) var lostFrames = 0
    private var held: [UInt8] = []
    private var lastCounter: UInt8?

    /// A parser with no frame held and no counter seen, so its first frame reports none lost.
    public init() {}
    /// Bytes held towards a frame not yet complete (always fewer than a full 71-byte frame).
    public var bufferedBytes: Int { held.count }

    /// Pushes one byte; each frame it completes gets ``AccessoryFrame/lostBefore`` from
    /// the counter. Damage is skipped a byte at a time; `time` is ignored.
    public mutating func push(_ byte: UInt8, at time: Double, into messages: inout [AccessoryFrame]) {
        held.append(byte)
        while !held.isEmpty {
            switch check() {
            case .incomplete:
                // A false sync can announce up to 64 bytes and hold back real frames behind
                // it; accept a later sync whose frame is complete and valid at this byte.
                if let k = laterFrameEndingHere() {
                    held.removeFirst(k)
                    discardedBytes += k
                    continue
                }
                return
            case .invalid:
                held.removeFirst()
                discardedBytes += 1
            case .frame(let f, let size):
                held.removeFirst(size)
                var frame = f
                if let last = lastCounter {
                    frame.lostBefore = Int(frame.counter &- last &- 1)
                    lostFrames += frame.lostBefore
                }
                lastCounter = frame.counter
                messages.append(frame)
            }
        }
    }

    private enum Check {
        case incomplete, invalid
        case frame(AccessoryFrame, Int)
    }

    private func laterFrameEndingHere() -> Int? {
        var k = 1
        while k + AccessoryFrame.overhead <= held.count {
            if held[k] == AccessoryFrame.sync.0 && held[k + 1] == AccessoryFrame.sync.1 {
                let length = Int(held[k + 4])
                if length <= AccessoryFrame.maximumPayload && held.count - k == length + AccessoryFrame.overhead {
                    let crc = CRC16.checksum(held[k..<(held.count - 2)])
                    if held[held.count - 2] == UInt8(crc >> 8) && held[held.count - 1] == UInt8(crc & 0xFF) { return k }
                }
            }
            k += 1
        }
        return nil
    }

    private func check() -> Check {
        if held[0] != AccessoryFrame.sync.0 { return .invalid }
        guard held.count >= 2 else { return .incomplete }
        if held[1] != AccessoryFrame.sync.1 { return .invalid }
        guard held.count >= 5 else { return .incomplete }
        let length = Int(held[4])
        if length > AccessoryFrame.maximumPayload { return .invalid }
        let size = length + AccessoryFrame.overhead
        guard held.count >= size else { return .incomplete }
        let crc = CRC16.checksum(held[0..<(size - 2)])
        guard held[size - 2] == UInt8(crc >> 8), held[size - 1] == UInt8(crc & 0xFF) else { return .invalid }
        return .frame(AccessoryFrame(counter: held[2], command: held[3], payload: Array(held[5..<(size - 2)])), size)
    }
}
