public import ModemDSP
import RealModule

/// Reads the measured frequency response: the band that passes, notches inside it, and
/// which FSK profiles it allows.
public struct ResponseSummary: Sendable, Equatable {
    /// Response points less than this far below 1 kHz count as passing.
    public static let passDB = -6.0
    /// A profile needs both tones at least this high (relative to 1 kHz)...
    public static let profileDB = -10.0
    /// ...and no more than this apart.
    public static let toneSpreadDB = 10.0

    /// The lowest and highest swept frequencies of the passing band around 1 kHz.
    public var lowEdge: Double?
    /// The highest swept frequency of that band, in Hz; nil when the point nearest 1 kHz fails.
    public var highEdge: Double?
    /// Swept frequencies inside the band more than 10 dB below both neighbours' mean.
    public var notches: [Double] = []

    /// Finds the band, which ends where two points in a row fail ``passDB``, and the notches in
    /// it; everything stays empty when the point nearest 1 kHz fails or `response` is empty.
    public init(_ response: [ResponsePoint]) {
        guard
            let center = response.indices.min(by: {
                abs(response[$0].frequency - 1000) < abs(response[$1].frequency - 1000)
            }),
            response[center].relativeDB >= Self.passDB
        else { return }
        var lo = center
        var hi = center
        // A notch does not end the band: it ends where two points in a row fail.
        while lo > 0,
            response[lo - 1].relativeDB >= Self.passDB || (lo > 1 && response[lo - 2].relativeDB >= Self.passDB)
        { lo -= 1 }
        while hi < response.count - 1,
            response[hi + 1].relativeDB >= Self.passDB
                || (hi < response.count - 2 && response[hi + 2].relativeDB >= Self.passDB)
        { hi += 1 }
        lowEdge = response[lo].frequency
        highEdge = response[hi].frequency
        if hi - lo >= 2 {
            for i in (lo + 1)..<hi {
                let neighbours = (response[i - 1].relativeDB + response[i + 1].relativeDB) / 2
                if response[i].relativeDB < neighbours - 10 { notches.append(response[i].frequency) }
            }
        }
    }

    /// The response at `frequency`, interpolated in log frequency; nil outside the sweep.
    public static func gain(at frequency: Double, in response: [ResponsePoint]) -> Double? {
        guard let upper = response.firstIndex(where: { $0.frequency >= frequency }) else { return nil }
        if response[upper].frequency == frequency || upper == 0 {
            return response[upper].frequency == frequency ? response[upper].relativeDB : nil
        }
        let a = response[upper - 1]
        let b = response[upper]
        let t = Double.log(frequency / a.frequency) / Double.log(b.frequency / a.frequency)
        return a.relativeDB + t * (b.relativeDB - a.relativeDB)
    }

    /// True when both of the profile's tones pass well enough, and evenly enough.
    public static func allows(_ profile: ModemProfile, _ response: [ResponsePoint]) -> Bool {
        guard let mark = gain(at: profile.mark, in: response), let space = gain(at: profile.space, in: response) else {
            return false
        }
        return min(mark, space) >= profileDB && abs(mark - space) <= toneSpreadDB
    }
}
