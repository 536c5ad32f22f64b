import Foundation
import ModemTestSupport
import Testing

/// The real recordings in ../shared/captures, decoded by the command line exactly as a user
/// would. Skipped (with a message) when the folder is absent.
@Suite("real captures")
struct CaptureTests {
    struct Truth: Decodable {
        var baud: Int
        var space: Int
        var mark: Int
        var text: String?
        var hex: String?
        var repeated: String?
        var minComplete: Int?
        var optionalPrefixHex: String?
        var rate: Int?
        var format: String?
        var channels: Int?

        /// truth.json's keys are snake case.
        enum CodingKeys: String, CodingKey {
            case baud, space, mark, text, hex, repeated, rate, format, channels
            case minComplete = "min_complete"
            case optionalPrefixHex = "optional_prefix_hex"
        }
    }

    static let truth: [(String, Truth)] = {
        guard let root = CLI.captures,
            let data = try? Data(contentsOf: root.appendingPathComponent("truth.json")),
            let table = try? JSONDecoder().decode([String: Truth].self, from: data)
        else { return [] }
        return table.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }()

    static func profile(_ t: Truth) -> String {
        switch (t.baud, t.space, t.mark) {
        case (1225, 4900, 7350): return "softmodem-1225"
        case (1225, 2450, 4900): return "webjack-1225"
        case (315, 1575, 3150): return "softmodem-315"
        default: return "custom"
        }
    }

    static func hex(_ s: String) -> Data {
        var d = Data()
        var i = s.startIndex
        while i < s.endIndex {
            let j = s.index(i, offsetBy: 2)
            d.append(UInt8(s[i..<j], radix: 16)!)
            i = j
        }
        return d
    }

    /// Two entries of truth.json disagree with what the recordings physically hold; minimodem,
    /// an independent decoder, agrees with softmodem on both. The tests assert the physical
    /// content and check minimodem's reading of the same file when it is installed.
    /// - fw-bridge-slow.wav: the sketch answers with `Serial.println`, so each line ends in CR LF;
    ///   every CR is a separate clean burst (Eb/N0 24 dB) that truth.json leaves out.
    /// - 1225_SoftModem_whole_word_no_delay.wav: the signal drops out for 1.42 s at 0.85 s
    ///   (26 dB down, nothing but sub-1 kHz noise), cutting one word: 11 + 24 = 35 complete
    ///   words are in the file, not 36.
    static let errata: [String: (text: String?, minComplete: Int?, minimodemArgs: [String])] = [
        "firmware/fw-bridge-slow.wav": ("Set: 13 to: 1\r\nSet: 12 to: 0\r\n157\r\n42\r\n", nil, ["--stopbits", "3"]),
        "webjack/1225_SoftModem_whole_word_no_delay.wav": (nil, 35, []),
    ]

    static func minimodemReading(_ path: String, _ t: Truth, extra: [String]) throws -> Data? {
        guard let minimodem = CLI.which("minimodem") else { return nil }
        let r = try CLI.run(
            minimodem,
            ["--rx", "-q", "-M", String(t.mark), "-S", String(t.space), "-f", path] + extra + [String(t.baud)])
        return r.stdout
    }

    @Test func capturesFolder() throws {
        if CLI.captures == nil {
            print("skipping real-capture tests: ../shared/captures is absent")
        } else {
            #expect(Self.truth.count >= 15)
        }
    }

    @Test("decodes exactly the bytes that were sent", arguments: truth.map(\.0))
    func capture(name: String) throws {
        guard let root = CLI.captures, let t = Self.truth.first(where: { $0.0 == name })?.1 else { return }
        var args = ["decode", "--profile", Self.profile(t)]
        if name.hasSuffix(".raw") {
            args += ["--raw", "--rate", String(t.rate!), "--format", t.format!, "--channels", String(t.channels!)]
        }
        let path = root.appendingPathComponent(name).path
        let r = try CLI.softmodem(args + [path])
        let erratum = Self.errata[name]
        if let erratum, let other = try Self.minimodemReading(path, t, extra: erratum.minimodemArgs) {
            if let text = erratum.text {
                #expect(other == Data(text.utf8), "minimodem no longer agrees with the erratum")
            }
            if let min = erratum.minComplete, let repeated = t.repeated {
                let count = String(decoding: other, as: UTF8.self).components(separatedBy: repeated).count - 1
                #expect(count <= min, "minimodem finds \(count) words: revisit the erratum")
            }
        }
        if let repeated = t.repeated {
            let text = r.stdoutText
            let count = text.components(separatedBy: repeated).count - 1
            #expect(count >= (erratum?.minComplete ?? t.minComplete!), "\(count) complete words")
            // Whatever is not a complete word may only be the cut-off words at the ends.
            let leftover = text.replacingOccurrences(of: repeated, with: "")
            #expect(leftover.count <= 2 * repeated.count, "stray bytes: \(leftover.debugDescription)")
        } else if t.text == nil && t.hex == nil {
            // 1 also for bytes decoded with damaged characters, which stderr then says.
            #expect([0, 1].contains(r.status), "must not crash: exit \(r.status) \(r.stderr)")
        } else {
            let want = t.hex.map(Self.hex) ?? Data((erratum?.text ?? t.text!).utf8)
            let prefix = Self.hex(t.optionalPrefixHex ?? "")
            #expect(
                r.stdout == want || r.stdout == prefix + want,
                "got \(String(decoding: r.stdout, as: UTF8.self).debugDescription)")
            #expect(r.status == 0, "\(r.stderr)")
        }
    }
}
