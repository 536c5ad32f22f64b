/// Parity of an asynchronous serial character.
public enum Parity: String, Sendable, CaseIterable, Codable {
    case none, even, odd
}

/// The shape of one asynchronous serial character: start bit, data bits LSB first,
/// optional parity bit, stop bits.
///
/// SoftModem boards use 8N1 (the default). Data bits 5-8 and 1 or 2 stop bits are
/// accepted; anything else is rejected by the initializer.
public struct FrameFormat: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Data bits per character, 5-8, sent LSB first.
    public let dataBits: Int
    /// The parity bit's rule, or ``Parity/none`` for no parity bit.
    public let parity: Parity
    /// Stop bits per character, 1 or 2.
    public let stopBits: Int

    /// A format of these values; throws ``ModemConfigurationError/invalidFrame(_:)`` for data bits
    /// outside 5-8 or stop bits other than 1 or 2.
    public init(dataBits: Int = 8, parity: Parity = .none, stopBits: Int = 1) throws(ModemConfigurationError) {
        guard (5...8).contains(dataBits) else { throw .invalidFrame("data bits must be 5 to 8, not \(dataBits)") }
        guard (1...2).contains(stopBits) else { throw .invalidFrame("stop bits must be 1 or 2, not \(stopBits)") }
        self.dataBits = dataBits
        self.parity = parity
        self.stopBits = stopBits
    }

    /// 8 data bits, no parity, 1 stop bit.
    public static let eightN1 = try! FrameFormat()

    /// Bits on the wire per character, start and stop bits included.
    public var bitsPerFrame: Int { 1 + dataBits + (parity == .none ? 0 : 1) + stopBits }

    /// The largest character value the format can carry.
    public var valueMask: UInt8 { UInt8(truncatingIfNeeded: (1 << dataBits) - 1) }

    /// The usual short name, such as "8N1" or "7E2".
    public var description: String {
        "\(dataBits)\(parity == .none ? "N" : parity == .even ? "E" : "O")\(stopBits)"
    }

    /// The parity bit for `value` under this format (false when there is no parity).
    @inlinable
    public func parityBit(for value: UInt8) -> Bool {
        let ones = (value & valueMask).nonzeroBitCount
        switch parity {
        case .none: return false
        case .even: return ones & 1 == 1
        case .odd: return ones & 1 == 0
        }
    }

    /// The wire bits of one character, first bit in bit 0, as mark (1) or space (0).
    ///
    /// Bits above `dataBits` in `value` are ignored.
    @inlinable
    public func wireBits(for value: UInt8) -> UInt32 {
        var bits: UInt32 = 0  // start bit is a space (0)
        var position = 1
        bits |= UInt32(value & valueMask) << position
        position += dataBits
        if parity != .none {
            if parityBit(for: value) { bits |= 1 << position }
            position += 1
        }
        for _ in 0..<stopBits {
            bits |= 1 << position
            position += 1
        }
        return bits
    }
}
