import Foundation
import ModemTestSupport
import Testing

/// About 21 minutes of sounds that are not a modem (speech in many voices, music, DTMF,
/// ringback, chirps, two-tone whistles, clicks, hum, white and pink noise, -40 dBFS to near
/// full scale), made at test time by Tests/Corpus/make-interference-corpus.sh and decoded by
/// the command line with no options, as a new user would. Skipped when espeak-ng or sox is
/// missing (`make deps` installs both).
@Suite("interference corpus")
struct InterferenceCorpusTests {
    static let generator = CLI.packageRoot.appendingPathComponent("Tests/Corpus/make-interference-corpus.sh")

    /// Generates the corpus in a temporary folder, hands `body` the folder and its files
    /// (sorted), then removes it; does nothing (and says so) without espeak-ng or sox.
    static func withCorpus(_ body: (URL, [String]) throws -> Void) throws {
        guard CLI.which("espeak-ng") != nil, CLI.which("sox") != nil else {
            print("skipped: espeak-ng or sox not installed")
            return
        }
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let made = try CLI.run("/bin/bash", [generator.path, dir.path], timeout: 600)
        try #require(made.status == 0, "corpus generator failed: \(made.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".wav") }
            .sorted()
        try #require(files.count >= 40, "corpus has \(files.count) files")
        try body(dir, files)
    }

    @Test("default decode prints at most 1 false byte in the whole corpus")
    func falseBytes() throws {
        try Self.withCorpus { dir, files in
            var total = 0
            var culprits: [String] = []
            for file in files {
                let result = try CLI.softmodem(["decode", dir.appendingPathComponent(file).path])
                #expect(result.status == 0 || result.status == 1, "\(file): exit \(result.status): \(result.stderr)")
                total += result.stdout.count
                if !result.stdout.isEmpty { culprits.append("\(file): \(result.stdout.count)") }
            }
            #expect(total <= 1, "false bytes: \(total) (\(culprits.joined(separator: ", ")))")
        }
    }
}
