import BoardModels
import Foundation
import ModemDSP
import ModemSpectrum
import ModemTestSupport
import Testing

/// The FFTW tone adapter, driving the demodulator as the decode pipeline does.
@Suite("tone adapter")
struct ToneAdapterTests {
    /// `bursts` bursts of `perBurst` random bytes from a sender whose tones and bit rate are
    /// all off by `error` (a slow or fast clock), white noise at `snr` dB everywhere.
    static func signal(error: Double, snr: Double, bursts: Int = 8, perBurst: Int = 150) throws -> (
        samples: [Float], bytes: [UInt8]
    ) {
        let p = ModemProfile.softmodem1225
        let sender = p.overriding(baud: p.baud * (1 + error), mark: p.mark * (1 + error), space: p.space * (1 + error))
        var generator = SeededGenerator(seed: 77)
        var bytes: [UInt8] = []
        var samples: [Float] = []
        for _ in 0..<bursts {
            let payload = (0..<perBurst).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            var encoder = BurstEncoder(modulator: try FSKModulator(profile: sender, sampleRate: 44_100, amplitude: 0.3))
            samples += encoder.burst(payload, leadingSilence: 4410, trailingSilence: 4410)
            bytes += payload
        }
        let sigma = (0.045 / pow(10, snr / 10)).squareRoot()
        var noise = GaussianNoise(standardDeviation: sigma, seed: 5)
        noise.add(to: &samples)
        return (samples, bytes)
    }

    /// Decodes like the pipeline: chunks of 4096, adapter observing after each chunk.
    static func decode(_ samples: [Float], adapt: Bool) throws -> (
        bytes: [UInt8], retunes: Int, mark: Double, analysed: Int, screened: Int
    ) {
        var demod = try FSKDemodulator(DemodulatorConfiguration())
        let adapter = ToneAdapter(profile: .softmodem1225, sampleRate: 44_100)
        var events: [ModemEvent] = []
        var retunes = 0
        samples.withUnsafeBufferPointer { all in
            var i = 0
            while i < all.count {
                let chunk = UnsafeBufferPointer(rebasing: all[i..<min(all.count, i + 4096)])
                let before = events.count
                demod.process(chunk, into: &events)
                if adapt, let tones = adapter.observe(chunk, inBurst: demod.isInBurst, events: events[before...]) {
                    if (try? demod.retune(mark: tones.mark, space: tones.space)) != nil { retunes += 1 }
                }
                i += chunk.count
            }
        }
        demod.flush(into: &events)
        return (
            events.filter { $0.kind == .byte }.map(\.value), retunes, demod.configuration.profile.mark,
            adapter.burstsAnalysed, adapter.burstsScreened
        )
    }

    @Test("a sender 3 % slow: the tuning follows it and errors drop")
    func offFrequency() throws {
        let (samples, bytes) = try Self.signal(error: -0.03, snr: -1)
        let fixed = try Self.decode(samples, adapt: false)
        let adapted = try Self.decode(samples, adapt: true)
        let fixedErrors = TestSignals.editDistance(bytes, fixed.bytes)
        let adaptedErrors = TestSignals.editDistance(bytes, adapted.bytes)
        print(
            "3 % slow sender at -1 dB: \(fixedErrors) byte errors at the nominal tones, \(adaptedErrors) adapted (\(adapted.retunes) retunes, mark now \(adapted.mark) Hz)"
        )
        #expect(adapted.retunes >= 1)
        #expect(abs(adapted.mark - 7350 * 0.97) < 7350 * 0.005, "tuning converged near the sender's 7129.5 Hz")
        #expect(adaptedErrors < fixedErrors)
    }

    @Test("a sender on frequency is left alone")
    func onFrequency() throws {
        let (samples, bytes) = try Self.signal(error: 0, snr: 0, bursts: 4)
        let adapted = try Self.decode(samples, adapt: true)
        #expect(adapted.retunes == 0)
        #expect(TestSignals.editDistance(bytes, adapted.bytes) <= 2)
    }

    @Test("a clean sender on frequency is screened out by its first character: no FFT work")
    func screenedOnFrequency() throws {
        let (samples, bytes) = try Self.signal(error: 0, snr: 25, bursts: 6, perBurst: 20)
        let adapted = try Self.decode(samples, adapt: true)
        #expect(adapted.bytes == bytes)
        #expect(adapted.screened == 6)
        #expect(adapted.analysed == 0)
    }

    @Test("a clean sender 1 % off passes the screen, is analysed and retuned to")
    func screenPassesOffFrequency() throws {
        let (samples, _) = try Self.signal(error: 0.01, snr: 25, bursts: 3, perBurst: 40)
        let adapted = try Self.decode(samples, adapt: true)
        #expect(adapted.screened == 0)
        #expect(adapted.analysed == 3)
        #expect(adapted.retunes >= 1)
        #expect(adapted.mark > 7350 * 1.004, "tuning moved towards the sender's 7423.5 Hz")
    }

    @Test("noise alone never retunes")
    func noiseOnly() throws {
        var samples = [Float](repeating: 0, count: 44_100 * 20)
        var noise = GaussianNoise(standardDeviation: 0.1, seed: 3)
        noise.add(to: &samples)
        #expect(try Self.decode(samples, adapt: true).retunes == 0)
    }
}
