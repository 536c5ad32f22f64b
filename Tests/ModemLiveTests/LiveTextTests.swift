import CommandLineText
import ModemFraming
import ModemLive
import Testing

/// The words of live sessions and parsed messages, from values alone (no device, no process).
@Suite("Live and message text")
struct LiveTextTests {
    static let device = AudioDeviceInfo(
        name: "hw:1,0", sampleRate: 44_100, channels: 2, format: "S16_LE", periodFrames: 441, bufferFrames: 1764)

    @Test("a device line names a conversion and the option that avoids it, the card's before the server's")
    func deviceLines() {
        #expect(
            LiveText.device(Self.device, .capture, serverRate: nil)
                == "hw:1,0: capture 44100 Hz, 2 channel(s), S16_LE, period 441 frames (10.0 ms), buffer 1764 frames")
        let server = LiveText.device(Self.device, .playback, serverRate: 48_000, periodTime: false)
        #expect(
            server.hasPrefix("hw:1,0: playback 44100 Hz (the sound server converts from its 48000 Hz: --rate 48000"))
        #expect(!server.contains("ms)"))
        #expect(!LiveText.device(Self.device, .capture, serverRate: 44_100).contains("converts"))
        var card = Self.device
        card.convertedFromRate = 48_000
        #expect(
            LiveText.device(card, .capture, serverRate: 96_000).contains("alsa-lib converts from the card's 48000 Hz"))
    }

    @Test("losses are warnings a person always sees; the link's progress waits for -v")
    func noticeKinds() {
        guard case .warning(let overrun) = LiveNoticeText.line(.overrun(device: "hw:1", overruns: 3, droppedFrames: 7))
        else {
            Issue.record("an overrun is not a warning")
            return
        }
        #expect(overrun.contains("hw:1") && overrun.contains("3 so far") && overrun.contains("7 frames dropped"))
        guard case .warning(let stall) = LiveNoticeText.line(.captureStalled(device: "hw:2,0", seconds: 2.5)) else {
            Issue.record("a stall is not a warning")
            return
        }
        #expect(stall.contains("no audio for 2.5 s") && stall.contains("arecord -l"))
        #expect(LiveNoticeText.stall("pulse", 1).contains("pactl info"))
        #expect(LiveNoticeText.stall("mydev", 1).contains("arecord -D mydev"))
        let caps = LinkCapabilities.arduinoRing
        guard case .verbose = LiveNoticeText.line(.reliableLinkAgreed(caps, fullDuplex: false)) else {
            Issue.record("the link's agreement is not a -v line")
            return
        }
        guard case .info(let stalled) = LiveNoticeText.line(.reliableLinkStalled(unacknowledged: 40, seconds: 30))
        else {
            Issue.record("a stalled link is not shown without -v")
            return
        }
        #expect(stalled.contains("40 bytes not acknowledged for 30 s"))
        #expect(LiveNoticeText.line(.playbackOpened(Self.device, keptOpen: true)) == nil)
        guard case .verbose(let start) = LiveNoticeText.line(.reliableLinkStarted(pathDelay: 0.05, ackTimeout: 1.25))
        else {
            Issue.record("the link's start is not a -v line")
            return
        }
        #expect(start.hasPrefix("reliable link: output path delay 50.0 ms"))
        guard
            case .verbose(let file) = LiveNoticeText.line(
                .reliableLinkStarted(pathDelay: 0.05, ackTimeout: 1), fileTransfer: true)
        else {
            Issue.record("the transfer's start is not a -v line")
            return
        }
        #expect(file.hasPrefix("output path delay"))
    }

    @Test("a parsed message is one line of text or one JSON object with its fields and raw bytes")
    func messageLines() {
        var parser = ByteProtocol.line.makeParser()
        let messages = Array("hi \"x\"\n".utf8).flatMap { parser.pushAny($0, at: 1.2345) }
        guard let m = messages.first else {
            Issue.record("no line parsed")
            return
        }
        #expect(MessageText.line(m, of: .line, at: 1.2345, json: false) == "1.235 hi \"x\"")
        let json = MessageText.line(m, of: .line, at: 61.5, json: true)
        #expect(json.hasPrefix("{\"time\":61.500,\"protocol\":\"line\",\"fields\":{"))
        #expect(json.contains("\"text\":\"hi \\\"x\\\"\"") && json.hasSuffix(",\"raw\":\"6869202278220a\"}"))
    }
}
