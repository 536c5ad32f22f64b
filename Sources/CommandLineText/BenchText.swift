public import ModemBench
import ModemDecoding
public import ModemFraming
import ModemReport

/// A row of `bench speed`, as the table and the JSON document show it.
extension SpeedRow {
    /// The signal column: "-" for encoding, "clean", or the SNR.
    public var signal: String {
        switch (task, snr) {
        case (.encode, _): return "-"
        case (.decode, nil): return "clean"
        case (.decode, let snr?): return fixed(snr, snr == snr.rounded() ? 0 : 1) + " dB"
        }
    }

    /// The row for the table (see ``SpeedReport/header(minimodem:streams:)``).
    public func line(minimodem withMinimodem: Bool, sampleRate: Double) -> String {
        var line =
            modem.padded(15) + " " + task.rawValue.padded(6) + " " + signal.padded(6)
            + cFormat(" %8ld ", bytes) + (bytesDecoded.map(String.init) ?? "-").padded(8, left: true)
            + cFormat(
                " | %11.1f %8.2f | %11.1f %8.2f", singleCore.realTime, singleCore.megasamplesPerSecond,
                allCores.realTime, allCores.megasamplesPerSecond)
        if withMinimodem {
            if let m = minimodem {
                let seconds = Double(frames) / sampleRate
                line += cFormat(
                    " | %11.1f %11.1f %6.2f", seconds / m.minimodem.wallSeconds,
                    seconds / m.softmodem.wallSeconds, m.ratio)
            } else {
                line += " |           -           -      -"
            }
        }
        return line
    }

    /// The row as a JSON object, keys sorted.
    public func json(indent: String, sampleRate: Double) -> String {
        let seconds = Double(frames) / sampleRate
        var fields: [(String, String)] = [
            ("modem", "\"\(modem)\""), ("task", "\"\(task.rawValue)\""), ("snr", snr.map { "\($0)" } ?? "null"),
            ("frames", "\(frames)"), ("bytes", "\(bytes)"), ("bytesDecoded", bytesDecoded.map { "\($0)" } ?? "null"),
            ("singleCore", Self.json(singleCore)), ("allCores", Self.json(allCores)),
        ]
        if let m = minimodem {
            fields.append(
                (
                    "minimodem",
                    JSONText.object([
                        ("minimodem", Self.json(m.minimodem, seconds: seconds)),
                        ("softmodemDecode", Self.json(m.softmodem, seconds: seconds)),
                        ("ratio", JSONText.number(m.ratio)),
                    ])
                ))
        }
        return indent + JSONText.object(fields)
    }

    private static func json(_ t: Throughput) -> String {
        JSONText.object([
            ("streams", "\(t.streams)"), ("wallSeconds", JSONText.number(t.wallSeconds)),
            ("cpuSeconds", JSONText.number(t.cpuSeconds)),
            ("realTime", JSONText.number(t.realTime)),
            ("megasamplesPerSecond", JSONText.number(t.megasamplesPerSecond)),
        ])
    }

    private static func json(_ p: ProcessTiming, seconds: Double) -> String {
        JSONText.object([
            ("wallSeconds", JSONText.number(p.wallSeconds)), ("cpuSeconds", JSONText.number(p.cpuSeconds)),
            ("realTime", JSONText.number(seconds / max(1e-9, p.wallSeconds))), ("bytesDecoded", "\(p.output.count)"),
        ])
    }
}

/// The table's heading lines and the JSON document around the rows.
public enum SpeedReport {
    /// The two heading lines of the table, with the minimodem columns when measured.
    public static func header(minimodem: Bool, streams: Int) -> [String] {
        let all = "\(streams) stream\(streams == 1 ? "" : "s") at once"
        var top = "#".padded(47) + " |        1 stream      | " + all
        var names = "# modem          task   signal    bytes  decoded | x real time     MS/s | x real time     MS/s"
        if minimodem {
            top = top.padded(93) + " | minimodem   softmodem  ratio"
            names += " | x real time x real time"
        }
        return [top, names]
    }

    /// The whole document: the run's settings and its rows.
    public static func json(
        seed: UInt64, seconds: Double, sampleRate: Double, snr: Double, streams: Int, runs: Int,
        rows: [SpeedRow]
    ) -> String {
        let list =
            rows.isEmpty
            ? "[]"
            : "[\n" + rows.map { $0.json(indent: "    ", sampleRate: sampleRate) }.joined(separator: ",\n") + "\n  ]"
        return JSONText.object(
            [
                ("seed", "\(seed)"), ("seconds", JSONText.number(seconds)), ("sampleRate", JSONText.number(sampleRate)),
                ("snr", JSONText.number(snr)), ("streams", "\(streams)"), ("runs", "\(runs)"), ("rows", list),
            ], multiline: true)
    }
}

