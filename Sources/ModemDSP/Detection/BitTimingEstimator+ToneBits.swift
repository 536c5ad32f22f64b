// The length of each tone's bits, measured apart: an Arduino's are not equal.
//
// The arms22 library sends a bit as a whole number of tone cycles, each cycle a whole
// number of timer ticks, so a mark bit and a space bit need not last as long as each other
// (at 315 baud 3040 and 3120 us, at 126 baud 7168 and 7616 us; equal at 1225 and 2450).

/// The measured lengths of an FSK sender's bits of each tone, in seconds, when they differ
/// noticeably (more than ``BitTimingEstimator/unequalBitsFraction``).
public struct ToneBitLengths: Sendable, Equatable, Codable {
    /// Seconds per bit of the upper and of the lower tone.
    public var upper: Double
    /// Seconds per bit of the lower tone.
    public var lower: Double

    /// Mark's and space's bit lengths, for a sender whose mark is the upper tone or not.
    public func seconds(markIsUpper: Bool) -> (mark: Double, space: Double) {
        markIsUpper ? (upper, lower) : (lower, upper)
    }
}

extension BitTimingEstimator {
    /// Bit lengths of the two tones that differ by more than this fraction are reported
    /// apart (an Arduino's differ by 2.6 % at 315 and 630 baud, 6 % at 126); closer ones
    /// are one bit rate: a measurement over a few blocks scatters by about half a per cent.
    static let unequalBitsFraction = 0.015
    /// ... and by more than this many samples: the run lengths carry a bias of their own of
    /// under a sample (a clean 1225-baud sine sender, 36 samples a bit, reads 808 and
    /// 824 us); an Arduino's bits differ by 1.8 samples at 630 baud and 44.1 kHz.
    static let unequalBitsSamples = 1.2

    /// Each tone's bit period in samples, fitted to that tone's runs alone within
    /// ``toneBitSearch`` of `period` (the common fit): nil for a tone with fewer than 3
    /// usable runs or a poor fit.
    ///
    /// Only runs of up to 8 bits count: a run of 9 bits also fits a period 9/10 or 9/8 of
    /// the bit, inside the search, and a stream of 0x00 (space runs of 9 bits, mark runs of
    /// 1) would read its space bits 10 % short.
    static func toneBitPeriods(_ runs: [Run], around period: Double) -> (upper: Double, lower: Double)? {
        func fitted(_ upper: Bool) -> Double? {
            var best = (period: period, fit: -Double.infinity)
            var p = period * (1 - toneBitSearch)
            let cosines = turnCosines
            while p <= period * (1 + toneBitSearch) {
                var s = 0.0
                var counted = 0
                for r in runs where !r.cut && r.upper == upper {
                    let bits = Double(r.length) / p
                    guard bits >= 0.6, bits < 8.5 else { continue }
                    s += cosines[Int((bits - bits.rounded(.down)) * 1024) & 1023]
                    counted += 1
                }
                if counted >= 3, s / Double(counted) > best.fit { best = (p, s / Double(counted)) }
                p *= 1.002
            }
            return best.fit >= 0.7 ? best.period : nil
        }
        guard let upper = fitted(true), let lower = fitted(false) else { return nil }
        return (upper, lower)
    }

    /// How far from the common bit period each tone's own is looked for: beyond an
    /// Arduino's +-3 %, short of the alias of an 8-bit run (8/9 of the bit).
    static let toneBitSearch = 0.07
}
