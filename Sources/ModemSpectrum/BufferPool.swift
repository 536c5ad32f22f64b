import ModemDSP
import RealModule

/// Raw buffers that live exactly as long as their owner: each comes filled with a value, and
/// all are freed together when the pool goes.
///
/// The analysers keep these pointers in `let` properties and touch them per sample; an
/// array property would pay a dynamic exclusivity check and a uniqueness check on every
/// access. Only for trivial element types (numbers, tuples of numbers): nothing is
/// deinitialised.
final class BufferPool {
    private var buffers: [UnsafeMutableRawPointer] = []

    init() {}

    deinit {
        for b in buffers { b.deallocate() }
    }

    /// `count` elements, each `value`.
    func allocate<Element>(_ count: Int, repeating value: Element) -> UnsafeMutablePointer<Element> {
        let p = UnsafeMutablePointer<Element>.allocate(capacity: count)
        p.initialize(repeating: value, count: count)
        buffers.append(UnsafeMutableRawPointer(p))
        return p
    }

    /// `count` zeros.
    func zeroed<Element: Numeric>(_ count: Int) -> UnsafeMutablePointer<Element> { allocate(count, repeating: 0) }

    /// A Hann window of `n` points and its energy (the sum of its squares).
    func hannWindow(_ n: Int) -> (window: UnsafeMutablePointer<Float>, energy: Double) {
        let window: UnsafeMutablePointer<Float> = zeroed(n)
        var energy = 0.0
        for i in 0..<n {
            let w = 0.5 - 0.5 * Double.cos(2 * Double.pi * Double(i) / Double(n))
            window[i] = Float(w)
            energy += w * w
        }
        return (window, energy)
    }
}
