/// Memoryless level changes a real path applies: gain, polarity inversion, DC offset and
/// hard clipping, in that order.
///
/// Inverted polarity is common (many microphone preamps invert); a DC offset appears on
/// cheap ADCs; clipping when a 1.6 V square wave meets a microphone input. NaN passes
/// through gain and offset and is clamped to 0 by the clipper only when clipping is on.
public struct LevelImpairments: Sendable, Hashable {
    /// Linear gain (negative inverts).
    public var gain: Float = 1
    /// Added after the gain, full-scale units.
    public var dcOffset: Float = 0
    /// Clip level (full-scale units); nil for none.
    public var clipLevel: Float?

    /// Impairments with linear `gain` (negated when `inverted`), `dcOffset` and clipping at
    /// ±`clipLevel` in full-scale units; a nil `clipLevel` means no clipping.
    public init(gain: Float = 1, inverted: Bool = false, dcOffset: Float = 0, clipLevel: Float? = nil) {
        self.gain = inverted ? -gain : gain
        self.dcOffset = dcOffset
        self.clipLevel = clipLevel
    }

    /// Applies gain, offset and clipping to `samples` in place.
    public func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        let g = gain
        let d = dcOffset
        if let c = clipLevel {
            for i in samples.indices {
                let v = samples[i] * g + d
                samples[i] = v.isNaN ? 0 : min(max(v, -c), c)
            }
        } else {
            for i in samples.indices { samples[i] = samples[i] * g + d }
        }
    }

    /// Applies the impairments to a whole array in place.
    public func process(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { process($0) }
    }
}
