import BoardModels
import Foundation
import ModemTestSupport
import Testing

/// Senders that drive a pin: square waves, whose odd harmonics alias at low sample rates.
/// At 22.05 kHz SoftModem's space (4900 Hz) has its third harmonic at 14 700 Hz, which
/// aliases to 7350 Hz, the mark: every space bit carries a third of a mark, the tones'
/// measurements wander, and a burst's first characters did not agree well enough to
/// confirm it. They left the confirmation's window and were lost without a word, the rest
/// printed with exit status 0. At 16 kHz its fifth harmonic (24 500 Hz) aliases to 8500 Hz,
/// next to mark: the first characters' tones measured off the profile's, each started the
/// confirmation's count again, and they were lost without a word too.
@Suite("square-wave senders")
struct SquareWaveTests {
    static func decode(
        _ tones: (mark: Double, space: Double, baud: Double), rate: Int, preambleBits: Double,
        options: [String] = []
    ) throws -> CLI.Result {
        let text = IdleGapTests.text + IdleGapTests.text + IdleGapTests.text
        let samples = IdleGapTests.signal(
            text, tones: tones, gaps: [0], rate: Double(rate), preambleBits: preambleBits, square: true)
        return try CLI.softmodem(["decode"] + options + [DecodeDiagnosisCLITests.wav(samples, rate: rate)])
    }

    /// Exact with exit status 0, or whatever is missing reported (exit status 1, one line).
    @Test(
        "SoftModem square waves: exact, or the loss reported",
        arguments: [16_000, 22_050, 29_400, 44_100, 48_000], [10.0, 30.0])
    func softmodem(rate: Int, preambleBits: Double) throws {
        let text = Data(IdleGapTests.text + IdleGapTests.text + IdleGapTests.text)
        for options in [[], ["--profile", "softmodem-1225"]] {
            let r = try Self.decode(IdleGapTests.softmodem, rate: rate, preambleBits: preambleBits, options: options)
            if r.status == 0 { #expect(r.stdout == text, "\(options): got \(r.stdout.count) bytes: \(r.stderr)") }
            if r.stdout != text { #expect(r.status == 1 && r.stderr.contains("damaged"), "\(options): \(r.stderr)") }
            // Away from the aliasing the square wave decodes exactly.
            if rate >= 44_100 { #expect(r.stdout == text && r.status == 0, "\(options): \(r.stderr)") }
        }
    }

    /// The text whose first characters' tones measured off the profile's at 16 kHz (the
    /// fox's do not): 5 of them were lost unreported, pinned and with no options.
    static let words = Array("stop laptop ping laptop jack board\nstop stop ping laptop ok\n".utf8)

    @Test("a square wave at 16 kHz whose opening characters measure off-tone: the loss reported")
    func offToneOpening() throws {
        let samples = IdleGapTests.signal(
            Self.words + Self.words, tones: IdleGapTests.softmodem, gaps: [0], rate: 16_000, preambleBits: 20,
            square: true)
        let path = try DecodeDiagnosisCLITests.wav(samples, rate: 16_000)
        for options in [[], ["--profile", "softmodem-1225"]] {
            let r = try CLI.softmodem(["decode"] + options + [path])
            #expect(r.stdout.count > Self.words.count, "\(options): \(r.stderr)")
            if r.stdout != Data(Self.words + Self.words) {
                #expect(r.status == 1 && r.stderr.contains("damaged"), "\(options): \(r.stdout.count) bytes")
            }
        }
    }

    /// Random bytes from senders with a known modem's tones the other way round (mark on
    /// SoftModem's 4900 Hz, on Bell 202's 2200 Hz), as square waves, no options. Read by the
    /// convention they framed too little to choose any format, so the burst was never
    /// opened: "nothing decoded: the signal looks like softmodem-2450 ... decode with
    /// --profile softmodem-2450", which reads garbage. The burst opens on the convention's
    /// space, so the other way round's format is tried and both readings decide
    /// (``AutoReceiver/againstConvention(_:_:choose:)``). At 22.05 kHz SoftModem's aliases
    /// break characters either way round (reported, exit status 1; 2450 baud breaks more).
    @Test(
        "square waves with the tones the other way round: random bytes exact",
        arguments: [
            (4900.0, 7350.0, 2450.0, 44_100), (4900, 7350, 2450, 48_000),
            (4900, 7350, 1225, 22_050), (2200, 1200, 1200, 22_050),
        ])
    func swappedRandomBytes(mark: Double, space: Double, baud: Double, rate: Int) throws {
        let bytes = TestSignals.randomBytes(64, seed: 5)
        let samples = IdleGapTests.signal(
            bytes, tones: (mark, space, baud), gaps: [0], rate: Double(rate), preambleBits: 30, square: true)
        let r = try CLI.softmodem(["decode", DecodeDiagnosisCLITests.wav(samples, rate: rate)])
        // SoftModem's tones alias onto each other at 22.05 kHz: characters break either way
        // round, and the loss is reported.
        if rate == 22_050 && mark == 4900 && r.stdout != Data(bytes) {
            #expect(r.status == 1 && r.stderr.contains("damaged"), "\(r.stderr)")
        } else {
            #expect(r.stdout == Data(bytes) && r.status == 0, "got \(r.stdout.count) bytes: \(r.stderr)")
        }
    }
}
