import ModemDSP
import ModemLive
import Testing

/// `tx` reading standard input, on the in-memory device and its virtual clock: what the
/// input delivers is what the far end hears, and the input's end or a stop ends it.
@Suite struct TransmitFromInputTests {
    let maker = FSKTransmitterMaker(settings: settings1225, amplitudeDB: -1, preamble: 50, postamble: 7)

    /// A byte input whose reads wait on the virtual clock as a real one blocks: each read
    /// that finds nothing moves the clock on by its timeout, and at `stopAt` the stop flag
    /// is set, as SIGINT would.
    struct WaitingInput: ByteInput {
        var timed: TimedInput
        let clock: VirtualClock
        var stopAt: (time: Double, flag: StopFlag)?
        /// Run once when the clock first reaches its time.
        var probe: (time: Double, run: () -> Void)?
        var buffer: [UInt8] { timed.buffer }

        mutating func read(waiting milliseconds: Int32) throws(LiveError) -> ByteInputResult {
            if let stopAt, clock.now() >= stopAt.time { stopAt.flag.request() }
            if let p = probe, clock.now() >= p.time {
                p.run()
                probe = nil
            }
            let result = try timed.read(waiting: milliseconds)
            if result == .nothing { clock.advance(by: Double(milliseconds) / 1000) }
            return result
        }
    }

    @Test(.timeLimit(.minutes(1))) func linesTypedWithPausesAreHeardWholeAndTheInputsEndEndsIt() throws {
        let (system, context, _) = memoryLine()
        let far = ScriptedFarEnd()
        system.farEnd = far
        let clock = try #require(context.clock as? VirtualClock)
        let first = Array("first line\n".utf8)
        let second = Array("second\n".utf8)
        // Before the second line, the pause must have closed the first burst: its postamble
        // (7 mark bits after the last stop bit) is on the line. Without it the burst heard
        // would end at the last stop bit: 50 + 110 bits, not 167.
        var firstBurst = 0
        func measure() {
            let sounding = far.heard.indices.filter { far.heard[$0] != 0 }
            firstBurst = (sounding.last ?? 0) - (sounding.first ?? 0) + 1
        }
        var input = WaitingInput(
            timed: TimedInput([(0.05, first), (1.0, second)], clock: clock, endsAt: 1.5), clock: clock,
            probe: (0.9, measure))
        var tx = try LiveTransmitter(maker, context: context, keepOpen: false)
        tx.start()
        try tx.send(from: &input)
        #expect(clock.now() >= 1.5 && clock.now() < 1.6)
        try tx.finish()
        #expect(try decodeHeard(far.heard) == first + second)
        #expect(tx.counters.bytesSent == first.count + second.count)
        let bit = 44_100 / 1225
        #expect(abs(firstBurst - 167 * bit) <= bit, "first burst \(firstBurst) samples, \(firstBurst / bit) bits")
    }

    @Test(.timeLimit(.minutes(1))) func aStopEndsItWhileTheInputStaysOpen() throws {
        let (system, context, _) = memoryLine()
        let far = ScriptedFarEnd()
        system.farEnd = far
        let clock = try #require(context.clock as? VirtualClock)
        let line = Array("before the stop\n".utf8)
        var input = WaitingInput(
            timed: TimedInput([(0.0, line), (3.0, Array("after".utf8))], clock: clock), clock: clock,
            stopAt: (0.5, context.stop))
        var tx = try LiveTransmitter(maker, context: context, keepOpen: false)
        tx.start()
        try tx.send(from: &input)
        #expect(context.stop.isRequested && clock.now() < 0.6)
        try tx.finish()
        #expect(try decodeHeard(far.heard) == line)
    }
}
