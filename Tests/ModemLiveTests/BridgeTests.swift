import BoardModels
import ModemDSP
import ModemDecoding
import ModemFraming
import ModemLive
import Testing

/// The full-duplex bridge and the reliable link over the in-memory device: echo filtering,
/// a device that goes away and returns, stop requests, and a file sent to a model of the
/// board's reliable-link sketch with its acknowledgements lost for a while.
@Suite struct BridgeTests {
    let maker = FSKTransmitterMaker(settings: settings1225, amplitudeDB: -1, preamble: 50, postamble: 7)

    /// Our bytes come back through the line's echo (a half-duplex board, crosstalk) while
    /// the board talks: the output holds the board's bytes only, and every echoed byte is
    /// counted.
    @Test func echoIsDroppedAndTheFarEndIsDelivered() throws {
        let (system, context, _) = memoryLine(echoGain: 0.8)
        let board = Array("PONG from the board".utf8)
        let far = ScriptedFarEnd()
        far.play(boardSignal(board), atFrame: frame(1.2))
        system.farEnd = far
        let ping = Array("ping 1\n".utf8)
        var input = TimedInput([(0.2, ping), (2.0, ping)], clock: context.clock)
        let port = MemoryPort()
        let bridge = LiveBridge(context: context, reporter: SilentReporter(), echoGuard: 0.1)
        let report = try bridge.run(settings1225, maker, tail: 0, input: &input, output: port) {
            context.clock.now() < 3.5
        }
        #expect(port.bytes == board)
        #expect(report.received == board.count)
        #expect(report.echoed == 2 * ping.count)
        #expect(report.playback.bytesSent == 2 * ping.count)
        // The board heard both lines.
        #expect(try decodeHeard(far.heard) == ping + ping)
    }

    /// The device disappears for a second and a half while the bridge runs (serial waits
    /// for it): both directions are reported lost and reopened, what was sent after the
    /// return reaches the board, and what the board sends after it is delivered.
    @Test func bridgeOutlivesTheDeviceGoingAway() throws {
        let (system, context, log) = memoryLine()
        let before = Array("before".utf8)
        let after = Array("after the return".utf8)
        let far = ScriptedFarEnd()
        far.play(boardSignal(before), atFrame: frame(0.4))
        far.play(boardSignal(after), atFrame: frame(4.0))
        system.farEnd = far
        system.faults = [.unplug(at: 1.0, seconds: 1.5)]
        var input = TimedInput(
            [(0.1, Array("one".utf8)), (1.2, Array("lost".utf8)), (3.2, Array("two".utf8))], clock: context.clock)
        let port = MemoryPort()
        var bridge = LiveBridge(context: context, reporter: SilentReporter(), echoGuard: 0.1)
        bridge.waitsForDevice = true
        _ = try bridge.run(settings1225, maker, tail: 0, input: &input, output: port) { context.clock.now() < 5.5 }
        #expect(port.bytes == before + after)
        let heard = try decodeHeard(far.heard)
        #expect(heard.starts(with: Array("one".utf8)) && heard.suffix(3) == Array("two".utf8)[...])
        for direction in [AudioDirection.capture, .playback] {
            #expect(log.notices.contains { if case .deviceLost(_, direction) = $0 { true } else { false } })
            #expect(log.notices.contains { if case .deviceReopened(_, direction) = $0 { true } else { false } })
        }
    }

    /// The device goes away while our own echo is being decoded: what the receiver held from
    /// before the gap keeps its date, so it is still recognised as echo after the reopen.
    @Test func echoHeldAcrossAReopenIsStillEcho() throws {
        let (system, context, _) = memoryLine(echoGain: 1)
        system.faults = [.unplug(at: 2.0, seconds: 0.5)]
        let line = Array("a line heard back while the card goes away\n".utf8)
        var input = TimedInput([(1.7, line)], clock: context.clock)
        let port = MemoryPort()
        var bridge = LiveBridge(context: context, reporter: SilentReporter(), echoGuard: 0.1)
        bridge.waitsForDevice = true
        // Detection holds a burst's first characters until it has proved the modem: those
        // are the ones the gap releases.
        let report = try bridge.run(AutoSettings(), maker, tail: 0, input: &input, output: port) {
            context.clock.now() < 4.5
        }
        #expect(port.bytes.isEmpty, "\(String(decoding: port.bytes, as: UTF8.self))")
        #expect(report.echoed > 0)
    }

