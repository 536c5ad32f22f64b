// How far a measured tone or bit rate may be from a profile's and still be that profile's.

extension ModemProfile {
    /// The share by which a measured tone or bit rate may differ from a profile's and still
    /// be that profile's: 5 %. One number for every such match (a signature's profile,
    /// ``ModemSignature/fits(_:)``, detection's same-sender test, the tone adapter's retune
    /// limit, the report's verdict), so they agree on which sender a profile describes
    /// (docs/detection.md, "A profile matches").
    public static let matchTolerance = 0.05

    /// True when `value` is within ``matchTolerance`` of `reference`, as a share of
    /// `reference` (the order matters: 0.952 is within 5 % of 1, while 1 is 5.04 % over 0.952).
    /// False when either is not finite, or `reference` is zero.
    public static func isWithinTolerance(_ value: Double, of reference: Double) -> Bool {
        abs(value / reference - 1) <= matchTolerance
    }
}

extension ModemProfile {
    /// True when `other`'s mark and space are each within ``matchTolerance`` of this
    /// profile's: the same tones, whatever the bit rates.
    public func hasTones(of other: ModemProfile) -> Bool {
        Self.isWithinTolerance(other.mark, of: mark) && Self.isWithinTolerance(other.space, of: space)
    }
}
