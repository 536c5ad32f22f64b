import Foundation
import ModemDSP
import ModemSpectrum
import Testing

/// Recordings of known SNR made with the project's modulator and noise, fed to the meter in
/// odd-sized chunks as the live loop feeds it.
enum LevelRecording {
    static let rate = 44_100.0

    /// `bytes` random bytes as one burst at `amplitude` (peak, full scale 1) between
    /// `lead` and `trail` seconds of line, with white noise over everything at `snr` dB
    /// below the burst's power over 0...fs/2 (none when nil), quantized to 16 bits.
    static func make(
        profile: ModemProfile = .softmodem1225, bytes: Int, amplitude: Double = 0.5, snr: Double?,
        lead: Double = 1, trail: Double = 1, seed: UInt64 = 1
    ) throws -> [Float] {
        var g = SeededGenerator(seed: seed)
        let data = (0..<bytes).map { _ in UInt8(truncatingIfNeeded: g.next()) }
        var encoder = BurstEncoder(
            modulator: try FSKModulator(profile: profile, sampleRate: rate, amplitude: Float(amplitude)))
        var x = encoder.burst(data, leadingSilence: Int(lead * rate), trailingSilence: Int(trail * rate))
        if let snr {
            var noise = GaussianNoise(
                standardDeviation: (amplitude * amplitude / 2 / pow(10, snr / 10)).squareRoot(), seed: seed &+ 99)
            noise.add(to: &x)
        }
        return x.map { max(-1, min(32767.0 / 32768, ($0 * 32768).rounded() / 32768)) }
    }

    /// Every reading the meter makes over `samples`, fed in chunks of `chunk` samples.
    static func readings(_ samples: [Float], profile: ModemProfile = .softmodem1225, chunk: Int = 1_000)
        -> [LevelReading]
    {
        let meter = LevelMeter(profile: profile, sampleRate: rate)
        var out: [LevelReading] = []
        samples.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + chunk)
                meter.process(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
                if meter.readingCount > out.count { out.append(meter.reading) }
            }
        }
        return out
    }

    /// The last burst the meter reported.
    static func lastBurst(_ readings: [LevelReading]) throws -> BurstLevel {
        try #require(readings.last?.burst)
    }
}

@Suite("Level meter: SNR, tones, clipping and silence")
struct LevelMeterTests {
    @Test("SNR within 1.5 dB of the truth, noise measured between bursts", arguments: [20.0, 6.0, 0.0])
    func snrWithGaps(truth: Double) throws {
        let readings = LevelRecording.readings(try LevelRecording.make(bytes: 200, snr: truth))
        let burst = try LevelRecording.lastBurst(readings)
        let snr = try #require(burst.snr)
        #expect(abs(snr - truth) <= 1.5, "SNR \(snr) dB for \(truth) dB")
        #expect(burst.noiseSource == .betweenBursts)
        #expect(burst.tonesPresent)
        #expect(!burst.ongoing)
    }

    @Test(
        "SNR within 1.5 dB of the truth from the noise outside the band, during a burst that started first",
        arguments: [20.0, 6.0, 0.0])
    func snrWithoutGaps(truth: Double) throws {
        let readings = LevelRecording.readings(
            try LevelRecording.make(bytes: 400, amplitude: 0.25, snr: truth, lead: 0, trail: 0))
        let during = try #require(readings.last?.burst)
        let snr = try #require(during.snr)
        #expect(abs(snr - truth) <= 1.5, "SNR \(snr) dB for \(truth) dB")
        #expect(during.noiseSource == .outsideTheBand)
        #expect(during.ongoing && during.tonesPresent)
        #expect(readings.last?.verdict == (truth < 3 ? .noisy : .ok))
    }

