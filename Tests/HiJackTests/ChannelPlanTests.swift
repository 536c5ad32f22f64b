import ModemDSP
import Testing

/// The modem value is the one place that says how a transmitted signal uses the channels;
/// the transmitters' output must follow it.
@Suite struct ChannelPlanTests {
    @Test func modemsKnowTheirChannelPlan() {
        #expect(Modem.fsk(FSKSettings(profile: .softmodem1225)).channelPlan == .mono)
        #expect(Modem.auto(AutoSettings()).channelPlan == .mono)
        #expect(Modem.hijack(HiJackSettings()).channelPlan == .dataLeftPowerRight)
        #expect(ChannelPlan.mono.channels == 1)
        #expect(ChannelPlan.dataLeftPowerRight.channels == 2)
    }

    @Test func fskTransmitterWritesTheModemsPlan() throws {
        let modem = Modem.fsk(FSKSettings(profile: .softmodem1225))
        let modulator = try FSKModulator(profile: .softmodem1225, sampleRate: 44_100)
        let tx = BurstEncoder(modulator: modulator, format: .eightN1)
        #expect(tx.channelPlan == modem.channelPlan)
        #expect(tx.channels == modem.channelPlan.channels)
    }

    /// A resting HiJack line with a silent data line: every frame's first channel is 0 and
    /// its second carries the power tone, in frames as wide as the modem's plan says.
    @Test func hijackTransmitterWritesDataLeftPowerRight() throws {
        let modem = Modem.hijack(HiJackSettings())
        let rate = 48_000.0
        let encoder = try HiJackEncoder(sampleRate: rate)
        let tone = try HiJackPowerTone(frequency: HiJack.defaultPowerTone(sampleRate: rate), sampleRate: rate)
        var tx = try HiJackTransmitter(encoder: encoder, tone: tone, idleLine: false)
        #expect(tx.channelPlan == modem.channelPlan)
        let width = modem.channelPlan.channels
        let frames = 4_800
        var block = [Float](repeating: .nan, count: width * (frames + tx.restOvershoot))
        let n = block.withUnsafeMutableBufferPointer { tx.rest(atLeast: frames, into: $0.baseAddress!) }
        #expect(n >= frames)
        var leftEnergy: Float = 0
        var rightEnergy: Float = 0
        for i in 0..<n {
            leftEnergy += block[width * i] * block[width * i]
            rightEnergy += block[width * i + 1] * block[width * i + 1]
        }
        #expect(leftEnergy == 0)
        // A sine's mean square is half its peak squared.
        let meanSquare = rightEnergy / Float(n)
        #expect(abs(meanSquare - tone.amplitude * tone.amplitude / 2) < 0.05 * tone.amplitude * tone.amplitude)
        // Nothing beyond the frames written.
        #expect(block[(width * n)...].allSatisfy { $0.isNaN })
    }
}