    /// Without waiting, the device going away ends the bridge with its error.
    @Test func bridgeEndsWhenTheDeviceGoesAwayUnlessItWaits() throws {
        let (system, context, _) = memoryLine()
        system.faults = [.unplug(at: 1.0, seconds: 0.5)]
        var input = TimedInput([], clock: context.clock)
        let bridge = LiveBridge(context: context, reporter: SilentReporter(), echoGuard: 0.1)
        let error = #expect(throws: LiveError.self) {
            _ = try bridge.run(settings1225, maker, tail: 0, input: &input, output: MemoryPort()) {
                context.clock.now() < 3
            }
        }
        guard case .device(let e) = error else {
            Issue.record("expected a device error, got \(String(describing: error))")
            return
        }
        #expect(e.reason == .disconnected && e.device == "memory")
    }

    /// A stop request ends the bridge within a pass of its loop, input still open.
    @Test func stopRequestEndsTheBridge() throws {
        let (_, context, _) = memoryLine()
        var input = TimedInput([], clock: context.clock)
        let bridge = LiveBridge(context: context, reporter: SilentReporter(), echoGuard: 0.1)
        _ = try bridge.run(settings1225, maker, tail: 0, input: &input, output: MemoryPort()) {
            if context.clock.now() >= 1 { context.stop.request() }
            return context.clock.now() < 60
        }
        #expect(context.clock.now() < 1.2)
    }

    /// A file to the board's reliable-link sketch, with our capture dead for 1.5 s
    /// from the middle to past the end (its last ACKs lost): the board gets header and content
    /// exactly once, and the sender retransmitted what was not acknowledged.
    @Test func fileReachesTheBoardDespiteLostAcknowledgements() throws {
        let (system, context, log) = memoryLine()
        let board = try #require(ReliableLinkBoard(profile: .softmodem1225, sampleRate: 44_100))
        system.farEnd = board
        system.faults = [.stall(at: 3.2, seconds: 1.5)]
        let content = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        let report = try link.sendFile(
            content, name: "data.bin", baud: 1225, preamble: 50, turnaround: 0.25, timeout: 120)
        #expect(report.outcome == .delivered)
        let header = FileHeader(name: "data.bin", size: 200, crc: CRC32.update(0, content))
        #expect(board.messages == [header.encoded, content])
        #expect(report.statistics.payloadBytes == content.count + header.encoded.count)
        #expect(report.statistics.retransmissions >= 1)
        #expect(log.notices.contains { if case .reliableLinkStarted = $0 { true } else { false } })
        #expect(log.notices.contains { $0 == .reliableLinkAgreed(.arduinoSketch, fullDuplex: true) })
        #expect(board.ringOverflows == 0)
    }

    /// The same file on a clean line: nothing retransmitted.
    @Test func fileOnACleanLineIsNotRetransmitted() throws {
        let (system, context, _) = memoryLine()
        let board = try #require(ReliableLinkBoard(profile: .softmodem1225, sampleRate: 44_100))
        system.farEnd = board
        let content = Array(repeating: UInt8(0x55), count: 100)
        var link = try LiveLink(context: context, settings: settings1225, preamble: 50, reporter: SilentReporter())
        let report = try link.sendFile(content, name: "a", baud: 1225, preamble: 50, turnaround: 0.25, timeout: 60)
        #expect(report.outcome == .delivered)
        #expect(board.messages.last == content)
        #expect(report.statistics.retransmissions == 0)
    }
}
