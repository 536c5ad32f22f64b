import ModemDSP

/// One modem's byte-test outcome.
public struct ByteTestResult: Sendable, Equatable, Codable {
    /// The name of the modem that sent the burst.
    public var modem: String
    /// Peak level the burst was played at, in dBFS.
    public var levelDBFS: Double
    /// Bytes sent in the burst.
    public var sent: Int
    /// Bytes decoded from where the burst landed in the capture.
    public var received: Int
    /// Missing, extra and wrong bytes (edit distance between sent and received).
    public var byteErrors: Int
    /// Characters the receiver rejected (framing or parity errors).
    public var rejected: Int

    /// True when bytes were sent and every one came back intact.
    public var passed: Bool { sent > 0 && byteErrors == 0 }
}

/// Decodes each burst of a ``ByteTestPlan`` from the capture with its own modem's receiver,
/// reading only where that burst landed.
public struct ByteTestAnalyzer: Sendable {
    /// The timeline that was played.
    public let plan: ByteTestPlan

    /// An analyser for captures of `plan`'s signal.
    public init(plan: ByteTestPlan) { self.plan = plan }

    /// The results, one per burst; every burst counts as lost when the chirp did not come
    /// back.
    public func analyse(_ capture: [Float]) -> [ByteTestResult] {
        capture.withUnsafeBufferPointer { analyse($0) }
    }

    /// The same over a buffer; non-finite samples read as silence.
    public func analyse(_ x: UnsafeBufferPointer<Float>) -> [ByteTestResult] {
        let fs = plan.sampleRate
        let first = plan.openingChirp.start
        let locator = ChirpLocator(chirp: plan.chirp, sampleRate: fs)
        let match = locator.locate(in: x, lags: LoopbackPlan.chirpSearch(start: first, sampleRate: fs))
        let found = match.map { $0.clarity >= PathAnalyzer.minimumClarity } ?? false
        return plan.bursts.map { burst in
            var result = ByteTestResult(
                modem: burst.modem.name, levelDBFS: plan.levelDBFS, sent: burst.bytes.count,
                received: 0, byteErrors: burst.bytes.count, rejected: 0)
            guard found, let match else { return result }
            // The window allows for a clock error of 0.1 % and the receivers' look-ahead.
            let offset = match.position - Double(first)
            let margin = Int(0.05 * fs) + burst.segment.start / 1000
            let start = max(0, Int(Double(burst.segment.start) + offset) - margin)
            let end = min(x.count, Int(Double(burst.segment.end) + offset) + margin)
            guard end > start else { return result }
            let window = UnsafeBufferPointer(rebasing: x[start..<end])
            let events: [ModemEvent]
            do {
                switch burst.modem {
                case .fsk(let settings): events = try Self.decode(settings, window, sampleRate: fs)
                case .hijack(let settings): events = try Self.decode(settings, window, sampleRate: fs)
                case .auto(let settings): events = try Self.decode(settings, window, sampleRate: fs)
                }
            } catch {
                return result
            }
            let received = events.filter { $0.kind == .byte }.map(\.value)
            result.received = received.count
            result.rejected = events.count - received.count
            result.byteErrors = TransmissionErrors(sent: burst.bytes, decoded: received).byteErrors
            return result
        }
    }

    private static func decode<F: ModemReceiverFactory>(
        _ factory: F, _ x: UnsafeBufferPointer<Float>,
        sampleRate: Double
    ) throws(ModemConfigurationError) -> [ModemEvent] {
        var receiver = try factory.makeReceiver(sampleRate: sampleRate)
        var events: [ModemEvent] = []
        receiver.process(x, into: &events)
        receiver.flush(into: &events)
        return events
    }
}
