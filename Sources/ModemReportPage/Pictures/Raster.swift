internal import CPNG
import ExtrasBase64
import ModemReport

/// An RGB picture drawn pixel by pixel, encoded as PNG by libpng (its simplified API):
/// the report's spectrogram, waveforms and eye pictures. Drawing clips to the picture.
struct Raster {
    struct Color: Equatable {
        var r: UInt8, g: UInt8, b: UInt8
        static let white = Color(r: 255, g: 255, b: 255)
        static let grid = Color(r: 225, g: 225, b: 225)
        static let ink = Color(r: 40, g: 40, b: 40)
        static let mark = Color(r: 31, g: 119, b: 180)
        static let space = Color(r: 230, g: 120, b: 20)
        static let bad = Color(r: 214, g: 39, b: 40)
        static let clock = Color(r: 150, g: 150, b: 150)
    }

    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int, background: Color = .white) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 3)
        fill(0, 0, self.width, self.height, background)
    }

    mutating func set(_ x: Int, _ y: Int, _ c: Color) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = c.r
        pixels[i + 1] = c.g
        pixels[i + 2] = c.b
    }

    /// The rectangle from (x0, y0) up to but not including (x1, y1).
    mutating func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ c: Color) {
        for y in max(0, y0)..<max(max(0, y0), min(height, y1)) {
            for x in max(0, x0)..<max(max(0, x0), min(width, x1)) { set(x, y, c) }
        }
    }

    mutating func vertical(_ x: Int, _ y0: Int, _ y1: Int, _ c: Color) {
        for y in min(y0, y1)...max(y0, y1) { set(x, y, c) }
    }

    mutating func horizontal(_ y: Int, _ x0: Int, _ x1: Int, _ c: Color, dashed: Bool = false) {
        for x in min(x0, x1)...max(x0, x1) where !dashed || (x / 4) % 2 == 0 { set(x, y, c) }
    }

    /// A straight line (Bresenham).
    mutating func line(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ c: Color) {
        var x = x0
        var y = y0
        let dx = abs(x1 - x0)
        let dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1
        let sy = y0 < y1 ? 1 : -1
        var err = dx + dy
        while true {
            set(x, y, c)
            if x == x1 && y == y1 { return }
            let e2 = 2 * err
            if e2 >= dy {
                err += dy
                x += sx
            }
            if e2 <= dx {
                err += dx
                y += sy
            }
        }
    }

    /// A filled square dot of side 2 * radius + 1.
    mutating func dot(_ x: Int, _ y: Int, _ c: Color, radius: Int = 1) {
        fill(x - radius, y - radius, x + radius + 1, y + radius + 1, c)
    }

    /// The colour of a value from 0 (dark blue) through green and yellow to 1 (white-ish).
    static func heat(_ v: Double) -> Color {
        let t = min(1, max(0, v.isFinite ? v : 0))
        let stops: [(Double, Double, Double)] = [
            (10, 10, 40), (40, 40, 140), (20, 150, 140), (120, 210, 60), (250, 230, 60), (255, 255, 230),
        ]
        let p = t * Double(stops.count - 1)
        let i = min(stops.count - 2, Int(p))
        let f = p - Double(i)
        let a = stops[i]
        let b = stops[i + 1]
        return Color(r: UInt8(a.0 + (b.0 - a.0) * f), g: UInt8(a.1 + (b.1 - a.1) * f), b: UInt8(a.2 + (b.2 - a.2) * f))
    }

    /// The picture as PNG bytes, or nil if libpng refuses it.
    func png() -> [UInt8]? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_RGB)
        var size = 0
        // First call sizes the output, the second fills it.
        let sized = pixels.withUnsafeBytes { p in
            png_image_write_to_memory(&image, nil, &size, 0, p.baseAddress, Int32(width * 3), nil)
        }
        guard sized != 0, size > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { o in
            pixels.withUnsafeBytes { p in
                png_image_write_to_memory(&image, o.baseAddress, &size, 0, p.baseAddress, Int32(width * 3), nil)
            }
        }
        png_image_free(&image)
        guard written != 0 else { return nil }
        return Array(out[0..<size])
    }

    /// A data: URI of the PNG, for an inline <img>.
    func dataURI() -> String {
        guard let bytes = png() else { return "" }
        return "data:image/png;base64," + Base64.encodeToString(bytes: bytes)
    }
}
