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
}
