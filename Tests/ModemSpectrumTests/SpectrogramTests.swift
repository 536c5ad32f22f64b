import ModemDSP
import RealModule
import Testing

@testable import ModemSpectrum

@Suite struct SpectrogramTests {
    /// A steady tone peaks in its bin in every column at about its power; the column count
    /// stays bounded however long the input.
    @Test func toneInItsBinAndColumnsBounded() {
        let rate = 44_100.0
        let s = Spectrogram(sampleRate: rate, maxFrequency: 5_000, maxColumns: 16)
        let tone = (0..<(10 * 44_100)).map { Float(0.5 * Double.sin(2 * Double.pi * 1_000 * Double($0) / rate)) }
        tone.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {  // odd chunk sizes: the result must not depend on them
                let n = min(777, all.count - i)
                s.process(UnsafeBufferPointer(rebasing: all[i..<(i + n)]))
                i += n
            }
        }
        s.finish()
        #expect(s.columns.count <= 16 && s.columns.count >= 8)
        #expect(s.bins == Int(5_000 / s.binHz) + 1)
        let peak = s.averageSpectrum.indices.max { s.averageSpectrum[$0] < s.averageSpectrum[$1] }!
        #expect(abs(Double(peak) * s.binHz - 1_000) <= s.binHz)
        for c in s.columns { #expect(c.indices.max { c[$0] < c[$1] } == peak) }
        // Power of a 0.5-amplitude sine: 0.125, spread over the main lobe's bins.
        let lobe = s.averageSpectrum[(peak - 2)...(peak + 2)].reduce(0, +)
        #expect(abs(Decibels.power(lobe / 0.125)) < 1.5)
    }
}