    @Test("a clean 16-bit signal reads above 60 dB, at its level, with both tones")
    func clean() throws {
        let readings = LevelRecording.readings(
            try LevelRecording.make(bytes: 200, amplitude: 0.891, snr: nil, trail: 3))
        let burst = try LevelRecording.lastBurst(readings)
        #expect((burst.snr ?? 0) > 60, "SNR \(String(describing: burst.snr))")
        #expect(burst.tonesPresent)
        #expect(abs(burst.levelDBFS - (-1)) < 0.5, "level \(burst.levelDBFS)")
        // Each tone is on about half the time: about 3 dB under the burst.
        #expect(
            abs(burst.markDBFS - (-4)) < 1.5 && abs(burst.spaceDBFS - (-4)) < 1.5,
            "\(burst.markDBFS) \(burst.spaceDBFS)")
        #expect(abs(burst.markFrequency - 7350) < 25 && abs(burst.spaceFrequency - 4900) < 25)
        #expect(readings.contains { $0.verdict == .ok })
        #expect(readings.last?.verdict == .idle)
    }

    @Test(
        "every built-in profile: 10 dB within 1.5 dB with and without gaps; a clean signal reads 35 dB or more",
        arguments: [
            ModemProfile.softmodem2450, .softmodem630, .softmodem315, .softmodem126, .bell202, .bell103, .webjack1225,
        ])
    func profiles(profile: ModemProfile) throws {
        for lead in [1.0, 0.0] {
            let noisy = LevelRecording.readings(
                try LevelRecording.make(
                    profile: profile, bytes: 100, amplitude: 0.25, snr: 10, lead: lead, trail: lead), profile: profile)
            let burst = try LevelRecording.lastBurst(noisy)
            #expect(abs((burst.snr ?? 0) - 10) <= 1.5 && burst.tonesPresent, "\(burst)")
            let clean = LevelRecording.readings(
                try LevelRecording.make(profile: profile, bytes: 100, snr: nil, lead: lead, trail: lead),
                profile: profile)
            let cleanBurst = try LevelRecording.lastBurst(clean)
            #expect((cleanBurst.snr ?? 0) >= 35, "\(cleanBurst)")
        }
    }

    @Test("between bursts, a noisy or wrong last burst keeps its advice; a good one reads idle")
    func adviceBetweenBursts() throws {
        let noisy = LevelRecording.readings(try LevelRecording.make(bytes: 100, amplitude: 0.25, snr: 0, trail: 4))
        #expect(noisy.last?.verdict == .noisy)
        let wrong = LevelRecording.readings(
            try LevelRecording.make(profile: .webjack1225, bytes: 100, snr: 20, trail: 4))
        #expect(
            wrong.last.map { if case .noProfileTones = $0.verdict { true } else { false } } == true,
            "\(String(describing: wrong.last))")
        let good = LevelRecording.readings(try LevelRecording.make(bytes: 100, snr: 20, trail: 4))
        #expect(good.last?.verdict == .idle)
    }

    @Test("a 40-byte burst: SNR within 1.5 dB at 20 dB, both tones, 'ok' while it lasts and just after")
    func shortBurst() throws {
        let readings = LevelRecording.readings(try LevelRecording.make(bytes: 40, snr: 20))
        let burst = try LevelRecording.lastBurst(readings)
        #expect(abs((burst.snr ?? 0) - 20) <= 1.5, "SNR \(String(describing: burst.snr))")
        #expect(burst.tonesPresent)
        #expect(abs(burst.durationSeconds - (50 + 400 + 7) / 1225.0) < 0.06, "\(burst.durationSeconds) s")
        let during = readings.filter { $0.burst != nil && $0.burstAge <= 1 }
        #expect(!during.isEmpty && during.allSatisfy { $0.verdict == .ok }, "\(during.map(\.verdict))")
    }

    @Test(
        "a reading that caught only a burst's preamble (mark alone) does not say 'no tones'",
        arguments: [0.06, 0.07, 0.08])
    func preambleOnly(lead: Double) throws {
        let readings = LevelRecording.readings(try LevelRecording.make(bytes: 40, snr: 30, lead: lead))
        let first = try #require(readings.first { $0.burst != nil })
        #expect(first.verdict == .ok, "\(first)")
        #expect(!readings.contains { if case .noProfileTones = $0.verdict { true } else { false } })
    }

    @Test(
        "a burst that starts in the last, unanalysed frame of a reading does not say 'no tones' for it",
        arguments: [0.094, 0.096, 0.098, 0.1944, 0.1966])
    func burstStartingAtTheEndOfAReading(lead: Double) throws {
        // Readings every 0.1 s (4,410 samples) and 1,024-sample frames: each lead puts the
        // burst's first samples after the reading's last complete frame.
        let readings = LevelRecording.readings(
            try LevelRecording.make(bytes: 40, amplitude: 0.891, snr: nil, lead: lead), chunk: 441)
        #expect(!readings.contains { if case .noProfileTones = $0.verdict { true } else { false } }, "\(readings)")
        #expect(readings.contains { $0.verdict == .ok })
    }

    @Test("2000 bytes at -1 dBFS, clean: every reading of the burst says ok with an SNR above 60 dB")
    func longBurst() throws {
        let readings = LevelRecording.readings(
            try LevelRecording.make(bytes: 2000, amplitude: 0.891, snr: nil, lead: 0.5, trail: 0.5))
        let during = readings.filter { $0.burst?.ongoing == true }
        #expect(during.count > 150)
        for r in during.dropFirst() {
            #expect(r.verdict == .ok && (r.burst?.snr ?? 0) > 60, "\(r)")
            #expect(abs(r.peakDBFS - (-1)) < 0.3)
        }
    }

    @Test(
        "another profile's tones are named, never 'ok'", arguments: [ModemProfile.bell202, .webjack1225, .softmodem630])
    func wrongProfile(sender: ModemProfile) throws {
        let x = try LevelRecording.make(profile: sender, bytes: 200, snr: 30)
        let readings = LevelRecording.readings(x)
        let loud = readings.filter { $0.peakDBFS > -20 }
        #expect(!loud.isEmpty)
        for r in loud {
            guard case .noProfileTones(let strongest) = r.verdict else {
                Issue.record("verdict \(r.verdict) for \(sender.name)")
                continue
            }
            let f = try #require(strongest)
            // Within the sender's band (its strongest frequency wanders with the data).
            let low = min(sender.mark, sender.space) - sender.baud / 2
            let high = max(sender.mark, sender.space) + sender.baud / 2
            #expect(f > low && f < high, "strongest \(f) Hz")
        }
        #expect(readings.allSatisfy { $0.burst?.tonesPresent != true })
    }

    @Test("clipping is reported while it happens and for two seconds after")
    func clipping() throws {
        let x = try LevelRecording.make(bytes: 200, amplitude: 1, snr: 30, lead: 0.5, trail: 3).map {
            max(-1, min(1, $0 * 1.4))
        }
        let readings = LevelRecording.readings(x)
        let clipped = readings.filter { $0.clippedSamples > 0 }
        #expect(!clipped.isEmpty && clipped.allSatisfy { $0.verdict == .clipping && $0.peakDBFS > -0.1 })
        #expect(readings.last?.verdict != .clipping)
    }

    @Test("silence and a quiet line read 'no signal', with no burst", arguments: [nil, -80.0] as [Double?])
    func silence(noiseDBFS: Double?) {
        var x = [Float](repeating: 0, count: 3 * Int(LevelRecording.rate))
        if let noiseDBFS {
            var noise = GaussianNoise(standardDeviation: (0.5 * pow(10, noiseDBFS / 10)).squareRoot(), seed: 3)
            noise.add(to: &x)
        }
        let readings = LevelRecording.readings(x)
        #expect(readings.count == 30)
        #expect(readings.allSatisfy { $0.verdict == .noSignal && $0.burst == nil })
        if noiseDBFS == nil {
            #expect(readings.allSatisfy { $0.peakDBFS == -.infinity && $0.peakHoldDBFS == -.infinity })
        }
    }

    @Test("NaN and infinite samples are read as silence and leave the next burst's reading intact")
    func nonFinite() throws {
        var x =
            [Float](repeating: .nan, count: 5_000) + [Float](repeating: .infinity, count: 3_000) + [-.infinity, .nan]
        x += try LevelRecording.make(bytes: 100, snr: 20, lead: 0.5)
        let readings = LevelRecording.readings(x)
        #expect(readings.allSatisfy { $0.peakDBFS.isNaN == false && $0.rmsDBFS.isNaN == false })
        let burst = try LevelRecording.lastBurst(readings)
        #expect(abs((burst.snr ?? 0) - 20) <= 1.5, "\(burst)")
    }

    @Test("the same readings whatever the chunk size")
    func chunking() throws {
        let x = try LevelRecording.make(bytes: 60, snr: 10, lead: 0.3, trail: 0.5)
        let a = LevelRecording.readings(x, chunk: 1)
        let b = LevelRecording.readings(x, chunk: 4410)
        let c = LevelRecording.readings(x, chunk: 777)
        #expect(a == b && b == c)
    }

    @Test("peak hold keeps the highest peak for two seconds, then follows the signal down")
    func peakHold() throws {
        var x = try LevelRecording.make(bytes: 20, amplitude: 0.9, snr: nil, lead: 0.2, trail: 0)
        x += try LevelRecording.make(bytes: 400, amplitude: 0.1, snr: nil, lead: 0, trail: 0)
        let readings = LevelRecording.readings(x)
        let quiet = readings.filter { abs($0.peakDBFS - (-20)) < 0.5 }
        #expect(quiet.contains { abs($0.peakHoldDBFS - (-0.9)) < 0.3 })
        #expect(quiet.last.map { abs($0.peakHoldDBFS - (-20)) < 0.5 } == true)
    }
}
