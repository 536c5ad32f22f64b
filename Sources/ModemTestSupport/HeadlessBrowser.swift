public import Foundation

/// Headless Chromium for the report tests: a page's DOM after its scripts ran, a
/// screenshot, and whether that screenshot holds anything.
public enum HeadlessBrowser {
    /// The browser, or nil when it is not installed (the tests then skip).
    public static let chromium = CLI.which("chromium")

    /// What the browser made of a page: its DOM after scripts, and a screenshot.
    public struct Rendered: Sendable {
        /// The page's DOM as serialised after its scripts ran.
        public var dom: String
        /// The screenshot's PNG bytes; empty when none was written.
        public var screenshot: Data

        /// The first value of attribute `name` in the DOM.
        public func attribute(_ name: String) -> String? {
            guard let r = dom.range(of: "\(name)=\"") else { return nil }
            return String(dom[r.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// Thrown by ``render(_:)`` when chromium is not installed.
    public struct Missing: Error, CustomStringConvertible {
        /// Says chromium is missing and how to install it.
        public var description: String { "chromium is not installed (make deps installs it)" }
    }

    /// Loads `html` twice: once for the DOM, once for a screenshot beside it (`.png`).
    public static func render(_ html: URL) throws -> Rendered {
        guard let chromium else { throw Missing() }
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000", "--window-size=1200,1600",
        ]
        let dom = try CLI.run(chromium, common + ["--dump-dom", html.absoluteString], timeout: 120)
        let shot = html.deletingPathExtension().appendingPathExtension("png")
        _ = try CLI.run(chromium, common + ["--screenshot=\(shot.path)", html.absoluteString], timeout: 120)
        return Rendered(dom: dom.stdoutText, screenshot: (try? Data(contentsOf: shot)) ?? Data())
    }

    /// Distinct byte values in the screenshot's decompressed pixel rows (python3's zlib): a
    /// blank page compresses to rows of one value.
    public static func distinctPixelBytes(_ png: Data, in dir: URL) throws -> Int {
        let path = dir.appendingPathComponent("shot.png")
        try png.write(to: path)
        let script = """
            import sys,zlib,struct
            b=open(sys.argv[1],'rb').read();i=8;idat=b''
            while i<len(b):
                n=struct.unpack('>I',b[i:i+4])[0];t=b[i+4:i+8]
                if t==b'IDAT': idat+=b[i+8:i+8+n]
                i+=12+n
            print(len(set(zlib.decompress(idat))))
            """
        let r = try CLI.run("/usr/bin/python3", ["-c", script, path.path])
        return Int(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
