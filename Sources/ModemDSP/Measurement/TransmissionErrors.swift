/// Errors between the bytes sent and the bytes decoded, counted after aligning the two
/// sequences with the edit-distance (Levenshtein) alignment.
///
/// * ``byteErrors`` is the edit distance: a missing, an extra and a wrong byte each count 1.
///   Byte error rate = byteErrors / sent.
/// * ``bitErrors`` walks one optimal alignment: a substituted byte counts its differing bits
///   (1-8), a missing or an extra byte counts 8. Bit error rate = bitErrors / (8 * sent).
///   A lost byte is 8 wrong bits because the receiver delivered none of them; a phantom byte
///   is 8 because a user has to discard all of them.
///
/// The alignment is computed in a diagonal band that widens until it provably contains the
/// optimum (an alignment of cost d never leaves the band |i - j| <= d), so memory is
/// proportional to sent x distance, not sent x decoded. Empty inputs are handled: all bytes of
/// the other side are errors.
public struct TransmissionErrors: Sendable, Hashable {
    /// How many bytes were sent.
    public var sent: Int
    /// How many bytes were decoded.
    public var decoded: Int
    /// The edit distance: each wrong, missing or extra byte counts 1.
    public var byteErrors: Int
    /// Bit errors along the alignment: a wrong byte's differing bits, 8 per missing or extra byte.
    public var bitErrors: Int
    /// Sent bytes decoded as a different byte.
    public var substitutions: Int
    /// Sent bytes missing from the decoded ones.
    public var deletions: Int
    /// Decoded bytes that were never sent.
    public var insertions: Int

    /// ``byteErrors`` per byte sent; may exceed 1, and is 0 when nothing was sent (even if
    /// bytes were decoded).
    public var byteErrorRate: Double { sent == 0 ? 0 : Double(byteErrors) / Double(sent) }
    /// ``bitErrors`` per bit sent (8 per byte); may exceed 1, and is 0 when nothing was sent.
    public var bitErrorRate: Double { sent == 0 ? 0 : Double(bitErrors) / Double(8 * sent) }

    /// Aligns `decoded` with `sent` and counts the errors; either may be empty.
    public init(sent a: [UInt8], decoded b: [UInt8]) {
        sent = a.count
        decoded = b.count
        substitutions = 0
        deletions = 0
        insertions = 0
        bitErrors = 0
        byteErrors = 0
        if a.isEmpty || b.isEmpty {
            deletions = a.count
            insertions = b.count
            byteErrors = a.count + b.count
            bitErrors = 8 * byteErrors
            return
        }
        var band = max(16, abs(a.count - b.count) + 16)
        while true {
            if let result = Self.align(a, b, band: band) {
                self = result
                return
            }
            band *= 2
        }
    }

    private init(sent: Int, decoded: Int) {
        self.sent = sent
        self.decoded = decoded
        byteErrors = 0
        bitErrors = 0
        substitutions = 0
        deletions = 0
        insertions = 0
    }

    /// Banded alignment; nil when the optimum may lie outside the band.
    private static func align(_ a: [UInt8], _ b: [UInt8], band: Int) -> TransmissionErrors? {
        let n = a.count
        let m = b.count
        let width = 2 * band + 1
        let infinity = Int32.max / 2
        // cost[i][k] is D(i, j) with j = i + k - band.
        var cost = [Int32](repeating: infinity, count: (n + 1) * width)
        func index(_ i: Int, _ j: Int) -> Int? {
            let k = j - i + band
            return k >= 0 && k < width && j >= 0 && j <= m ? i * width + k : nil
        }
        for j in 0...min(m, band) { cost[index(0, j)!] = Int32(j) }
        for i in 1...n {
            let lo = max(0, i - band)
            let hi = min(m, i + band)
            if lo > hi { continue }
            for j in lo...hi {
                var best = infinity
                if j == 0 {
                    best = Int32(i)
                } else {
                    if let d = index(i - 1, j - 1) { best = min(best, cost[d] + (a[i - 1] == b[j - 1] ? 0 : 1)) }
                    if let l = index(i, j - 1) { best = min(best, cost[l] + 1) }
                }
                if let u = index(i - 1, j) { best = min(best, cost[u] + 1) }
                cost[index(i, j)!] = best
            }
        }
        guard let end = index(n, m), cost[end] <= Int32(band) else { return nil }
        var result = TransmissionErrors(sent: n, decoded: m)
        result.byteErrors = Int(cost[end])
        var i = n
        var j = m
        while i > 0 || j > 0 {
            let here = cost[index(i, j)!]
            if i > 0, j > 0, let d = index(i - 1, j - 1), cost[d] + (a[i - 1] == b[j - 1] ? 0 : 1) == here {
                if a[i - 1] != b[j - 1] {
                    result.substitutions += 1
                    result.bitErrors += (a[i - 1] ^ b[j - 1]).nonzeroBitCount
                }
                i -= 1
                j -= 1
            } else if i > 0, let u = index(i - 1, j), cost[u] + 1 == here {
                result.deletions += 1
                result.bitErrors += 8
                i -= 1
            } else {
                result.insertions += 1
                result.bitErrors += 8
                j -= 1
            }
        }
        return result
    }
}
