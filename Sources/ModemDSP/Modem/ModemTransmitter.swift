/// A streaming encoder of bytes into one modem's audio: the FSK burst encoder and the
/// HiJack transmitter both conform, so file encoding and live transmission are written once.
///
/// Output is interleaved frames of ``channelPlan`` (the modem's, ``Modem/channelPlan``)
/// written into caller buffers; nothing allocates after creation. A burst opens with the first bytes given to
/// ``encode(_:into:)`` (the modem's preamble) and closes with ``finishBurst(into:)``
/// (its postamble); between bursts the line rests (``rest(atLeast:into:)``).
public protocol ModemTransmitter: Sendable {
    var sampleRate: Double { get }
    /// The modem's channel plan (``Modem/channelPlan``): mono for FSK, data left and power
    /// tone right for HiJack.
    var channelPlan: ChannelPlan { get }
    /// Seconds one byte takes on the wire.
    var secondsPerByte: Double { get }
    /// True when the resting line carries a signal that must not stop (HiJack's power
    /// tone): a live player must keep it fed instead of filling gaps with silence.
    var restIsSignal: Bool { get }
    /// Upper bound of the frames ``encode(_:into:)`` writes for `count` bytes.
    func maxFrames(forBytes count: Int) -> Int
    /// Upper bound of the frames ``finishBurst(into:)`` writes.
    var maxFramesForFinish: Int { get }
    /// Upper bound of the frames ``rest(atLeast:into:)`` writes beyond the count asked for.
    var restOvershoot: Int { get }
    /// Encodes `bytes`, opening a burst if none is open; returns the frames written. An
    /// empty buffer writes nothing and opens no burst.
    mutating func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<Float>) -> Int
    /// Closes the open burst; writes nothing when none is open.
    mutating func finishBurst(into output: UnsafeMutablePointer<Float>) -> Int
    /// Writes at least `frames` frames of the line at rest (at most ``restOvershoot`` more):
    /// silence for FSK, the power tone (and an idle data line, when asked) for HiJack.
    mutating func rest(atLeast frames: Int, into output: UnsafeMutablePointer<Float>) -> Int
}

extension ModemTransmitter {
    /// Interleaved channels per frame, from ``channelPlan``.
    public var channels: Int { channelPlan.channels }
}

extension BurstEncoder: ModemTransmitter {
    /// The modulator's sample rate, in Hz.
    public var sampleRate: Double { modulator.sampleRate }
    /// Always mono (``FSKSettings/channelPlan``).
    public var channelPlan: ChannelPlan { FSKSettings.channelPlan }
    /// One character's wire bits (start, data, parity, stop) at the profile's bit rate.
    public var secondsPerByte: Double { Double(format.bitsPerFrame) / modulator.profile.baud }
    /// False: FSK rests in silence, so gaps may be filled with zeros.
    public var restIsSignal: Bool { false }
    /// ``maxSamples(forBytes:)``, preamble included: one channel, so a frame is a sample.
    public func maxFrames(forBytes count: Int) -> Int { maxSamples(forBytes: count) }
    /// ``maxSamplesForFinish``: the postamble's samples.
    public var maxFramesForFinish: Int { maxSamplesForFinish }
    /// 0: the rest is exactly as long as asked.
    public var restOvershoot: Int { 0 }
    /// Writes exactly `frames` zeros (none when negative) and closes no burst.
    public func rest(atLeast frames: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        silence(samples: frames, into: output)
    }
}
