import ModemFraming
import Testing

/// Small, fast, seeded generator (xorshift64*) so failures reproduce.
struct FuzzRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 32) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }
    mutating func printable(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(32 + below(95)) } }
}

/// Bytes that delimit, escape or start messages in one protocol or another.
private let interesting: [UInt8] = [
    0x00, 0x01, 0x0A, 0x0D, 0x0F, 0xF0, 0x11, 0x13, 0x3A, 0x52, 0x2B, 0x7D, 0x7E, 0xC0, 0xDB, 0xDC, 0xDD, 0xFF,
]

/// No parser may hold more than this many bytes, whatever it is fed.
private let bufferCap = 1_100

/// One protocol under fuzz: its parser and a generator of valid encodings.
struct FuzzCase: Sendable, CustomStringConvertible {
    var name: String
    var run: @Sendable (Int, UInt64) -> Void
    var description: String { name }
}

/// Feeds `iterations` chunks of random, mutated and valid bytes. Valid encodings fed to a
/// fresh parser must come back as exactly one message with the same bytes.
func fuzz<P: MessageParser>(_ make: () -> P, iterations: Int, seed: UInt64, encode: (inout FuzzRandom) -> [UInt8]) {
    var rng = FuzzRandom(seed: seed)
    var parser = make()
    var out: [P.Message] = []
    var fed = 0
    var time = 0.0
    var roundTripFailures = 0
    var capViolations = 0
    var chunk: [UInt8] = []
    chunk.reserveCapacity(64)
    for i in 0..<iterations {
        chunk.removeAll(keepingCapacity: true)
        switch rng.below(16) {
        case 0..<6:
            for _ in 0..<rng.int(1...12) { chunk.append(rng.byte()) }
        case 6, 7:
            for _ in 0..<rng.int(1...8) { chunk.append(interesting[rng.below(interesting.count)]) }
        case 8:
            // Round trip through a fresh parser.
            let valid = encode(&rng)
            var fresh = make()
            var got: [P.Message] = []
            for b in valid { fresh.push(b, at: 0, into: &got) }
            // A packet with no length or end byte (hijack-lab11) ends when time passes.
            if got.isEmpty, let late = fresh.advance(to: 10) { got.append(late) }
            if got.count != 1 || got[0].raw != valid { roundTripFailures += 1 }
            chunk += valid
        default:
            chunk += encode(&rng)
            for _ in 0..<rng.int(1...3) where !chunk.isEmpty {
                let k = rng.below(chunk.count)
                switch rng.below(5) {
                case 0: chunk[k] ^= UInt8(1 << rng.below(8))
                case 1: chunk[k] = rng.byte()
                case 2: chunk.insert(interesting[rng.below(interesting.count)], at: k)
                case 3: chunk.remove(at: k)
                default: chunk += chunk[k...].prefix(4)
                }
            }
        }
        // Irregular byte times so timing rules (XBee guard time) are exercised too.
        time += rng.below(16) == 0 ? 1.5 : 0.001
        for b in chunk {
            parser.push(b, at: time, into: &out)
            if parser.bufferedBytes > bufferCap { capViolations += 1 }
        }
        if let m = parser.advance(to: time) { out.append(m) }
        fed += chunk.count
        out.removeAll(keepingCapacity: true)
        if i % 100_000 == 99_999 { parser = make() }
    }
    #expect(roundTripFailures == 0)
    #expect(capViolations == 0)
    #expect(parser.discardedBytes <= fed)
}

#if DEBUG
    private let iterations = 20_000
#else
    private let iterations = 1_000_000
#endif

