import Foundation
import ModemFraming
import ModemTestSupport
import Testing

/// Compiles samples/arduino/common with g++ and checks it against the Swift codecs with
/// shared, seeded test vectors.
@Suite struct BoardCodeTests {
    static let root = CLI.packageRoot

    static func gxx() -> String? { CLI.which("g++") }

    static func run(_ exe: String, _ args: [String], input: String = "") throws -> (Int32, String) {
        let r = try CLI.run(exe, args, stdin: Data(input.utf8), timeout: 600)
        return (r.status, r.stdoutText + r.stderr)
    }

    /// Every sketch compiles (against host stubs of Arduino.h and SoftModem.h) and links
    /// with the shared framing code.
    @Test func sketchesCompile() throws {
        guard let gxx = Self.gxx() else {
            print("BoardCodeTests: g++ not found, skipping the sketch compile check")
            return
        }
        let arduino = Self.root.appendingPathComponent("samples/arduino")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("softmodem-sketch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let sketches = try FileManager.default.contentsOfDirectory(atPath: arduino.path).sorted().filter {
            FileManager.default.fileExists(atPath: arduino.appendingPathComponent("\($0)/\($0).ino").path)
        }
        #expect(sketches.count >= 9)
        for name in sketches {
            let exe = dir.appendingPathComponent(name).path
            let (status, log) = try Self.run(
                gxx,
                [
                    "-std=c++11", "-Wall", "-Wextra", "-Werror", "-x", "c++", "-include", "Arduino.h",
                    "-I", arduino.appendingPathComponent("host/stubs").path, "-I",
                    arduino.appendingPathComponent("common").path,
                    arduino.appendingPathComponent("\(name)/\(name).ino").path, "-x", "none",
                    arduino.appendingPathComponent("host/stubs/sketch_main.cpp").path,
                    arduino.appendingPathComponent("common/modem_framing.cpp").path, "-o", exe,
                ])
            #expect(status == 0, "\(name): \(log)")
            if status == 0 { #expect(try Self.run(exe, []).0 == 0, "\(name) crashed in setup/loop") }
        }
    }

    static func hex(_ b: [UInt8]) -> String { b.isEmpty ? "-" : hexString(b) }

    @Test func cppMatchesSwift() throws {
        guard let gxx = Self.gxx() else {
            print("BoardCodeTests: g++ not found, skipping the C++ comparison")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("softmodem-cpp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let exe = dir.appendingPathComponent("framing_vectors").path
        let arduino = Self.root.appendingPathComponent("samples/arduino")
        let (status, log) = try Self.run(
            gxx,
            [
                "-std=c++11", "-O1", "-Wall", "-Wextra", "-Werror", "-I", arduino.appendingPathComponent("common").path,
                arduino.appendingPathComponent("host/framing_vectors.cpp").path,
                arduino.appendingPathComponent("common/modem_framing.cpp").path, "-o", exe,
            ])
        try #require(status == 0, "g++ failed: \(log)")

        var rng = FuzzRandom(seed: 2026)
        var v = Vectors()
        Self.checksumAndPacketVectors(&v, &rng)
        Self.motorVectors(&v, &rng)
        Self.streamAndEncoderVectors(&v, &rng)
        Self.falseSyncVectors(&v, &rng)
        Self.linkReceiverVectors(&v, &rng)
        let (commands, expected) = (v.commands, v.expected)

        let (code, output) = try Self.run(exe, [], input: commands.joined(separator: "\n") + "\n")
        #expect(code == 0)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try #require(lines.count >= expected.count)
        var mismatches = 0
        for (i, e) in expected.enumerated() where lines[i] != e {
            mismatches += 1
            if mismatches <= 5 {
                Issue.record(
                    "C++ and Swift differ for '\(commands[i].prefix(80))': C++ \(lines[i].prefix(120)), Swift \(e.prefix(120))"
                )
            }
        }
        #expect(mismatches == 0)
    }

    /// Commands for the C++ vector tool and the answers the Swift code gives.
    struct Vectors {
        var commands: [String] = []
        var expected: [String] = []
        mutating func add(_ c: String, _ e: String) {
            commands.append(c)
            expected.append(e)
        }
    }

    /// CRCs, COBS and SLIP of random data (zeros and edge lengths included), and junk to decode.
    static func checksumAndPacketVectors(_ v: inout Vectors, _ rng: inout FuzzRandom) {
        for n in [0, 1, 9, 253, 254, 255, 300] + (0..<40).map({ _ in rng.below(64) }) {
            var data = rng.bytes(n)
            if n > 0 && rng.below(2) == 0 { for _ in 0..<rng.below(n) { data[rng.below(n)] = 0 } }
            if n == 254 || n == 9 { data = data.map { $0 | 1 } }
            v.add("crc16 \(Self.hex(data))", String(format: "%04x", CRC16.checksum(data)))
            v.add("crc32 \(Self.hex(data))", String(format: "%08x", CRC32.checksum(data)))
            v.add("cobs \(Self.hex(data))", hexString(COBSPacket.encode(data)))
            v.add("cobsdec \(Self.hex(COBSPacket.encode(data)))", hexString(data))
            v.add("slip \(Self.hex(data))", hexString(SLIPPacket.encode(data)))
            let junk = rng.bytes(rng.int(1...12))
            v.add("cobsdec \(Self.hex(junk))", COBSPacket.decode(junk).map { hexString($0) } ?? "invalid")
        }
    }

    /// Motor packets: encoding, and decoding four bytes (some random).
    static func motorVectors(_ v: inout Vectors, _ rng: inout FuzzRandom) {
        for _ in 0..<300 {
            let m = MotorCommand(
                steering: rng.int(-255...255), acceleration: rng.int(-255...255), headlights: rng.below(2) == 0,
                brakeLights: rng.below(2) == 0)
            v.add(
                "motor \(m.steering) \(m.acceleration) \(m.headlights ? 1 : 0) \(m.brakeLights ? 1 : 0)",
                hexString(m.raw))
            let four = rng.below(3) == 0 ? rng.bytes(4) : m.raw
            v.add(
                "motordec \(Self.hex(four))",
                MotorCommand.decode(four).map {
                    "\($0.steering) \($0.acceleration) \($0.headlights ? 1 : 0) \($0.brakeLights ? 1 : 0)"
                } ?? "invalid")
        }
    }

    /// Streams of valid packets mixed with garbage (motor, pin, accessory) and single encodings (accessory, XBee API, link packets).
    static func streamAndEncoderVectors(_ v: inout Vectors, _ rng: inout FuzzRandom) {
        for _ in 0..<100 {
            // Streams of valid packets mixed with garbage: same messages, same discard count.
            var stream: [UInt8] = []
            for _ in 0..<rng.int(1...6) {
                if rng.below(2) == 0 { stream += rng.bytes(rng.int(1...5)) }
                stream +=
                    MotorCommand(
                        steering: rng.int(-255...255), acceleration: rng.int(-255...255), headlights: rng.below(2) == 0
                    ).raw
            }
            var p = MotorCommandParser()
            let got = p.parse(stream).map {
                "\($0.steering),\($0.acceleration),\($0.headlights ? 1 : 0),\($0.brakeLights ? 1 : 0);"
            }.joined()
            v.add("motorstream \(Self.hex(stream))", got + "|\(p.discardedBytes)")

            let pins = (0..<rng.int(1...12)).map { _ in rng.below(3) == 0 ? rng.byte() : UInt8(rng.below(14)) }
            var pp = PinCommandParser()
            let pg = pp.parse(pins).map { "\($0.pin),\($0.high ? 1 : 0);" }.joined()
            v.add("pinstream \(Self.hex(pins))", pg + "|\(pp.discardedBytes)")

            var acc: [UInt8] = []
            var enc = AccessoryFrameEncoder(firstCounter: rng.byte())
            for _ in 0..<rng.int(1...5) {
                if rng.below(3) == 0 { acc += rng.bytes(rng.int(1...4)) }
                let f = enc.encode(command: rng.byte(), payload: rng.bytes(rng.int(0...24)))
                if rng.below(4) != 0 { acc += f }
            }
            var ap = AccessoryFrameParser()
            let ag = ap.parse(acc).map { "\($0.counter),\($0.command),\(hexString($0.payload)),\($0.lostBefore);" }
                .joined()
            v.add("accstream \(Self.hex(acc))", ag + "|\(ap.discardedBytes)")

            let payload = rng.bytes(rng.int(0...24))
            let counter = rng.byte()
            let command = rng.byte()
            v.add(
                "accessory \(counter) \(command) \(Self.hex(payload))",
                hexString(AccessoryFrame(counter: counter, command: command, payload: payload).raw))
            let api = rng.byte()
            let esc = rng.below(2) == 0
            let data = (0..<rng.int(0...20)).map { _ in
                rng.below(3) == 0 ? [0x7E, 0x7D, 0x11, 0x13][rng.below(4)] : rng.byte()
            }
            v.add(
                "xbeeapi \(api) \(esc ? 1 : 0) \(Self.hex(data))",
                hexString(XBeeAPIFrame(apiIdentifier: api, data: data, escaped: esc).raw))
            let seq = UInt16(truncatingIfNeeded: rng.next())
            let kinds: [LinkPacket.Kind] = [.data, .dataEnd, .ack]
            let kind = kinds[rng.below(3)]
            let lp = kind == .ack ? [] : rng.bytes(rng.int(0...20))
            v.add(
                "link \(kind.rawValue) \(seq) \(Self.hex(lp))",
                hexString(LinkPacket(kind: kind, seq: seq, payload: lp).wireBytes))
        }
    }

    /// A false sync announcing a long accessory frame, then real frames.
    static func falseSyncVectors(_ v: inout Vectors, _ rng: inout FuzzRandom) {
        for _ in 0..<50 {
            // A false sync announcing a long frame, then real frames.
            var acc: [UInt8] = [0x0F, 0xF0, rng.byte(), rng.byte(), UInt8(rng.int(8...24))]
            var enc = AccessoryFrameEncoder(firstCounter: rng.byte())
            for _ in 0..<rng.int(1...3) { acc += enc.encode(command: rng.byte(), payload: rng.bytes(rng.int(0...6))) }
            var ap = AccessoryFrameParser()
            let ag = ap.parse(acc).map { "\($0.counter),\($0.command),\(hexString($0.payload)),\($0.lostBefore);" }
                .joined()
            v.add("accstream \(Self.hex(acc))", ag + "|\(ap.discardedBytes)")
        }
    }

    /// The board's link receiver against the Swift one (stating the sketch's capabilities), on
    /// damaged, duplicated and reordered streams (packets held past a gap, some past the window),
    /// some opened by a sender's hello.
    static func linkReceiverVectors(_ v: inout Vectors, _ rng: inout FuzzRandom) {
        for _ in 0..<100 {
            var packets: [[UInt8]] = []
            if rng.below(2) == 0 {
                let request = LinkCapabilities.host.helloPayload(request: true) + rng.bytes(4)
                packets.append(LinkPacket(kind: .hello, seq: 0, payload: request).wireBytes)
            }
            var seq: UInt16 = 0
            for _ in 0..<rng.int(1...14) {
                let p = LinkPacket(
                    kind: rng.below(3) == 0 ? .dataEnd : .data, seq: seq, payload: rng.bytes(rng.int(0...64))
                ).wireBytes
                seq &+= 1
                packets.append(p)
                if rng.below(4) == 0 { packets.append(p) }
            }
            // A packet moved later arrives after those behind it: they wait for it in the slots.
            for _ in 0..<rng.below(3) where packets.count > 2 {
                let from = rng.below(packets.count - 1)
                let p = packets.remove(at: from)
                packets.insert(p, at: rng.int(from...packets.count))
            }
            var stream = packets.flatMap { $0 }
            for _ in 0..<rng.below(3) where !stream.isEmpty { stream[rng.below(stream.count)] ^= 0x20 }
            var receiver = ReliableReceiver(configuration: LinkConfiguration(capabilities: .arduinoSketch))
            let deliveries = receiver.receive(stream, at: 0)
            let got = deliveries.map { hexString($0.bytes) + ($0.endOfMessage ? "+" : "") + ";" }.joined()
            var parser = LinkPacketParser()
            let answer = (receiver.nextBurst(at: 1) ?? []).compactMap { parser.push($0) }
            let hello = answer.first { $0.kind == .hello }.map { hexString($0.wireBytes) } ?? "-"
            // With no data heard the board's ACK is still asked for: next 0, nothing held.
            let ack = answer.first { $0.kind == .ack } ?? .ack(next: 0, bitmap: 0)
            v.add(
                "linkrx \(Self.hex(stream))",
                got + "|\(hello)|\(hexString(ack.wireBytes))|\(receiver.statistics.damagedPackets),"
                    + "\(receiver.statistics.duplicates)")
        }
    }
}
