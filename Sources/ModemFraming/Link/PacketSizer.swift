/// The payload size the sender cuts packets to: the far end's largest while packets get
/// through, smaller as losses rise, larger again as they fall.
///
/// A packet of n bytes on the wire, of which the far end repairs up to t damaged ones, gets
/// through with probability P(n) = sum over k <= t of C(n, k) p^k (1 - p)^(n - k) at a byte
/// error rate p. The rate is estimated from the recent packet loss (an average over about
/// ``memory`` packets) at the size and parity those packets had, and the payload L and parity
/// chosen are those that carry most: L / (L + h) × P(L + h), h being the framing and parity.
/// Parity costs 8 bytes a packet, so a clean line goes without.
struct PacketSizer: Sendable {
    /// The largest payload.
    let maximum: Int
    private let repairableMaximum: Int
    /// True when the far end repairs packets with parity.
    let repairable: Bool
    /// True when packets carry parity now.
    private(set) var parity = false
    private(set) var lossRate = 0.0
    private(set) var current: Int

    /// Bytes a packet adds to its payload on the wire now.
    var overhead: Int { Self.framing + (parity ? LinkPacket.parityBytes : 0) }
    /// Damaged bytes the far end repairs in a packet now.
    var repairs: Int { parity ? LinkPacket.parityBytes / 2 : 0 }
    private static let framing = LinkPacket.wireOverhead - 1
    /// Why 16 packets: long enough that one unlucky packet does not halve the size, short
    /// enough to follow a noise that comes and goes within a 20 KB file.
    static let memory = 16.0
    /// Why 8: below it the 10 bytes of framing outweigh the payload whatever the loss.
    static let minimumPayload = 8

    /// To a far end that repairs, packets are never too long for parity, so a packet cut while the
    /// line was clean can carry it when it has to go again.
    init(maximum: Int, repairable: Bool) {
        repairableMaximum = min(max(1, maximum), LinkPacket.maximumRepairablePayload)
        self.maximum = repairable ? repairableMaximum : max(1, maximum)
        self.repairable = repairable
        // Parity until the first packet shows the line is clean: a packet cut too long for a bad
        // line can never be cut again, but parity can be added to it.
        parity = repairable
        current = self.maximum
    }

    /// Starts again from `payload` bytes at most, growing as packets get through.
    mutating func restart(at payload: Int) { current = max(1, min(current, payload)) }

    mutating func record(lost: Bool) {
        lossRate += ((lost ? 1 : 0) - lossRate) / Self.memory
        let perByte = byteErrorRate(packetLoss: lossRate, bytes: current + overhead, repairs: repairs)
        var best = (share: 0.0, payload: maximum, parity: false)
        for withParity in repairable ? [false, true] : [false] {
            let top = maximum
            let h = Self.framing + (withParity ? LinkPacket.parityBytes : 0)
            let t = withParity ? LinkPacket.parityBytes / 2 : 0
            for payload in min(top, Self.minimumPayload)...top {
                let share = Double(payload) / Double(payload + h) * arrives(bytes: payload + h, perByte, repairs: t)
                if share > best.share { best = (share, payload, withParity) }
            }
        }
        // Move halfway each time, so the estimate (which depends on the size) settles.
        if best.parity != parity {
            parity = best.parity
            current = best.payload
        } else {
            current = (current + best.payload + 1) / 2
        }
    }

    /// The chance that a packet of `bytes` bytes arrives whole or repairable (`repairs` damaged
    /// bytes at most).
    func arrives(bytes n: Int, _ p: Double, repairs: Int) -> Double {
        guard p < 1 else { return 0 }
        var term = Self.power(1 - p, n)
        var sum = term
        guard repairs > 0 else { return sum }
        for k in 0..<min(repairs, n) {
            term *= Double(n - k) / Double(k + 1) * p / (1 - p)
            sum += term
        }
        return min(1, sum)
    }

    /// The byte error rate at which a packet of `bytes` bytes is lost with probability
    /// `packetLoss`, solved by bisection (the loss rises with the rate).
    func byteErrorRate(packetLoss: Double, bytes: Int, repairs: Int) -> Double {
        guard packetLoss > 0 else { return 0 }
        var low = 0.0
        var high = 1.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if 1 - arrives(bytes: bytes, mid, repairs: repairs) < packetLoss { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    static func power(_ x: Double, _ n: Int) -> Double {
        var result = 1.0
        var base = x
        var k = n
        while k > 0 {
            if k & 1 == 1 { result *= base }
            base *= base
            k >>= 1
        }
        return result
    }
}
