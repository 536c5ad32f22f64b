import Foundation
import ModemDSP
import ModemTestSupport
import Testing

/// `softmodem inspect`: reports rendered in headless Chromium (no script errors, the decoded
/// text in the DOM, every picture drawn, a screenshot that is not blank), verdicts on made
/// recordings, and bad input.
@Suite("inspect", .serialized)
struct InspectCLITests {
    static let chromium = HeadlessBrowser.chromium

    /// Writes mono samples as a 16-bit WAV file (clipped to full scale).
    static func writeWAV(_ samples: [Float], rate: Int = 44_100, to url: URL) throws {
        var d = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8))
        u32(UInt32(36 + samples.count * 2))
        d.append(contentsOf: Array("WAVEfmt ".utf8))
        u32(16)
        u16(1)
        u16(1)
        u32(UInt32(rate))
        u32(UInt32(rate * 2))
        u16(2)
        u16(16)
        d.append(contentsOf: Array("data".utf8))
        u32(UInt32(samples.count * 2))
        for x in samples { u16(UInt16(bitPattern: Int16(max(-32768, min(32767, (x * 32768).rounded()))))) }
        try d.write(to: url)
    }

    typealias Rendered = HeadlessBrowser.Rendered

    /// Checks a report renders whole: no script errors, charts and pictures drawn, `text` in
    /// the DOM, a screenshot with content. Returns the DOM.
    @discardableResult
    static func expectRenders(_ html: URL, containing text: String, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> Rendered
    {
        let page = try HeadlessBrowser.render(html)
        #expect(
            page.dom.contains("id=\"script-errors\"></pre>"),
            "script errors: \(page.dom.components(separatedBy: "script-errors").dropFirst().first?.prefix(300) ?? "")",
            sourceLocation: sourceLocation)
        #expect(page.dom.contains(text), "'\(text)' missing from the DOM", sourceLocation: sourceLocation)
        let charts = Int(page.attribute("data-charts") ?? "") ?? 0
        #expect(charts >= 1, sourceLocation: sourceLocation)
        #expect(
            page.dom.components(separatedBy: "data-drawn=\"1\"").count - 1 == charts, "not every chart drawn",
            sourceLocation: sourceLocation)
        let images = (page.attribute("data-images") ?? "0/0").split(separator: "/").map { Int($0) ?? -1 }
        #expect(
            images.count == 2 && images[0] == images[1] && images[0] >= 2, "images drawn: \(images)",
            sourceLocation: sourceLocation)
        let canvases = (page.attribute("data-canvases") ?? "0/0").split(separator: "/").map { Int($0) ?? -1 }
        #expect(canvases.first ?? 0 >= charts, "canvases inked: \(canvases)", sourceLocation: sourceLocation)
        #expect(page.screenshot.count > 10_000, sourceLocation: sourceLocation)
        #expect(
            try HeadlessBrowser.distinctPixelBytes(page.screenshot, in: html.deletingLastPathComponent()) > 50,
            "blank screenshot", sourceLocation: sourceLocation)
        return page
    }

    static func inspect(_ arguments: [String]) throws -> CLI.Result {
        let r = try CLI.softmodem(["inspect"] + arguments, timeout: 300)
        #expect(r.status == 0, "inspect failed: \(r.stderr)")
        return r
    }

    /// The ids of the verdict's hints in a report.
    static func hints(_ html: URL) throws -> [String] {
        let text = try String(contentsOf: html, encoding: .utf8)
        return text.components(separatedBy: "data-hint=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test(.enabled(if: chromium != nil, "needs chromium (make deps installs it)"))
    func sampleRendersInBrowser() throws {
        let dir = try CLI.temporaryDirectory()
        let html = dir.appendingPathComponent("sample.html")
        try Self.inspect([
            CLI.packageRoot.appendingPathComponent("samples/hello-softmodem-1225.wav").path, "-o", html.path,
        ])
        try Self.expectRenders(html, containing: "Hello from softmodem!")
        #expect(try Self.hints(html) == ["ok"])
    }

    @Test(.enabled(if: chromium != nil && CLI.captures != nil, "needs chromium and ../shared/captures"))
    func realCaptureRendersInBrowser() throws {
        let dir = try CLI.temporaryDirectory()
        let html = dir.appendingPathComponent("capture.html")
        let captures = try #require(CLI.captures)
        try Self.inspect([
            "--profile", "webjack-1225", captures.appendingPathComponent("webjack/10xWebJack_with_spaces.wav").path,
            captures.appendingPathComponent("webjack/1225_SoftModem_whole_word.wav").path, "-o", html.path,
        ])
        let page = try Self.expectRenders(html, containing: "WebJackWebJack")
        #expect(page.attribute("data-charts") == "2")
    }

    @Test func stdoutReportIsOnePage() throws {
        let r = try Self.inspect([
            CLI.packageRoot.appendingPathComponent("samples/hello-webjack-1225.wav").path, "--profile", "auto", "-o",
            "-",
        ])
        #expect(r.stdoutText.hasPrefix("<!DOCTYPE html>"))
        #expect(r.stdoutText.contains("WebJack-style low tones"))
        #expect(r.stdoutText.contains("detected webjack-1225"))
        // Offline: nothing is fetched from anywhere.
        #expect(!r.stdoutText.contains("src=\"http"))
        #expect(!r.stdoutText.contains("href=\"http"))
        #expect(r.stderr.isEmpty)
    }

    /// The page is drawn by softmodem-report, found beside softmodem (or in ../lib/softmodem);
    /// without it, inspect fails at once in one line naming it, and writes nothing.
    @Test func withoutTheReportProgramInspectSaysSoInOneLine() throws {
        let dir = try CLI.temporaryDirectory()
        let alone = dir.appendingPathComponent("softmodem").path
        try FileManager.default.copyItem(atPath: CLI.binary, toPath: alone)
        let html = dir.appendingPathComponent("r.html").path
        let sample = CLI.packageRoot.appendingPathComponent("samples/hello-softmodem-1225.wav").path
        let r = try CLI.run(alone, ["inspect", sample, "-o", html])
        BadInputTests.expectOneLine(r, status: 1, mentioning: ["softmodem-report", "not installed"])
        #expect(!FileManager.default.fileExists(atPath: html))
        // Installed as the package lays it out: PREFIX/bin/softmodem, PREFIX/lib/softmodem/.
        let helper = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent(
            "softmodem-report")
        let bin = dir.appendingPathComponent("bin")
        let lib = dir.appendingPathComponent("lib/softmodem")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: lib, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: alone, toPath: bin.appendingPathComponent("softmodem").path)
        try FileManager.default.copyItem(
            atPath: helper.path, toPath: lib.appendingPathComponent("softmodem-report").path)
        let installed = try CLI.run(bin.appendingPathComponent("softmodem").path, ["inspect", sample, "-o", html])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(try String(contentsOfFile: html, encoding: .utf8).contains("<title>softmodem inspect"))
    }
}
