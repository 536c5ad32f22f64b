import BoardModels
import ModemDSP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Guards against benchmarking a decoder that no longer decodes: setup decodes each clean
/// signal once, outside the measurement, and stops the run if the bytes differ.
enum SignalCheck {
    static func requireSame(_ name: String, sent: [UInt8], decoded: [UInt8]) {
        guard sent != decoded else { return }
        var firstDifference = 0
        while firstDifference < min(sent.count, decoded.count) && sent[firstDifference] == decoded[firstDifference] {
            firstDifference += 1
        }
        let message =
            "\(name): decoded \(decoded.count) of \(sent.count) bytes, first difference at byte \(firstDifference)\n"
        _ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        exit(1)
    }

    static func fsk(_ name: String, _ capture: Capture) throws {
        requireSame(
            name, sent: capture.bytes,
            decoded: try TestSignals.decode(
                capture.samples, profile: capture.profile, rate: capture.sampleRate, chunk: chunkSamples))
    }

    static func hijack(_ name: String, _ capture: HiJackCapture) throws {
        requireSame(
            name, sent: capture.bytes,
            decoded: try HiJackSignals.decode(capture.samples, sampleRate: capture.sampleRate).bytes)
    }
}
