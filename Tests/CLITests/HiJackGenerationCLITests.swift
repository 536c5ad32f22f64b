import BoardModels
import Foundation
import ModemAudioIO
import ModemDSP
import ModemTestSupport
import Testing

/// hijack-infinity and hijack-lab11 on the command line: both directions, their packet
/// protocols, detection with no options, and a pinned generation that does not match.
@Suite("HiJack generations on the command line")
struct HiJackGenerationCLITests {
    static func wav(_ samples: [Float], rate: Double, name: String) throws -> String {
        let path = try CLI.temporaryDirectory().appendingPathComponent(name).path
        let writer = try SoundFileWriter(path: path, sampleRate: Int(rate), channels: 1)
        try samples.withUnsafeBufferPointer { try writer.write($0, channels: 1) }
        try writer.finish()
        return path
    }

    static let lab11Packets = [
        HiJackSignals.lab11Packet(0x43, [0xD0, 0, 0, 0, 0]),  // the firmware's boot packet
        HiJackSignals.lab11Packet(0x06, [0x21, 0x02, 0x34]),  // an analog reading of pin 1
    ]

    /// The test corpus of detection: every generation's board, at two rates, both polarities.
    static func boardFile(_ generation: HiJackGeneration, rate: Double, invert: Bool) throws -> (String, [UInt8]) {
        let name = "\(generation.name)-\(Int(rate))-\(invert).wav"
        switch generation {
        case .lab11:
            let samples = HiJackSignals.lab11BoardSignal(lab11Packets, sampleRate: rate, invert: invert)
            return (try wav(samples, rate: rate, name: name), lab11Packets.flatMap { $0 })
        case .infinity:
            // The stock firmware's 9-byte sensor packet, sent continuously.
            let frame: [UInt8] = [0xDD, 0x0A, 0xFD, 0x34, 0x12, 0, 0, 0x10, 0, 0x20, 0, 0x73]
            let bytes = Array(repeating: frame, count: 4).flatMap { $0 }
            let samples = HiJackSignals.boardSignal(
                bytes, sampleRate: rate, baud: generation.boardBaud, idleBits: 3,
                path: HiJackMicrophonePath(sampleRate: rate, invert: invert), generation: .infinity)
            return (try wav(samples, rate: rate, name: name), bytes)
        case .gen1:
            let bytes = HiJackSignals.randomBytes(40, seed: 8)
            let samples = HiJackSignals.boardSignal(
                bytes, sampleRate: rate, path: HiJackMicrophonePath(sampleRate: rate, invert: invert))
            return (try wav(samples, rate: rate, name: name), bytes)
        }
    }

    @Test("no options: every board's generation is detected and named", arguments: HiJackGeneration.allCases)
    func detectionNamesTheGeneration(generation: HiJackGeneration) throws {
        for rate in [44_100.0, 48_000] {
            for invert in [false, true] {
                let (path, bytes) = try Self.boardFile(generation, rate: rate, invert: invert)
                let r = try CLI.softmodem(["decode", "-v", path])
                #expect(r.status == 0, "\(r.stderr)")
                #expect(Array(r.stdout) == bytes, "\(generation) \(rate) \(invert)")
                #expect(r.stderr.contains("detected \(generation.name) "), "\(r.stderr)")
            }
        }
    }

    @Test("a pinned generation that is not the signal's prints nothing, names it, exit 1")
    func pinnedMismatch() throws {
        let (path, _) = try Self.boardFile(.lab11, rate: 44_100, invert: false)
        for pinned in ["hijack", "hijack-infinity"] {
            let r = try CLI.softmodem(["decode", "--profile", pinned, path])
            #expect(r.status == 1)
            #expect(r.stdout.isEmpty, "\(pinned): \(r.stdout.count) bytes")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.contains("hijack-lab11"), "\(r.stderr)")
        }
        let (gen1, _) = try Self.boardFile(.gen1, rate: 44_100, invert: false)
        let r = try CLI.softmodem(["decode", "--profile", "hijack-lab11", gen1])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
    }

