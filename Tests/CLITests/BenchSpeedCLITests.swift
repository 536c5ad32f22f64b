import Foundation
import ModemDSP
import ModemTestSupport
import Testing

@Suite("bench speed on the command line")
struct BenchSpeedCLITests {
    static let modems = ModemProfile.builtIn.map(\.name) + ["hijack"]

    /// The JSON rows of a short run.
    static func rows(_ extra: [String] = []) throws -> (document: [String: Any], rows: [[String: Any]]) {
        let result = try CLI.softmodem(["bench", "speed", "--seconds", "1", "--threads", "2", "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        return (document, try #require(document["rows"] as? [[String: Any]]))
    }

    @Test("the table has a decode clean, a decode noisy and an encode row for every profile and HiJack")
    func table() throws {
        let result = try CLI.softmodem(["bench", "speed", "--seconds", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no progress when stderr is not a terminal: \(result.stderr)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.first?.contains("seed 1") == true, "the work is described: \(lines.first ?? "")")
        let rows = lines.filter { !$0.hasPrefix("#") }
        #expect(rows.count == 3 * Self.modems.count)
        for modem in Self.modems {
            let mine = rows.filter { $0.split(separator: " ").first.map(String.init) == modem }
            #expect(mine.map { $0.split(separator: " ")[1] } == ["decode", "decode", "encode"], "\(modem)")
            #expect(
                mine.first?.contains("clean") == true && mine.dropFirst().first?.contains("0 dB") == true, "\(modem)")
            for row in mine {
                // Two figures per column group; all positive.
                let numbers = row.split(separator: "|").dropFirst().flatMap {
                    $0.split(separator: " ").compactMap { Double($0) }
                }
                #expect(numbers.count == 4 && numbers.allSatisfy { $0 > 0 }, "\(row)")
            }
        }
    }

    @Test("--json has every row with its work and figures; clean signals decode completely")
    func json() throws {
        let (document, rows) = try Self.rows()
        #expect(
            document["seed"] as? Int == 1 && document["streams"] as? Int == 2
                && document["sampleRate"] as? Double == 44_100)
        #expect(rows.count == 3 * Self.modems.count)
        for row in rows {
            let modem = try #require(row["modem"] as? String)
            #expect(Self.modems.contains(modem))
            #expect(["decode", "encode"].contains(row["task"] as? String))
            #expect((row["frames"] as? Int ?? 0) >= 22_050 && (row["bytes"] as? Int ?? 0) > 0, "\(modem)")
            for key in ["singleCore", "allCores"] {
                let t = try #require(row[key] as? [String: Any], "\(modem) \(key)")
                for field in ["wallSeconds", "cpuSeconds", "realTime", "megasamplesPerSecond"] {
                    #expect((t[field] as? Double ?? -1) >= 0, "\(modem) \(key).\(field)")
                }
                #expect(t["streams"] as? Int == (key == "singleCore" ? 1 : 2))
            }
            if row["task"] as? String == "decode" && row["snr"] is NSNull {
                #expect(
                    row["bytesDecoded"] as? Int == row["bytes"] as? Int, "\(modem): a clean signal decodes completely")
            }
        }
    }

    @Test("the same seed measures the same work")
    func sameWork() throws {
        func work(_ rows: [[String: Any]]) -> [String] {
            rows.map {
                "\($0["modem"]!) \($0["task"]!) \($0["snr"]!) \($0["frames"]!) \($0["bytes"]!) \($0["bytesDecoded"]!)"
            }
        }
        let first = try Self.rows(["--seed", "5"]).rows
        let second = try Self.rows(["--seed", "5"]).rows
        #expect(work(first) == work(second))
    }

    @Test("--minimodem adds minimodem's and softmodem decode's times, or says minimodem is missing")
    func minimodem() throws {
        let result = try CLI.softmodem(["bench", "speed", "--seconds", "0.5", "--minimodem", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let rows = try #require(document["rows"] as? [[String: Any]])
        guard result.stderr.isEmpty else {
            #expect(result.stderr.contains("minimodem not found"))
            return
        }
        for row in rows where row["task"] as? String == "decode" {
            let comparison = row["minimodem"] as? [String: Any]
            if row["modem"] as? String == "hijack" {
                #expect(comparison == nil, "minimodem has no HiJack")
            } else {
                let c = try #require(comparison, "\(row["modem"]!)")
                #expect((c["ratio"] as? Double ?? 0) > 0)
                let ours = try #require(c["softmodemDecode"] as? [String: Any])
                if row["snr"] is NSNull {
                    #expect(ours["bytesDecoded"] as? Int == row["bytes"] as? Int, "\(row["modem"]!)")
                }
            }
        }
    }

    @Test("bad options are usage errors on one line")
    func usageErrors() throws {
        let bad: [[String]] = [
            ["--seconds", "0"], ["--seconds", "nan"], ["--seconds", "3600", "--rate", "96000"], ["--threads", "0"],
            ["--runs", "0"], ["--rate", "1000"], ["--snr", "200"], ["--nope"],
        ]
        for bad in bad {
            let r = try CLI.softmodem(["bench", "speed"] + bad)
            #expect(r.status == 2, "\(bad): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(bad): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }
}
