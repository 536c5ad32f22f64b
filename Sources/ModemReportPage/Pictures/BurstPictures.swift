import ModemDSP
import ModemReport

/// The pictures of one burst: its waveform with the bit clock, the mark/space amplitudes of
/// its bits (FSK) or the eye of its bit cells (HiJack).
enum BurstPictures {
    static let waveformHeight = 150

    /// Pixels across for a burst's waveform: room for each character's label.
    static func waveformWidth(_ d: BurstDetail) -> Int { min(4_000, max(1_040, d.events.count * 26)) }

    /// Min/max of the samples per pixel column (light), over it a line at every bit
    /// boundary and a dark one at every character's start, characters with errors shaded
    /// red; for FSK, each bit's (mark - space) / (mark + space) as a red step line: up is mark.
    static func waveform(_ d: BurstDetail, sampleRate: Double) -> Raster {
        let width = waveformWidth(d)
        let height = waveformHeight
        var r = Raster(width: width, height: height)
        let span = Double(max(1, d.end - d.start))
        func x(_ sample: Int64) -> Int { Int(Double(sample - d.start) / span * Double(width - 1)) }
        let bit = sampleRate / d.layout.baud
        for e in d.events where e.kind != .byte {
            r.fill(x(e.startSample), 0, x(e.endSample), height, Raster.Color(r: 255, g: 220, b: 220))
        }
        let buckets = d.waveform.allBuckets
        var peak: Float = 1e-6
        for b in buckets { peak = max(peak, abs(b.low), abs(b.high)) }
        let mid = Double(height - 1) / 2
        func y(_ v: Float) -> Int { Int(mid - Double(v / peak) * (mid - 4)) }
        r.horizontal(Int(mid), 0, width - 1, .grid)
        guard !buckets.isEmpty else { return r }
        let samplesPerBucket = Double(d.waveform.bucketLength)
        for px in 0..<width {
            let from = Int(Double(px) / Double(width) * span / samplesPerBucket)
            let to = max(from + 1, Int(Double(px + 1) / Double(width) * span / samplesPerBucket))
            guard from < buckets.count else { break }
            var low = Float.infinity
            var high = -Float.infinity
            for b in buckets[from..<min(to, buckets.count)] {
                low = min(low, b.low)
                high = max(high, b.high)
            }
            r.vertical(px, y(high), y(low), Raster.Color(r: 160, g: 185, b: 215))
        }
        for e in d.events {
            for i in 1...d.layout.bitCells {
                r.vertical(x(e.startSample + Int64(Double(i) * bit)), 0, height - 1, .clock)
            }
            r.vertical(x(e.startSample), 0, height - 1, .ink)
        }
        var last: (Int, Int)?
        for b in d.bits {
            let sum = b.mark + b.space
            guard sum > 0 else { continue }
            let level = Int(mid - Double((b.mark - b.space) / sum) * (mid - 10))
            let (x0, x1) = (x(b.start), x(b.end))
            if let (lx, ly) = last, x0 - lx < 2 * (x1 - x0) + 4 { r.vertical(lx, ly, level, .bad) }
            r.horizontal(level, x0, x1, .bad)
            r.horizontal(level + 1, x0, x1, .bad)
            last = (x1, level)
        }
        return r
    }

    /// Mark amplitude across, space amplitude up, one dot per bit, coloured by what the bit
    /// should be; the diagonal is where the demodulator's decision flips.
    static func scatter(_ d: BurstDetail) -> Raster {
        let side = 240
        var r = Raster(width: side, height: side)
        var top: Float = 1e-9
        for b in d.bits { top = max(top, b.mark, b.space) }
        r.horizontal(side - 1, 0, side - 1, .clock)
        r.vertical(0, 0, side - 1, .clock)
        r.line(0, side - 1, side - 1, 0, .clock)
        func p(_ v: Float) -> Int { Int(v / top * Float(side - 8)) + 4 }
        for b in d.bits { r.dot(p(b.mark), side - 1 - p(b.space), b.isMark ? .mark : .space, radius: 2) }
        return r
    }

    /// The eye of a Manchester line: every bit cell's samples from half a cell before it to
    /// one and a half after, overlaid; denser where more traces pass.
    static func eye(_ d: BurstDetail) -> Raster {
        let width = 320
        let height = 200
        var r = Raster(width: width, height: height, background: Raster.heat(0))
        let n = d.traceLength
        guard n > 1, d.traces.count >= n else { return r }
        var peak: Float = 1e-6
        for v in d.traces { peak = max(peak, abs(v)) }
        var counts = [Int](repeating: 0, count: width * height)
        for t in 0..<(d.traces.count / n) {
            var last: (Int, Int)?
            for i in 0..<n {
                let px = i * (width - 1) / (n - 1)
                let py = Int(Double(height - 1) / 2 * (1 - Double(d.traces[t * n + i] / peak) * 0.9))
                if let (lx, ly) = last {
                    for yy in min(ly, py)...max(ly, py) {
                        for xx in lx...px where yy >= 0 && yy < height { counts[yy * width + xx] += 1 }
                    }
                }
                last = (px, py)
            }
        }
        let most = Double(counts.max() ?? 1)
        for y in 0..<height {
            for x in 0..<width where counts[y * width + x] > 0 {
                r.set(x, y, Raster.heat(0.25 + 0.75 * (Double(counts[y * width + x]) / most).squareRoot()))
            }
        }
        // The cell boundaries: half a cell and one and a half cells into the window.
        for c in [0.25, 0.75] { r.vertical(Int(c * Double(width - 1)), 0, height - 1, .clock) }
        return r
    }
}
