import BoardModels
import CommandLineText
import ModemDSP
import ModemDecoding
import ModemTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One observer policy for files and live audio: a live session follows an off-frequency
/// sender as a file decode does (before, `rx`, `term` and `serial` never retuned).
@Suite struct ObserverPolicyTests {
    /// Collects the `-v` notes.
    final class Notes: DecodeReporting {
        let lines = Mutex<[String]>([])
        var verbose: Bool { true }
        var trace: Bool { false }
        func trace(_ event: ModemEvent, rate: Double) {}
        func burst(_ burst: BurstTracker.Summary, rate: Double, observations: [BurstObservation]) {}
        func note(_ note: DecodeNote) { lines.withLock { $0.append(note.text) } }
    }

    /// Bursts of random bytes from a sender whose tones and bit rate are 4 % slow, in white
    /// noise at `snr` dB (as ToneAdapterTests), with the bytes sent.
    static func slowSender(snr: Double) throws -> (samples: [Float], bytes: [UInt8]) {
        let p = ModemProfile.softmodem1225
        let sender = p.overriding(baud: p.baud * 0.96, mark: p.mark * 0.96, space: p.space * 0.96)
        var samples: [Float] = []
        var bytes: [UInt8] = []
        for burst in 0..<6 {
            let payload = TestSignals.randomBytes(150, seed: UInt64(40 + burst))
            var encoder = BurstEncoder(modulator: try FSKModulator(profile: sender, sampleRate: 44_100, amplitude: 0.3))
            samples += encoder.burst(payload, leadingSilence: 4410, trailingSilence: 4410)
            bytes += payload
        }
        TestSignals.addNoise(&samples, snr: snr, signalPower: 0.045, seed: 8)
        return (samples, bytes)
    }

    /// Decodes `samples` as a live capture does (pieces of one ALSA period, bursts reported
    /// at their gap) under `policy`; returns the byte errors and the notes.
    static func live(_ samples: [Float], sent: [UInt8], policy: ObserverPolicy) throws -> (errors: Int, notes: [String])
    {
        let settings = FSKSettings(profile: .softmodem1225)
        let notes = Notes()
        var session = try DecodeSession(
            settings, sampleRate: 44_100, channels: 1, channel: nil, name: "capture", reporter: notes, live: true
        ) { settings.observers(policy, sampleRate: 44_100, reporter: notes) }
        var bytes: [UInt8] = []
        TestSignals.feed(samples, chunk: 1024) { piece in
            session.process(piece, frames: piece.count)
            bytes += session.delivered.filter { $0.kind == .byte }.map(\.value)
        }
        session.finish()
        bytes += session.delivered.filter { $0.kind == .byte }.map(\.value)
        return (TestSignals.editDistance(bytes, sent), notes.lines.withLock { $0 })
    }

    @Test func aLiveSessionFollowsAnOffFrequencySender() throws {
        let (samples, sent) = try Self.slowSender(snr: -1)
        let followed = try Self.live(samples, sent: sent, policy: .live(verbose: true))
        let fixed = try Self.live(
            samples, sent: sent,
            policy: ObserverPolicy(followsTones: false, measuresSpectrum: true, checksSignal: false))
        print(
            "4 % slow sender at -1 dB, live: \(followed.errors) byte errors followed, \(fixed.errors) at the nominal tones"
        )
        #expect(followed.notes.contains { $0.hasPrefix("retuned to the sender's measured tones") }, "\(followed.notes)")
        #expect(!fixed.notes.contains { $0.hasPrefix("retuned") })
        #expect(followed.errors * 2 < fixed.errors, "followed \(followed.errors), fixed \(fixed.errors) byte errors")
    }

    @Test func theLivePolicyHoldsNothingBackAndFilesAreChecked() {
        let settings = FSKSettings(profile: .softmodem1225)
        let live = settings.observers(.live(verbose: false), sampleRate: 44_100, reporter: SilentReporter())
        #expect(live.count == 1 && live[0] is ToneAdapterObserver)
        let input = settings.observers(.input(verbose: true), sampleRate: 44_100, reporter: SilentReporter())
        #expect(input.count == 3)
        #expect(input[0] is SignalCheckObserver<FSKDemodulator>)
        let auto = AutoSettings().observers(.live(verbose: false), sampleRate: 44_100, reporter: SilentReporter())
        #expect(auto.count == 1 && auto[0] is DetectionObserver, "withheld bursts are explained live too")
    }
}
