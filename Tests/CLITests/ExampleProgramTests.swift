import Foundation
import ModemDSP
import ModemTestSupport
import Testing

/// The programs in Examples/ use only the public libraries; they are built with the package
/// (beside the softmodem binary) and must work, not only compile.
@Suite struct ExampleProgramTests {
    static var decodeWAV: String {
        URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("decode-wav").path
    }

    @Test func decodeWAVPrintsTheSamplesText() throws {
        let sample = CLI.packageRoot.appendingPathComponent("samples/hello-softmodem-1225.wav").path
        let r = try CLI.run(Self.decodeWAV, [sample])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText == (try CLI.softmodem(["decode", sample])).stdoutText)
        #expect(r.stdoutText.hasPrefix("Hello from softmodem!"))
    }

    @Test func decodeWAVPrintsNothingFromNoiseAndSaysWhy() throws {
        var samples = [Float](repeating: 0, count: 88_200)
        var noise = GaussianNoise(standardDeviation: 0.1, seed: 12)
        noise.add(to: &samples)
        let r = try CLI.run(Self.decodeWAV, [try DecodeDiagnosisCLITests.wav(samples)])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("decode-wav: "), "\(r.stderr)")
    }
}

/// The second example: a file over the reliable link to the board model, through the
/// in-memory sound card.
@Suite struct SendToBoardExampleTests {
    static var sendToBoard: String {
        URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().appendingPathComponent("send-to-board").path
    }

    @Test func theBoardGetsTheFileExactlyEvenWithAcknowledgementsLost() throws {
        let file = CLI.packageRoot.appendingPathComponent("samples/all-bytes-softmodem-2450.bin").path
        let content = try Data(contentsOf: URL(fileURLWithPath: file))
        // The board acknowledges every packet, so only losing the last acknowledgements costs a
        // retransmission: the capture stalls from 3 s, while they come back.
        let r = try CLI.run(Self.sendToBoard, [file, "--drop-acks-at", "3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == content)
        #expect(r.stderr.contains("retransmitted") && !r.stderr.contains(" 0 retransmitted"), "\(r.stderr)")
    }

    @Test func aMissingFileIsOneLineAndStatusOne() throws {
        let r = try CLI.run(Self.sendToBoard, ["/nonexistent/file"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("send-to-board: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
