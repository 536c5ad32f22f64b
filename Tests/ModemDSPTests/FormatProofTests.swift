import BoardModels
import ModemTestSupport
import Testing

@testable import ModemDSP

/// ``FormatProof`` on lines of bits built by hand: what a line proves, and what it cannot.
@Suite struct FormatProofTests {
    /// `values` sent in `format` with `gaps[k % gaps.count]` idle bits after character k.
    static func line(_ values: [UInt8], _ format: FrameFormat, gaps: [Int] = [0]) -> FormatProof {
        var bits: [Bool] = []
        for (k, v) in values.enumerated() {
            let w = format.wireBits(for: v)
            for b in 0..<format.bitsPerFrame { bits.append(w >> UInt32(b) & 1 == 1) }
            bits += repeatElement(true, count: gaps[k % gaps.count])
        }
        return FormatProof(line: bits + repeatElement(true, count: FormatProof.tailBits))
    }

    static func random(_ count: Int, _ format: FrameFormat, seed: UInt64 = 1) -> [UInt8] {
        TestSignals.randomBytes(count, seed: seed).map { $0 & format.valueMask }
    }

    @Test("back to back, random data: every format proves itself", arguments: AutoReceiverFormatTests.formats)
    func backToBack(_ format: FrameFormat) {
        #expect(Self.line(Self.random(30, format), format).best() == .proven(format))
    }

    @Test("characters standing apart: one stop bit, however long the gaps")
    func standingApart() throws {
        for format in [FrameFormat.eightN1, try FrameFormat(dataBits: 7, parity: .even)] {
            let proof = Self.line(Self.random(30, format), format, gaps: [3, 1, 7, 2])
            #expect(proof.best() == .proven(format))
        }
        // A 7N1 sender's idle line reads as an eighth data bit of 1: the gaps show it is idle.
        let seven = try FrameFormat(dataBits: 7)
        #expect(Self.line(Self.random(30, seven), seven, gaps: [2, 5]).best() == .proven(seven))
    }

    @Test("what the data cannot decide reads as the format that explains more of it")
    func undecidable() throws {
        // Gaps of exactly one bit are a second stop bit: the same line, the same bytes.
        let eightN2 = try FrameFormat(stopBits: 2)
        #expect(Self.line(Self.random(30, .eightN1), .eightN1, gaps: [1]).best() == .proven(eightN2))
        // An 8N1 sender that always sets the top bit sends a 7N2 line.
        let top = Self.random(30, .eightN1).map { $0 | 0x80 }
        #expect(Self.line(top, .eightN1).best() == .proven(try FrameFormat(dataBits: 7, stopBits: 2)))
    }

    @Test("too few characters prove nothing; a broken line proves nothing")
    func tooLittle() throws {
        #expect(Self.line(Self.random(FormatProof.minimumFrames - 1, .eightN1), .eightN1).best() == .none)
        // 8N1 characters read as 7N1: the eighth data bit lands on the stop bit.
        let proof = Self.line(Self.random(30, .eightN1), .eightN1)
        #expect(proof.read(try FrameFormat(dataBits: 7)) == nil)
        #expect(proof.read(.eightN1)?.frames == 30)
    }
}

extension FormatProofTests {
    /// 30 spaces read as 7O1 throughout (one bit set: odd parity always checks), but one
    /// character again and again proves nothing: the proof waits for more.
    @Test func aRunOfOneCharacterProvesNoFormatButWaits() throws {
        let spaces = [UInt8](repeating: 0x20, count: 30)
        #expect(Self.line(spaces, .eightN1).best() == .needsMore)
        let text = Array("  Every byte went out as two tones, back to back.".utf8)
        #expect(Self.line(text, .eightN1).best() == .proven(.eightN1))
    }
}
