import ModemDSP
import Testing

@testable import ModemReport
@testable import ModemReportPage

@Suite struct EnvelopeTests {
    @Test func mergesToStayBounded() {
        var e = Envelope(bucketLength: 1, maxBuckets: 8)
        let samples = (0..<1000).map { Float($0 % 10) / 10 }
        samples.withUnsafeBufferPointer { e.add($0) }
        #expect(e.buckets.count < 8)
        #expect(e.count == 1000)
        #expect(e.allBuckets.map(\.high).max() == 0.9)
        #expect(e.allBuckets.map(\.low).min() == 0)
    }

    @Test func pngHasSignature() throws {
        var r = Raster(width: 10, height: 5)
        r.line(0, 0, 9, 4, .ink)
        let png = try #require(r.png())
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        #expect(r.dataURI().hasPrefix("data:image/png;base64,"))
    }
}
