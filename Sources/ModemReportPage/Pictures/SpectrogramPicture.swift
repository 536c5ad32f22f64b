import ModemDSP
import ModemReport

/// The spectrogram as a picture: time across, frequency up (0 Hz at the bottom), power on a
/// heat scale spanning 70 dB under the loudest cell; the profile's tones as dashed white
/// lines, the measured ones as solid red lines.
enum SpectrogramPicture {
    static let width = 900
    static let height = 260

    static func draw(_ a: RecordingAnalysis, measured: [Double]) -> Raster {
        var r = Raster(width: width, height: height, background: Raster.heat(0))
        let columns = a.spectrogram
        guard let bins = columns.first?.count, bins > 0 else { return r }
        var top: Float = 0
        for c in columns { for p in c where p > top { top = p } }
        let topDB = Decibels.power(Double(max(top, 1e-12)))
        for x in 0..<width {
            let c = columns[min(columns.count - 1, x * columns.count / width)]
            for y in 0..<height {
                // Each pixel row shows the strongest bin it covers.
                let lo = (height - 1 - y) * bins / height
                let hi = max(lo + 1, (height - y) * bins / height)
                var p: Float = 0
                for k in lo..<min(hi, bins) where c[k] > p { p = c[k] }
                let db = Decibels.power(Double(max(p, 1e-12)))
                r.set(x, y, Raster.heat((db - topDB + 70) / 70))
            }
        }
        let maxHz = Double(bins) * a.binHz
        func row(_ hz: Double) -> Int { height - 1 - Int(hz / maxHz * Double(height)) }
        if let n = a.nominalTones {
            for hz in [n.mark, n.space] where hz < maxHz { r.horizontal(row(hz), 0, width - 1, .white, dashed: true) }
        }
        for hz in measured where hz.isFinite && hz < maxHz { r.horizontal(row(hz), 0, width - 1, .bad) }
        return r
    }
}
