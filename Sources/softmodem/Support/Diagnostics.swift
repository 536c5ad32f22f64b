import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Everything for humans goes to stderr; stdout carries data only.
enum Diagnostics {
    static func error(_ message: String) { write("softmodem: \(message)\n") }
    static func warning(_ message: String) { write("softmodem: warning: \(message)\n") }
    static func info(_ message: String) { write(message + "\n") }

    static func write(_ text: String) {
        var data = Array(text.utf8)
        data.withUnsafeMutableBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(2, raw.baseAddress! + done, raw.count - done)
                if n < 0 { if errno == EINTR { continue } else { return } }
                done += n
            }
        }
    }

    static var stderrIsTerminal: Bool { isatty(2) != 0 }
    static var stdoutIsTerminal: Bool { isatty(1) != 0 }

    static func seconds(_ samples: Int64, rate: Double) -> String {
        cFormat("%.3f s", Double(samples) / rate)
    }

    static func number(_ x: Double, _ decimals: Int = 1) -> String {
        x.isFinite ? cFormat("%.\(decimals)f", x) : "-"
    }
}
