import BoardModels
import ModemDSP
import ModemTestSupport
import Testing

/// An input shorter than one of detection's blocks (``SignalSurvey/blockLength``): its
/// samples are heard when it ends, in whatever chunks they came.
@Suite struct ShortInputTests {
    @Test("two characters in 920 samples decode with no options", arguments: [1, 100, 4096])
    func twoCharactersInLessThanABlock(chunk: Int) throws {
        let bytes = Array("hi".utf8)
        let signal = try TestSignals.encode(bytes, profile: .bell202, rate: 48_000, preamble: 2, postamble: 1)
        #expect(signal.count < SignalSurvey.blockLength)
        let (got, receiver) = try AutoReceiverTests.run(signal, rate: 48_000, chunk: chunk)
        #expect(got == bytes, "\(receiver.detections)")
    }

    @Test("a short input of noise prints nothing")
    func shortNoiseIsNothing() throws {
        var noise = [Float](repeating: 0, count: 1500)
        TestSignals.addNoise(&noise, snr: 0, signalPower: 0.1, seed: 3)
        let (got, _) = try AutoReceiverTests.run(noise, rate: 48_000)
        #expect(got.isEmpty)
    }
}
