import ModemSystem
import SystemPackage

/// Lines of a benchmark's data on stdout.
enum BenchOutput {
    /// Writes a line to stdout unbuffered, so rows appear as they are measured.
    static func line(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { b in
            Result { () throws(Errno) in try FileDescriptor.standardOutput.writeAllRetrying(b) }
        }
    }
}