@Suite struct FuzzTests {
    static let cases: [FuzzCase] = [
        FuzzCase(name: "line") { n, s in
            fuzz(TextLineParser.init, iterations: n, seed: s) { r in
                TextLine.encode(String(decoding: r.printable(r.int(1...40)), as: UTF8.self))
            }
        },
        FuzzCase(name: "pin") { n, s in
            fuzz(PinCommandParser.init, iterations: n, seed: s) { r in
                PinCommand.encode(pin: r.int(2...13), high: r.below(2) == 1)!
            }
        },
        FuzzCase(name: "pin-reply") { n, s in
            fuzz(PinReplyParser.init, iterations: n, seed: s) { r in
                PinReply.encode(pin: r.int(2...13), state: r.below(2))
            }
        },
        FuzzCase(name: "range") { n, s in
            fuzz(RangeLineParser.init, iterations: n, seed: s) { r in
                RangeReading.encodeLine(centimetres: r.int(0...765))
            }
        },
        FuzzCase(name: "ez1") { n, s in
            fuzz(EZ1Parser.init, iterations: n, seed: s) { r in RangeReading.encodeEZ1(inches: r.int(0...255)) }
        },
        FuzzCase(name: "toggle") { n, s in fuzz(StreamToggleParser.init, iterations: n, seed: s) { r in [r.byte()] } },
        FuzzCase(name: "motor") { n, s in
            fuzz(MotorCommandParser.init, iterations: n, seed: s) { r in
                MotorCommand(
                    steering: r.int(-255...255), acceleration: r.int(-255...255), headlights: r.below(2) == 0,
                    brakeLights: r.below(2) == 0
                ).raw
            }
        },
        FuzzCase(name: "accessory") { n, s in
            fuzz(AccessoryFrameParser.init, iterations: n, seed: s) { r in
                AccessoryFrame(counter: r.byte(), command: r.byte(), payload: r.bytes(r.int(0...12))).raw
            }
        },
        FuzzCase(name: "xbee-at") { n, s in
            fuzz({ XBeeCommandParser(guardTime: 1) }, iterations: n, seed: s) { r in
                let names = ["BD", "ID", "MY", "DL", "WR", "CN"]
                return Array("AT\(names[r.below(names.count)]) \(r.int(0...9999))\r".utf8)
            }
        },
        FuzzCase(name: "xbee-reply") { n, s in
            fuzz(XBeeReplyParser.init, iterations: n, seed: s) { r in
                r.below(2) == 0 ? XBeeReply.ok : Array("\(r.int(0...7))\r".utf8)
            }
        },
        FuzzCase(name: "xbee-api") { n, s in
            fuzz({ XBeeAPIFrameParser(escaped: false) }, iterations: n, seed: s) { r in
                XBeeAPIFrame(apiIdentifier: r.byte(), data: r.bytes(r.int(0...16))).raw
            }
        },
        FuzzCase(name: "xbee-api2") { n, s in
            fuzz({ XBeeAPIFrameParser(escaped: true) }, iterations: n, seed: s) { r in
                XBeeAPIFrame(apiIdentifier: r.byte(), data: r.bytes(r.int(0...16)), escaped: true).raw
            }
        },
        FuzzCase(name: "slip") { n, s in
            fuzz(SLIPParser.init, iterations: n, seed: s) { r in SLIPPacket(payload: r.bytes(r.int(1...16))).raw }
        },
        FuzzCase(name: "cobs") { n, s in
            fuzz(COBSParser.init, iterations: n, seed: s) { r in COBSPacket(payload: r.bytes(r.int(1...16))).raw }
        },
        FuzzCase(name: "hijack") { n, s in fuzz(HiJackSampleParser.init, iterations: n, seed: s) { r in [r.byte()] } },
        FuzzCase(name: "hijack-rate") { n, s in fuzz(HiJackRateParser.init, iterations: n, seed: s) { r in [r.byte()] }
        },
        FuzzCase(name: "hijack-infinity") { n, s in
            fuzz(HiJackInfinityFrameParser.init, iterations: n, seed: s) { r in
                // Payloads the length byte can carry with their escapes.
                var payload = r.bytes(r.int(1...7))
                if r.below(3) == 0 { payload[r.below(payload.count)] = 0xDD }
                return HiJackInfinityFrame.encode(payload: payload) ?? [0xDD, 2, 1, 1]
            }
        },
        FuzzCase(name: "hijack-lab11") { n, s in
            fuzz(HiJackLab11PacketParser.init, iterations: n, seed: s) { r in
                HiJackLab11Packet(header: r.byte(), payload: r.bytes(r.int(1...20))).raw
            }
        },
        FuzzCase(name: "link") { n, s in
            fuzz(LinkPacketMessageParser.init, iterations: n, seed: s) { r in
                r.below(3) == 0
                    ? LinkPacket(kind: .ack, seq: UInt16(truncatingIfNeeded: r.next())).wireBytes
                    : LinkPacket(
                        kind: r.below(2) == 0 ? .data : .dataEnd, seq: UInt16(truncatingIfNeeded: r.next()),
                        payload: r.bytes(r.int(0...20))
                    ).wireBytes
            }
        },
    ]

    @Test(arguments: cases)
    func parserSurvivesRandomAndMutatedInput(_ c: FuzzCase) {
        c.run(iterations, 0x5EED_0000 &+ UInt64(c.name.utf8.count))
    }

    @Test func everyProtocolIsFuzzed() {
        let names = Set(Self.cases.map(\.name))
        #expect(names == Set(ByteProtocol.allCases.map(\.rawValue)))
    }
}
