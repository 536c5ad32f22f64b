import ModemDSP
import ModemDecoding
import ModemLive
import Testing

/// The link's transmit path on the in-memory card: a burst longer than the playback ring
/// must not hold the loop that reads the capture.
@Suite struct LiveLinkTests {
    /// 700 bytes (5.7 s of audio against a one-second playback ring) are queued while the far
    /// end talks at 3 s. Written whole, the burst blocked `transmit` until its last second,
    /// the two-second capture ring overflowed meanwhile, and the far end's bytes were lost
    /// (a full-duplex `serial --reliable` dropped 2.6 M frames and ran at 12 % of the line).
    @Test func aLongBurstLeavesTheCaptureBeingRead() throws {
        let (system, context, log) = memoryLine()
        let board = Array("sent by the far end while we talk".utf8)
        let far = ScriptedFarEnd()
        far.play(boardSignal(board), atFrame: frame(3.0))
        system.farEnd = far
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        link.start()
        let long = (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        try link.transmit(long)
        #expect(context.clock.now() < 0.5, "transmit waited for the burst to play")
        #expect(!link.isIdle && link.waitingBytes > 0)
        #expect(link.outputDelay > link.secondsPerByte * Double(link.waitingBytes))
        var heard: [UInt8] = []
        while context.clock.now() < 7.5 {
            try link.poll(timeout: 0.02)
            heard += link.bytes
        }
        #expect(heard == board)
        #expect(link.captureCounters.droppedFrames == 0)
        #expect(!log.notices.contains { if case .overrun = $0 { true } else { false } })
        #expect(link.isIdle && link.waitingBytes == 0)
        try link.finish()
        #expect(try decodeHeard(far.heard) == long)
    }

    /// At 126 baud one byte takes 79 ms: bytes go to the ring a quarter second at a time, so no
    /// write waits there either (64 at a time took 5 s, longer than the capture ring), and
    /// the ring never runs dry in the middle of the burst.
    @Test func slowProfilesAreFedInTimeSizedChunks() throws {
        let (system, context, _) = memoryLine()
        let far = ScriptedFarEnd()
        system.farEnd = far
        let settings = FSKSettings(profile: .softmodem126)
        var link = try LiveLink(context: context, settings: settings, preamble: 20, reporter: SilentReporter())
        link.start()
        let bytes = Array("a slow line, fed a little at a time".utf8)
        try link.transmit(bytes)
        #expect(context.clock.now() < 0.3, "transmit waited for the burst to play")
        var longest = 0.0
        while !link.isIdle {
            let before = context.clock.now()
            try link.poll(timeout: 0.02)
            longest = max(longest, context.clock.now() - before)
            #expect(link.isIdle || system.pendingPlaybackSeconds > 0, "the ring ran dry mid-burst")
        }
        #expect(longest < 0.1, "a poll took \(longest) s")
        #expect(link.captureCounters.droppedFrames == 0)
        try link.finish()
        var demodulator = try FSKDemodulator(DemodulatorConfiguration(profile: .softmodem126, sampleRate: 44_100))
        var events: [ModemEvent] = []
        far.heard.withUnsafeBufferPointer { demodulator.process($0, into: &events) }
        demodulator.flush(into: &events)
        #expect(events.filter { $0.kind == .byte }.map(\.value) == bytes)
    }

    /// A burst still waiting for the ring when the link finishes is played whole first.
    @Test func finishPlaysWhatIsStillWaiting() throws {
        let (system, context, _) = memoryLine()
        let far = ScriptedFarEnd()
        system.farEnd = far
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        link.start()
        let first = Array(repeating: UInt8(0xA5), count: 300)
        let second = Array("and the second burst".utf8)
        try link.transmit(first)
        try link.transmit(second)
        try link.finish()
        #expect(try decodeHeard(far.heard) == first + second)
    }
}