extension String {
    /// The string padded with spaces to `width` characters, on the right (or the left).
    fileprivate func padded(_ width: Int, left: Bool = false) -> String {
        guard count < width else { return self }
        let pad = String(repeating: " ", count: width - count)
        return left ? pad + self : self + pad
    }
}

extension ErrorRateBench.Point {
    /// The point as a JSON object, keys sorted, one per line at `indent` (the minimodem and
    /// no-options fields only when measured; a non-finite number, which JSON cannot hold, as
    /// null).
    public func json(indent: String) -> String {
        let number = JSONText.number
        var fields: [(String, String)] = [
            ("bitErrorRate", number(bitErrorRate)), ("byteErrorRate", number(byteErrorRate)),
            ("byteErrors", "\(byteErrors)"), ("bytesDecoded", "\(bytesDecoded)"), ("bytesSent", "\(bytesSent)"),
            ("ebN0", number(ebN0)), ("snr", number(snr)),
            ("theoryCoherentBitErrorRate", number(theoryCoherentBitErrorRate)),
            ("theoryNonCoherentBitErrorRate", number(theoryNonCoherentBitErrorRate)),
            ("theoryNonCoherentByteErrorRate", number(theoryNonCoherentByteErrorRate)),
        ]
        if let v = minimodemBitErrorRate { fields.append(("minimodemBitErrorRate", number(v))) }
        if let v = minimodemByteErrorRate { fields.append(("minimodemByteErrorRate", number(v))) }
        if let v = autoBitErrorRate { fields.append(("autoBitErrorRate", number(v))) }
        if let v = autoByteErrorRate { fields.append(("autoByteErrorRate", number(v))) }
        fields.sort { $0.0 < $1.0 }
        let body = fields.map { "\(indent)  \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n")
        return "\(indent){\n\(body)\n\(indent)}"
    }
}

extension ErrorRateBench.Point {
    /// The column names of `bench ber`'s table, with the minimodem and no-options columns
    /// when they are measured.
    public static func header(minimodem: Bool, auto: Bool) -> String {
        var header = "#  SNR  Eb/N0   bytes  decoded   byte-err     BER   | theory: BER-nc   BER-coh  byte-nc"
        if minimodem { header += " | minimodem: byte-err      BER" }
        if auto { header += " | no options: byte-err      BER" }
        return header
    }

    /// The point as a row of `bench ber`'s table (the minimodem and no-options columns only
    /// when measured).
    public var tableRow: String {
        func e(_ v: Double) -> String { cFormat("%8.2e", v) }
        var line =
            cFormat("%6.1f %6.2f %7ld %8ld ", snr, ebN0, bytesSent, bytesDecoded)
            + "\(e(byteErrorRate)) \(e(bitErrorRate)) |         \(e(theoryNonCoherentBitErrorRate)) "
            + "\(e(theoryCoherentBitErrorRate)) \(e(theoryNonCoherentByteErrorRate))"
        if let b = minimodemByteErrorRate, let bit = minimodemBitErrorRate {
            line += " |            \(e(b)) \(e(bit))"
        }
        if let b = autoByteErrorRate, let bit = autoBitErrorRate {
            line += " |             \(e(b)) \(e(bit))"
        }
        return line
    }
}

extension LinkThroughput.Row {
    /// The column names of `bench link`'s table.
    public static let header =
        "far end                      damaged bytes   B/s   line rate   packets  resent  payload"

    /// The row as `bench link` prints it: the far end, the damaged share, payload bytes a
    /// second and their share of the line rate, packets, retransmissions, the last payload
    /// size, and "unfinished" when the transfer did not end.
    public var tableRow: String {
        func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
        let percent = 100 * corruptByte
        let damaged = percent == percent.rounded() ? "\(Int(percent))" : "\((percent * 10).rounded() / 10)"
        let name =
            farEnd.corrects
            ? "host, up to \(farEnd.maxPayload) bytes"
            : "board sketch (\(farEnd.window) x \(farEnd.maxPayload)\(farEnd.selective ? "" : ", go-back-N"))"
        return name + String(repeating: " ", count: max(0, 29 - name.count)) + pad(damaged + " %", 13)
            + pad(String(Int(bytesPerSecond.rounded())), 6) + pad("\(Int((100 * efficiency).rounded())) %", 12)
            + pad("\(packets)", 10) + pad("\(retransmissions)", 8) + pad("\(finalPayload)", 9)
            + (finished ? "" : "  unfinished")
    }
}