    @Test("lab11 packets as JSON, IO commands read back")
    func lab11JSON() throws {
        let (path, _) = try Self.boardFile(.lab11, rate: 48_000, invert: true)
        let r = try CLI.softmodem(["decode", "--profile", "hijack-lab11", "--protocol", "hijack-lab11", "--json", path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("\"type_name\":\"booted\"") == true, "\(lines)")
        #expect(lines.last?.contains("\"command\":\"analog-read\",\"pin\":1,\"value\":564") == true, "\(lines)")
    }

    @Test("encode --profile hijack-lab11 --io: the lab11 firmware's receiver takes the packet; power 10 kHz at 1/3")
    func lab11EncodeToTheBoard() throws {
        let path = try CLI.temporaryDirectory().appendingPathComponent("io.wav").path
        let r = try CLI.softmodem([
            "encode", "--profile", "hijack-lab11", "--protocol", "hijack-lab11", "--io", "digital-write", "--pin", "3",
            "--state", "high", "--float", "-o", path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let reader = try SoundFileReader(path: path)
        var all = [Float](repeating: 0, count: 2 * Int(reader.frames))
        let frames = try all.withUnsafeMutableBufferPointer { b throws(AudioIOError) in try reader.read(into: b) }
        let left = (0..<frames).map { all[2 * $0] }
        let right = (0..<frames).map { all[2 * $0 + 1] }
        var board = HiJackLab11BoardReceiver(sampleRate: 44_100)
        left.withUnsafeBufferPointer { board.process($0) }
        #expect(board.packets == [[0x06, 0x53, 0x01, 0x5A]])
        #expect(abs(right.map(abs).max()! - 1.0 / 3) < 0.01)
        var crossings = 0
        for i in 1..<frames where (right[i - 1] < 0) != (right[i] < 0) { crossings += 1 }
        #expect(abs(Double(crossings) - 20_000 * Double(frames) / 44_100) < 3)
    }

    @Test("encode --profile hijack-infinity: the infinity firmware's receiver reads the escaped packet")
    func infinityEncodeToTheBoard() throws {
        let r = try CLI.softmodem([
            "encode", "--profile", "hijack-infinity", "--protocol", "hijack-infinity", "--data", "01dd", "--float",
            "-o", "-",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let path = try CLI.temporaryDirectory().appendingPathComponent("inf.wav")
        try r.stdout.write(to: path)
        let reader = try SoundFileReader(path: path.path)
        var all = [Float](repeating: 0, count: 2 * Int(reader.frames))
        let frames = try all.withUnsafeMutableBufferPointer { b throws(AudioIOError) in try reader.read(into: b) }
        var board = HiJackInfinityBoardReceiver(sampleRate: 44_100)
        (0..<frames).map { all[2 * $0] }.withUnsafeBufferPointer { board.process($0) }
        // 0xDD escaped with 0xCC, the length counting it and the checksum, the sum of the payload.
        #expect(board.bytes == [0xDD, 0x04, 0x01, 0xCC, 0xDD, 0xDE])
    }

    @Test("options that do not fit a generation are usage errors")
    func usage() throws {
        let r = try CLI.softmodem([
            "encode", "--profile", "hijack-lab11", "--byte-period", "20", "--text", "x", "-o", "-",
        ])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--byte-period"))
        let io = try CLI.softmodem([
            "encode", "--profile", "hijack-lab11", "--protocol", "hijack-lab11", "--io", "fly", "-o", "-",
        ])
        #expect(io.status == 2)
        let pin = try CLI.softmodem([
            "encode", "--profile", "hijack-lab11", "--protocol", "hijack-lab11", "--io", "analog-read", "--pin", "5",
            "-o", "-",
        ])
        #expect(pin.status == 2)
        #expect(pin.stderr.contains("--pin must be 0-3"), "\(pin.stderr)")
    }
}
