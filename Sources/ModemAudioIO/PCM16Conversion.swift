/// Converts 16-bit samples to floats at full scale 1 (x / 32768, the scaling libsndfile
/// applies to float reads; exact in Float). Writes `samples.count` values at `output`.
public func convertPCM16(_ samples: UnsafeBufferPointer<Int16>, into output: UnsafeMutablePointer<Float>) {
    for i in 0..<samples.count { output[i] = Float(samples[i]) * (1.0 / 32768) }
}
