import ModemDSP

/// The Hann window every spectrum here uses, in a buffer the caller owns (and deallocates),
/// with its energy (the sum of its squares) for scaling powers.
func makeHannWindow(_ n: Int) -> (window: UnsafeMutablePointer<Float>, energy: Double) {
    let window = UnsafeMutablePointer<Float>.allocate(capacity: n)
    var energy = 0.0
    for i in 0..<n {
        let w = 0.5 - 0.5 * cosine(2 * Double.pi * Double(i) / Double(n))
        window[i] = Float(w)
        energy += w * w
    }
    return (window, energy)
}
