import ModemDSP
import ModemDecoding
import ModemLive
import Testing

/// `tx` on the in-memory device: what it plays is what the board hears, and a device that
/// goes away ends it with the device's error unless it waits.
@Suite struct LiveTransmitterTests {
    let maker = FSKTransmitterMaker(settings: settings1225, amplitudeDB: -1, preamble: 50, postamble: 7)
    let message = Array("a line for the board\n".utf8)

    @Test func whatIsSentIsWhatTheFarEndHears() throws {
        let (system, context, log) = memoryLine()
        let far = ScriptedFarEnd()
        system.farEnd = far
        var tx = try LiveTransmitter(maker, context: context, keepOpen: false)
        tx.start()
        try message.withUnsafeBufferPointer { b throws(LiveError) in try tx.send(b) }
        try tx.finish()
        #expect(try decodeHeard(far.heard) == message)
        #expect(tx.counters.bytesSent == message.count && tx.counters.framesPlayed > 0)
        guard case .playbackOpened(let info, keptOpen: false) = log.notices.first else {
            Issue.record("no playback notice: \(log.notices)")
            return
        }
        #expect(info.name == "memory" && info.channels == 1)
    }

    /// Settings that cannot work at the device's rate are thrown before anything plays.
    @Test func impossibleSettingsAreThrownBeforeTheDeviceOpens() throws {
        let (_, context, log) = memoryLine()
        let bad = HiJackTransmitterMaker(
            baud: 1378.125, bytePeriod: 100, invert: false, amplitudeDB: -1, preamble: 0, postamble: 0,
            powerTone: nil, powerAmplitude: 2, idleLine: true)
        #expect(throws: LiveError.self) { _ = try LiveTransmitter(bad, context: context, keepOpen: true) }
        #expect(log.notices.isEmpty)
    }

    /// Unplugged in the middle of a long send: the device's error, naming it.
    @Test func unplugEndsTheSendWithTheDevicesError() throws {
        let (system, context, _) = memoryLine()
        system.faults = [.unplug(at: 1.0, seconds: nil)]
        var tx = try LiveTransmitter(maker, context: context, keepOpen: false)
        tx.start()
        let long = [UInt8](repeating: 0x41, count: 1000)
        let error = #expect(throws: LiveError.self) {
            try long.withUnsafeBufferPointer { b throws(LiveError) in try tx.send(b) }
            try tx.finish()
        }
        guard case .device(let e) = error else {
            Issue.record("expected a device error, got \(String(describing: error))")
            return
        }
        #expect(e.reason == .disconnected && e.device == "memory")
    }

    /// `power --device`: the resting line (HiJack's power tone) plays for the frames asked,
    /// topped up as the device takes it, and a stop request ends it at once.
    @Test(.timeLimit(.minutes(1))) func theRestingLinePlaysForItsDurationOrUntilStopped() throws {
        let (_, context, _) = memoryLine()
        let power = HiJackTransmitterMaker(
            baud: 1378.125, bytePeriod: 14, invert: false, amplitudeDB: nil, preamble: 0, postamble: 0,
            powerTone: nil, powerAmplitude: nil, idleLine: false)
        var player = try LiveTransmitter(power, context: context, keepOpen: true)
        player.start()
        try player.playResting(frames: 44_100)
        #expect(player.framesRendered >= 44_100 && player.framesRendered < 44_100 + Int64(player.targetFrames))
        // The device took it as it played: the clock moved on by about the time queued.
        #expect(context.clock.now() > 0.5)
        try player.finish()
        #expect(player.counters.framesPlayed >= 44_100)

        let (_, stopped, _) = memoryLine()
        var interrupted = try LiveTransmitter(power, context: stopped, keepOpen: true)
        interrupted.start()
        stopped.stop.request()
        try interrupted.playResting(frames: nil)
        #expect(interrupted.framesRendered == 0)
    }
}
