import ModemDSP
import ModemDecoding
import ModemLive
import Testing

/// `rx`'s loop (``LiveDecoder/run(for:pollTimeout:deviceError:handle:afterRead:)``) on the
/// in-memory device and its virtual clock: it ends on the duration, the stop flag or the
/// handler, hands every byte over once, and keeps time for the byte protocols.
@Suite struct LiveDecoderRunTests {
    let message = Array("run until told to stop".utf8)

    struct Failure: Error { let error: LiveError }

    /// Runs `rx` collecting bytes; `stopAfter` bytes make the handler stop it.
    func run<R>(_ rx: inout LiveDecoder<R>, for duration: Double?, stopAfter: Int? = nil) throws(Failure) -> (
        end: LiveDecoder<R>.RunEnd, bytes: [UInt8], streamTimes: [Double]
    ) {
        var bytes: [UInt8] = []
        var times: [Double] = []
        func handle(_ e: ModemEvent, _ t: LiveDecoder<R>.CharacterTiming) throws(Failure) -> Bool {
            bytes.append(e.value)
            #expect(t.latency >= 0 && t.latency < 1)
            return stopAfter.map { bytes.count < $0 } ?? true
        }
        func afterRead(_ time: Double) throws(Failure) { times.append(time) }
        let end = try rx.run(for: duration, deviceError: { Failure(error: $0) }, handle: handle, afterRead: afterRead)
        return (end, bytes, times)
    }

    /// A decoder on the in-memory line whose far end, the board, sends `bytes` at 0.3 s.
    func boardSending(_ bytes: [UInt8]) throws -> (LiveContext, LiveDecoder<FSKDemodulator>) {
        let (system, context, _) = memoryLine()
        let far = ScriptedFarEnd()
        far.play(boardSignal(bytes), atFrame: frame(0.3))
        system.farEnd = far
        return (context, try LiveDecoder(settings1225, context: context, reporter: SilentReporter()))
    }

    @Test func theDurationEndsItAndTheEndsCharactersAreLeftForTheCaller() throws {
        let (context, decoder) = try boardSending(message)
        var rx = decoder
        let r = try run(&rx, for: 2)
        #expect(r.end == .duration)
        let rest = rx.events.filter { $0.kind == .byte }.map(\.value)
        #expect(r.bytes + rest == message)
        #expect(context.clock.now() >= 2 && context.clock.now() < 2.5)
        // Stream time only moves forward, and reaches the duration.
        #expect(zip(r.streamTimes, r.streamTimes.dropFirst()).allSatisfy { $0 <= $1 })
        #expect((r.streamTimes.last ?? 0) > 1.8)
    }

    @Test func theHandlerStopsItAtOnce() throws {
        let (context, decoder) = try boardSending(message)
        var rx = decoder
        let r = try run(&rx, for: 30, stopAfter: 5)
        #expect(r.end == .handler)
        #expect(r.bytes == Array(message.prefix(5)))
        #expect(context.clock.now() < 1)
    }

    @Test func theStopFlagEndsIt() throws {
        let (_, context, _) = memoryLine()
        context.stop.request()
        var rx = try LiveDecoder(settings1225, context: context, reporter: SilentReporter())
        let r = try run(&rx, for: 30)
        #expect(r.end == .stopped && r.bytes.isEmpty)
    }

    @Test func aLostDeviceIsTheCallersError() throws {
        let (system, context, _) = memoryLine()
        system.faults = [.unplug(at: 0.5, seconds: nil)]
        var rx = try LiveDecoder(settings1225, context: context, reporter: SilentReporter())
        let failure = #expect(throws: Failure.self) { _ = try run(&rx, for: 30) }
        guard case .device(let e) = failure?.error else {
            Issue.record("expected the device's error, got \(String(describing: failure))")
            return
        }
        #expect(e.device == "memory")
    }
}
