import Foundation
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
        var min_complete: Int?
        var optional_prefix_hex: String?
        var rate: Int?
        var format: String?
        var channels: Int?
    }

    static let truth: [(String, Truth)] = {
        guard let root = CLI.captures,
              let data = try? Data(contentsOf: root.appendingPathComponent("truth.json")),
              let table = try? JSONDecoder().decode([String: Truth].self, from: data) else { return [] }
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
        let r = try CLI.softmodem(args + [root.appendingPathComponent(name).path])
        if let repeated = t.repeated {
            let text = r.stdoutText
            let count = text.components(separatedBy: repeated).count - 1
            #expect(count >= t.min_complete!, "\(count) complete words")
            // Whatever is not a complete word may only be the cut-off words at the ends.
            let leftover = text.replacingOccurrences(of: repeated, with: "")
            #expect(leftover.count <= 2 * repeated.count, "stray bytes: \(leftover.debugDescription)")
        } else if t.text == nil && t.hex == nil {
            #expect([0, 1].contains(r.status), "must not crash: exit \(r.status) \(r.stderr)")
        } else {
            let want = t.hex.map(Self.hex) ?? Data(t.text!.utf8)
            let prefix = Self.hex(t.optional_prefix_hex ?? "")
            #expect(r.stdout == want || r.stdout == prefix + want,
                    "got \(String(decoding: r.stdout, as: UTF8.self).debugDescription)")
            #expect(r.status == 0, "\(r.stderr)")
        }
    }
}
