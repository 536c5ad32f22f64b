import RealModule

/// Phone -> board HiJack as one stereo signal: Manchester data on the left channel, the
/// board's power tone on the right, which never stops.
///
/// A burst opens with `preambleBits` idle 1s (never fewer than the 4 the board needs before
/// a start bit), carries each byte padded to the encoder's byte period, and closes with
/// `postambleBits` idle 1s. At rest the right channel keeps the tone; the data line is idle
/// 1s when `idleLine` is set (a live line, as the stock app keeps it) or silent otherwise
/// (a recording's power-up lead-in). Each piece ends at a cell boundary, where the data
/// waveform crosses zero, so switching between them leaves no step.
///
/// lab11 (``HiJackGeneration/lab11``): a burst is one packet. It opens with `preambleBits`
/// 1s (at least ``lab11MinimumPreamble``; the board learns the bit rate from them) and a
/// start 0, carries the bytes as one bit stream, and closes with half a cell back to zero
/// `postambleBits` cells of silence (at least 4) and a lone 1, as the Android library's
/// postamble: the interval the silence makes is what tells the board the packet ended. Its
/// resting data line is never idle 1s, which would read as more bits: a live line rests on
/// a 25 Hz sine at the data level, as the Android library's ("floating"), which crosses zero
/// only every 20 ms, so noise on the line starts no false packet in the board (silence
/// would let it cross at every sample); a recording's rest is silence.
public struct HiJackTransmitter: ModemTransmitter {
    /// The data line's encoder: its bit clock and waveform carry on from call to call.
    public private(set) var encoder: HiJackEncoder
    /// The power tone on the right channel, phase-continuous from call to call.
    public private(set) var tone: HiJackPowerTone
    /// Idle 1s that open a burst; at least 4 are sent (lab11: ``lab11MinimumPreamble``).
    public var preambleBits: Int
    /// Idle 1s that close a burst (lab11: cells of silence before the lone 1, at least 4).
    public var postambleBits: Int
    /// Whether the resting data line carries idle 1s (true) or silence (false).
    public var idleLine: Bool
    private var inBurst = false
    /// lab11's resting sine.
    private var restPhase = PhaseAccumulator()
    /// The resting sine's frequency (Hz): the Android library's 613 / 24.2.
    public static let lab11RestFrequency = 25.3

    /// - Throws: `HiJackConfigurationError.sampleRateMismatch` when the two rates differ.
    public init(
        encoder: HiJackEncoder, tone: HiJackPowerTone, preambleBits: Int = 50, postambleBits: Int = 7,
        idleLine: Bool = false
    ) throws(HiJackConfigurationError) {
        guard encoder.sampleRate == tone.sampleRate else {
            throw .sampleRateMismatch(encoder.sampleRate, tone.sampleRate)
        }
        self.encoder = encoder
        self.tone = tone
        self.preambleBits = max(0, preambleBits)
        self.postambleBits = max(0, postambleBits)
        self.idleLine = idleLine
    }

    /// The encoder's sample rate, which the power tone shares.
    public var sampleRate: Double { encoder.sampleRate }
    /// Always data left and power tone right (``HiJackSettings/channelPlan``).
    public var channelPlan: ChannelPlan { HiJackSettings.channelPlan }
    /// The encoder's byte period at its bit rate (right for lab11 only with a period of 8 cells).
    public var secondsPerByte: Double { Double(encoder.bytePeriod) / encoder.baud }
    /// True: the power tone must never stop, since the board runs on it.
    public var restIsSignal: Bool { true }
    /// 1s before a lab11 packet's start bit, at least: the board wants seven even intervals.
    public static let lab11MinimumPreamble = 8
    private var isLab11: Bool { encoder.generation.isBitStream }
    private var openingBits: Int {
        isLab11 ? max(preambleBits, Self.lab11MinimumPreamble) : max(preambleBits, HiJack.minimumIdleBits)
    }
    private var closingBits: Int { isLab11 ? max(postambleBits, 4) : postambleBits }
    /// Covers the opening idle 1s and lab11's start bit as well as the bytes.
    public func maxFrames(forBytes count: Int) -> Int {
        encoder.maxSamples(forIdleBits: openingBits + 1) + encoder.maxSamples(forBytes: count)
    }
    /// Covers the idle 1s, or lab11's closing half cells, silence and lone 1.
    public var maxFramesForFinish: Int { encoder.maxSamples(forIdleBits: closingBits + 3) }

    /// Writes `cells` cells of silence; returns the samples written.
    private func silence(_ cells: Int, _ output: UnsafeMutablePointer<Float>) -> Int {
        let n = cells * Int(encoder.sampleRate / encoder.baud)
        for i in 0..<n { output[i] = 0 }
        return n
    }
    /// One cell's samples: an idle data line is written in whole cells.
    public var restOvershoot: Int { encoder.maxSamplesPerBit }

    /// Opens a burst with idle 1s (lab11: and a start 0), then the bytes; power tone included.
    public mutating func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutablePointer<Float>) -> Int {
        guard !bytes.isEmpty else { return 0 }
        var n = 0
        if !inBurst {
            inBurst = true
            n += encoder.idle(bits: openingBits, into: output)
            if isLab11 { n += encoder.encodeBit(0, into: output + n) }
        }
        n += encoder.encode(bytes, into: output + n)
        return addPower(output, n)
    }

    /// Writes the postamble (idle 1s; lab11: half cell, silence, lone 1) with the power tone.
    public mutating func finishBurst(into output: UnsafeMutablePointer<Float>) -> Int {
        guard inBurst else { return 0 }
        inBurst = false
        guard isLab11 else { return addPower(output, encoder.idle(bits: postambleBits, into: output)) }
        var n = encoder.finishCell(into: output)
        n += silence(closingBits, output + n)
        // A lone 1 after the silence, as the Android library ends a packet: the board
        // closes a packet only on an interval that fits no bit, which needs an edge.
        n += encoder.encodeBit(1, into: output + n)
        n += encoder.finishCell(into: output + n)
        return addPower(output, n)
    }

    /// Writes the power tone over idle 1s, lab11's 25.3 Hz sine or silence (see ``idleLine``).
    public mutating func rest(atLeast frames: Int, into output: UnsafeMutablePointer<Float>) -> Int {
        guard frames > 0 else { return 0 }
        var n = 0
        if idleLine && !isLab11 {
            while n < frames { n += encoder.idle(bits: 1, into: output + n) }
        } else if idleLine {
            let step = 2 * Double.pi * Self.lab11RestFrequency / sampleRate
            let level = Double(encoder.amplitude) * (encoder.invert ? -1 : 1)
            for i in 0..<frames { output[i] = Float(level * Double.sin(restPhase.next(step: step))) }
            n = frames
        } else {
            for i in 0..<frames { output[i] = 0 }
            n = frames
        }
        return addPower(output, n)
    }

    /// Spreads `count` data samples at the start of `output` to the left channel of
    /// `count` frames of ``channelPlan``, from the end so nothing is overwritten before it
    /// is moved, and renders the power tone into the right channel.
    private mutating func addPower(_ output: UnsafeMutablePointer<Float>, _ count: Int) -> Int {
        let stride = channels
        var i = count - 1
        while i >= 0 {
            output[stride * i] = output[i]
            i -= 1
        }
        tone.render(into: output + 1, count: count, stride: stride)
        return count
    }
}
