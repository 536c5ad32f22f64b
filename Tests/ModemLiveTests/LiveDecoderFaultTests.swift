import ModemDSP
import ModemDecoding
import ModemLive
import Testing

/// Capture faults a real device has, on the in-memory device: each test decodes the real
/// board's signal (the arms22 transmitter model) and checks what survives the fault and what
/// the session says about it.
@Suite struct LiveDecoderFaultTests {
    let first = Array("first burst, before the fault".utf8)
    let second = Array("second burst, after it".utf8)

    @Test func decodesTheBoardExactly() throws {
        let (system, context, log) = memoryLine()
        let far = ScriptedFarEnd()
        far.play(boardSignal(first), atFrame: frame(0.3))
        system.farEnd = far
        var rx = try LiveDecoder(settings1225, context: context, reporter: SilentReporter())
        #expect(try decode(&rx, until: 1.5, clock: context.clock) == first)
        #expect(log.notices.count == 1)
        guard case .captureOpened(let info, channel: 0) = log.notices.first else {
            Issue.record("no capture notice: \(log.notices)")
            return
        }
        #expect(info.name == "memory" && info.sampleRate == 44_100)
    }

    /// An xrun loses 50 ms in the middle of the first burst: the bytes decoded before it
    /// are all delivered, the overrun is reported once, and the next burst is exact.
    @Test func overrunKeepsWhatWasDecodedAndResumes() throws {
        let (system, context, log) = memoryLine()
        let far = ScriptedFarEnd()
        far.play(boardSignal(first), atFrame: frame(0.3))
        far.play(boardSignal(second), atFrame: frame(1.5))
        system.farEnd = far
        // 40 ms of preamble and 8.2 ms a byte: about 12 bytes are whole before 0.48 s.
        system.faults = [.overrun(at: 0.48, lostFrames: 2_205)]
        var rx = try LiveDecoder(settings1225, context: context, reporter: SilentReporter())
        let got = try decode(&rx, until: 2.5, clock: context.clock)
        #expect(Array(got.prefix(10)) == Array(first.prefix(10)))
        #expect(got.suffix(second.count) == second[...])
        #expect(got.count < first.count + second.count)
        #expect(log.notices.contains(.overrun(device: "memory", overruns: 1, droppedFrames: 0)))
        #expect(log.notices.filter { if case .overrun = $0 { true } else { false } }.count == 1)
    }

    /// A capture that delivers nothing for longer than the watchdog's limit ends a session
    /// that does not wait, naming the device; bytes decoded before it were delivered.
    @Test func stallEndsASessionThatDoesNotWait() throws {
        let (system, context, _) = memoryLine()
        let far = ScriptedFarEnd()
        far.play(boardSignal(first), atFrame: frame(0.2))
        system.farEnd = far
        system.faults = [.stall(at: 1.0, seconds: 5)]
        var rx = try LiveDecoder(settings1225, context: context, reporter: SilentReporter())
        rx.start()
        var got: [UInt8] = []
        let error = #expect(throws: LiveError.self) {
            while context.clock.now() < 10 {
                if try rx.poll(timeout: 0.05) { got += rx.events.filter { $0.kind == .byte }.map(\.value) }
            }
        }
        #expect(got == first)
        guard case .captureStalled(let device, let seconds) = error else {
            Issue.record("expected a stall, got \(String(describing: error))")
            return
        }
        #expect(device == "memory" && seconds >= CaptureWatchdog().limit && seconds < 3)
        #expect(context.clock.now() < 4)
    }

    /// The same stall, waited for (serial): one notice when it starts, one when audio comes
    /// back, and both bursts exact.
    @Test func stallIsWaitedForWhenAsked() throws {
        let (system, context, log) = memoryLine()
        let far = ScriptedFarEnd()
        far.play(boardSignal(first), atFrame: frame(0.2))
        far.play(boardSignal(second), atFrame: frame(7))
        system.farEnd = far
        system.faults = [.stall(at: 1.0, seconds: 5)]
        var rx = try LiveDecoder(settings1225, context: context, waitsForDevice: true, reporter: SilentReporter())
        #expect(try decode(&rx, until: 8, clock: context.clock) == first + second)
        let stalls = log.notices.filter { if case .captureStalled = $0 { true } else { false } }
        let resumes = log.notices.filter { if case .captureResumed = $0 { true } else { false } }
        #expect(stalls.count == 1 && resumes.count == 1)
    }

    /// The card is unplugged (ENODEV): a session that does not wait ends with the device's
    /// error, naming it.
    @Test func unplugEndsASessionThatDoesNotWait() throws {
        let (system, context, _) = memoryLine()
        system.faults = [.unplug(at: 0.5, seconds: nil)]
        var rx = try LiveDecoder(settings1225, context: context, reporter: SilentReporter())
        rx.start()
        let error = #expect(throws: LiveError.self) {
            while context.clock.now() < 5 { _ = try rx.poll(timeout: 0.05) }
        }
        guard case .device(let e) = error else {
            Issue.record("expected a device error, got \(String(describing: error))")
            return
        }
        #expect(e.reason == .disconnected && e.device == "memory" && e.description.contains("memory"))
    }

    /// Unplugged for 1.5 s and plugged back, waited for: the capture is reopened, the
    /// burst before and the burst after are exact, and both events are reported.
    @Test func unplugIsWaitedForAndTheDeviceReopened() throws {
        let (system, context, log) = memoryLine()
        let far = ScriptedFarEnd()
        far.play(boardSignal(first), atFrame: frame(0.2))
        far.play(boardSignal(second), atFrame: frame(3.5))
        system.farEnd = far
        system.faults = [.unplug(at: 1.0, seconds: 1.5)]
        var rx = try LiveDecoder(settings1225, context: context, waitsForDevice: true, reporter: SilentReporter())
        #expect(try decode(&rx, until: 5, clock: context.clock) == first + second)
        #expect(
            log.notices.contains {
                if case .deviceLost(let e, .capture) = $0 { e.reason == .disconnected } else { false }
            })
        #expect(log.notices.contains { if case .deviceReopened(_, .capture) = $0 { true } else { false } })
    }
}
