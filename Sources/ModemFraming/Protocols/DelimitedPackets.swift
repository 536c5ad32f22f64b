/// A packet that carries a payload of bytes between delimiters (COBS, SLIP): its fields and
/// its one-line text come from the payload alone.
public protocol PayloadPacket: FramedMessage {
    /// The protocol's name in the text form, e.g. "SLIP".
    static var protocolName: String { get }
    /// The bytes the packet carries, without delimiters or escapes.
    var payload: [UInt8] { get }
}

extension PayloadPacket {
    /// One field, "payload", holding the packet's bytes.
    public var fields: [MessageField] { [MessageField("payload", .bytes(payload))] }
    /// The protocol name, payload length and payload as printable text, e.g. "SLIP 2 bytes: hi".
    public var description: String { "\(Self.protocolName) \(payload.count) bytes: \(printable(payload))" }
}

/// The bytes since the last delimiter of a delimited packet protocol, at most `cap`.
///
/// A packet that grows past the cap, or that its protocol finds invalid, is broken: its
/// bytes are dropped and only its length on the wire is kept, so that it counts as
/// discarded (with its delimiter) when the delimiter comes.
struct PendingPacket {
    let cap: Int
    /// The packet's bytes so far (none once broken).
    private(set) var bytes: [UInt8] = []
    private var broken = false
    /// Bytes on the wire since the last delimiter.
    private var wireCount = 0

    init(cap: Int) { self.cap = cap }

    /// One byte of the packet: kept, unless the packet is broken or the cap is reached
    /// (which breaks it).
    mutating func append(_ byte: UInt8) {
        wireCount += 1
        guard !broken else { return }
        if bytes.count >= cap { breakPacket() } else { bytes.append(byte) }
    }

    /// One byte on the wire that adds nothing to the packet (an escape).
    mutating func skip() { wireCount += 1 }

    /// The packet cannot be valid: drop what it holds.
    mutating func breakPacket() {
        broken = true
        bytes.removeAll(keepingCapacity: true)
    }

    /// At a delimiter: the packet's bytes (possibly none), or nil when it was broken, then
    /// counted in `discarded` with its delimiter. Starts the next packet.
    mutating func end(discarded: inout Int) -> [UInt8]? {
        defer {
            bytes.removeAll(keepingCapacity: true)
            broken = false
            wireCount = 0
        }
        if broken {
            discarded += wireCount + 1
            return nil
        }
        return bytes
    }
}
