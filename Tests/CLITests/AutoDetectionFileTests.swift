import CommandLineText
import Foundation
import ModemAudioIO
import ModemDSP
import ModemTestSupport
import Testing

/// The automatic receiver and the input survey on real files: the recordings in samples/,
/// and the interference corpus (see InterferenceCorpusTests).
@Suite("automatic detection on files")
struct AutoDetectionFileTests {
    /// The first channel of an audio file, as floats.
    static func read(_ path: String) throws -> (samples: [Float], rate: Double) {
        let reader = try SoundFileReader(path: path)
        var all: [Float] = []
        var buffer = [Float](repeating: 0, count: 8192 * reader.channels)
        while true {
            let frames = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0) }
            if frames == 0 { break }
            for f in 0..<frames { all.append(buffer[f * reader.channels]) }
        }
        return (all, reader.sampleRate)
    }

    static func auto(_ samples: [Float], rate: Double) throws -> (bytes: [UInt8], detections: [Detection]) {
        var receiver = try AutoReceiver(sampleRate: rate)
        var events: [ModemEvent] = []
        samples.withUnsafeBufferPointer { receiver.process($0, into: &events) }
        receiver.flush(into: &events)
        return (events.filter { $0.kind == .byte }.map(\.value), receiver.detections)
    }

    static func samples(_ name: String) -> String { CLI.packageRoot.appendingPathComponent("samples/\(name)").path }

    @Test(
        "the sample recordings decode exactly with no profile given",
        arguments: [
            ("hello-softmodem-1225.wav", "hello-softmodem-1225.txt", "softmodem-1225"),
            ("hello-webjack-1225.wav", "hello-webjack-1225.txt", "webjack-1225"),
            ("all-bytes-softmodem-2450.wav", "all-bytes-softmodem-2450.bin", "softmodem-2450"),
        ])
    func sampleRecordings(audio: String, truth: String, profile: String) throws {
        let (signal, rate) = try Self.read(Self.samples(audio))
        let want = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.samples(truth))))
        let (got, detections) = try Self.auto(signal, rate: rate)
        #expect(got == want, "\(audio): \(got.count) bytes, \(detections)")
        #expect(Set(detections.map(\.signature.profile?.name)) == [profile], "\(detections)")
    }

    @Test("the survey names the 2450-baud sample's modem and the profile that decodes it")
    func surveyOfWrongProfile() throws {
        let (signal, rate) = try Self.read(Self.samples("all-bytes-softmodem-2450.wav"))
        var survey = SignalSurvey(sampleRate: rate)
        signal.withUnsafeBufferPointer { survey.process($0) }
        guard case .modem(let found) = survey.diagnosis() else {
            Issue.record("\(survey.diagnosis())")
            return
        }
        #expect(found.profile?.name == "softmodem-2450")
        #expect(!found.fits(.softmodem1225))
        #expect(
            survey.diagnosis().text.hasSuffix("decode with --profile softmodem-2450"), "\(survey.diagnosis())")
    }

    @Test("the automatic receiver prints at most 1 false byte on the interference corpus")
    func corpus() throws {
        try InterferenceCorpusTests.withCorpus { dir, files in
            var total = 0
            var culprits: [String] = []
            for file in files {
                let (signal, rate) = try Self.read(dir.appendingPathComponent(file).path)
                let (bytes, _) = try Self.auto(signal, rate: rate)
                total += bytes.count
                if !bytes.isEmpty { culprits.append("\(file): \(bytes.count)") }
            }
            // Whistles alternating between two modem tones once read as slow FSK (254
            // bytes); the warble test in the bit timing estimator rejects them now.
            #expect(total <= 1, "false bytes: \(total) (\(culprits.joined(separator: ", ")))")
        }
    }
}
