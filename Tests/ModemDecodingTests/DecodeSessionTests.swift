import BoardModels
import CommandLineText
import ModemDSP
import ModemDecoding
import ModemTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The decode session every command runs: piece sizes, the channel-choice policy, the
/// held output of a pinned profile that does not match, and its errors.
@Suite struct DecodeSessionTests {
    static let rate = 44_100.0

    /// Interleaves channels of equal length into one buffer.
    static func interleave(_ channels: [[Float]]) -> [Float] {
        let frames = channels.map(\.count).max() ?? 0
        var out = [Float](repeating: 0, count: frames * channels.count)
        for (c, samples) in channels.enumerated() {
            for (i, x) in samples.enumerated() { out[i * channels.count + c] = x }
        }
        return out
    }

    /// Runs `interleaved` through a session in pieces of `piece` frames; returns the
    /// delivered bytes and the session.
    static func run<Factory: ModemReceiverFactory>(
        _ interleaved: [Float], channels: Int, piece: Int, factory: Factory, channel: Int? = nil,
        observers: @escaping (Double) -> [any DecodeObserver<Factory.Receiver>] = { _ in [] }
    ) throws -> (bytes: [UInt8], session: DecodeSession<Factory.Receiver>) {
        var session = try DecodeSession(
            factory, sampleRate: rate, channels: channels, channel: channel, name: "test",
            observers: { observers(rate) })
        var bytes: [UInt8] = []
        interleaved.withUnsafeBufferPointer { all in
            var first = 0
            let frames = all.count / channels
            while first < frames {
                let n = min(piece, frames - first)
                session.process(
                    UnsafeBufferPointer(rebasing: all[(first * channels)..<((first + n) * channels)]), frames: n)
                bytes += session.delivered.filter { $0.kind == .byte }.map(\.value)
                first += n
            }
        }
        session.finish()
        bytes += session.delivered.filter { $0.kind == .byte }.map(\.value)
        return (bytes, session)
    }

    @Test(arguments: [1, 37, 4096, 1_000_000])
    func anyPieceSizeGivesTheSameBytes(piece: Int) throws {
        let sent = TestSignals.randomBytes(300, seed: 5)
        let signal = try TestSignals.encode(sent, silence: 2000)
        let (bytes, session) = try Self.run(
            signal, channels: 1, piece: piece, factory: FSKSettings(profile: .softmodem1225))
        #expect(bytes == sent)
        #expect(session.stats.bytes == sent.count)
        #expect(session.stats.frames == Int64(signal.count))
    }

    /// One rule for every modem: the channel with the most good characters in the first
    /// second of signal, whichever side it is on.
    @Test(arguments: [0, 1])
    func theChannelCarryingTheModemIsChosen(side: Int) throws {
        let sent = TestSignals.randomBytes(200, seed: 9)
        let signal = try TestSignals.encode(sent, silence: 4000)
        var hum = [Float](repeating: 0, count: signal.count)
        for i in hum.indices { hum[i] = 0.3 * Float(sin(2 * Double.pi * 50 * Double(i) / Self.rate)) }
        let channels = side == 0 ? [signal, hum] : [hum, signal]
        let (bytes, session) = try Self.run(
            Self.interleave(channels), channels: 2, piece: 4096, factory: FSKSettings(profile: .softmodem1225))
        #expect(session.chosenChannel == side)
        #expect(bytes == sent)
    }

    @Test func theSameRuleChoosesForDetection() throws {
        let sent = TestSignals.randomBytes(200, seed: 11)
        let signal = try TestSignals.encode(sent, profile: .softmodem2450, silence: 4000)
        let silence = [Float](repeating: 0, count: signal.count)
        let (bytes, session) = try Self.run(
            Self.interleave([silence, signal]), channels: 2, piece: 1000, factory: AutoSettings())
        #expect(session.chosenChannel == 1)
        #expect(bytes == sent)
    }

    @Test func aPinnedProfileThatDoesNotMatchDeliversNothing() throws {
        let signal = try TestSignals.encode(
            TestSignals.randomBytes(400, seed: 3), profile: .softmodem2450, silence: 4000)
        let (bytes, session) = try Self.run(
            signal, channels: 1, piece: 4096, factory: FSKSettings(profile: .softmodem1225)
        ) { rate in [SignalCheckObserver(sampleRate: rate, pinned: .softmodem1225)] }
        #expect(bytes.isEmpty)
        #expect(session.stats.withheld > 0)
        #expect(session.notes.count == 1 && session.notes[0].text.contains("softmodem-2450"), "\(session.notes)")
    }

    @Test func aChannelThatDoesNotExistIsAUsageError() {
        #expect(throws: DecodeSessionError.noSuchChannel(input: "test", channels: 1, requested: 1)) {
            _ = try DecodeSession(
                FSKSettings(profile: .softmodem1225), sampleRate: 44_100, channels: 1, channel: 1, name: "test")
        }
    }

    @Test func aModemThatCannotRunAtTheRateIsRefused() {
        #expect(throws: DecodeSessionError.self) {
            _ = try DecodeSession(
                FSKSettings(profile: .softmodem1225), sampleRate: 8_000, channels: 1, channel: nil, name: "test")
        }
    }
}
