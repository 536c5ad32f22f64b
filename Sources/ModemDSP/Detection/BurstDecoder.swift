/// The decoder ``AutoReceiver`` runs on one detected burst: an FSK demodulator set up for
/// the burst's tones, bit rate and format, or a HiJack decoder; or, for a tone pair no
/// known modem has (``ToneConvention``) or characters that read as 7 data bits and as 8
/// alike, two FSK demodulators that read the burst both ways until its end decides
/// (``BurstReadings``).
///
/// Dispatch is once per chunk, never per sample: each decoder's own loop stays
/// specialised. The decoders are optionals mutated in place (not enum payloads, which
/// would be copied out and back on every chunk).
struct BurstDecoder: Sendable {
    private var fsk: FSKDemodulator?
    private var hijack: HiJackDecoder?
    private var readings: BurstReadings?

    static func fsk(_ d: FSKDemodulator) -> BurstDecoder { BurstDecoder(fsk: d, hijack: nil) }
    static func hijack(_ d: HiJackDecoder) -> BurstDecoder { BurstDecoder(fsk: nil, hijack: d) }
    /// Two readings of a burst that differ in `question` (see ``BurstReadings``). Nothing
    /// comes out until the burst's end decides; `tieGoesToFirst`: the first reading has a
    /// convention behind it, and equal evidence keeps it.
    static func twoReadings(
        _ question: BurstReadings.Question, _ first: FSKDemodulator, _ second: FSKDemodulator,
        tieGoesToFirst: Bool = false
    ) -> BurstDecoder {
        BurstDecoder(
            fsk: nil, hijack: nil, readings: BurstReadings(question, first, second, tieGoesToFirst: tieGoesToFirst))
    }

    /// Decodes a chunk of either sample type with the decoder inside (its own path for
    /// that type: 16-bit samples reach the FSK demodulator as integers).
    mutating func process<S: RingSample>(_ samples: UnsafeBufferPointer<S>, into events: inout [ModemEvent]) {
        if fsk != nil { S.feed(samples, to: &fsk!, into: &events) }
        if hijack != nil { S.feed(samples, to: &hijack!, into: &events) }
        if readings != nil { readings!.process(samples, into: &events) }
    }

    mutating func flush(into events: inout [ModemEvent]) {
        fsk?.flush(into: &events)
        hijack?.flush(into: &events)
        readings?.flush(into: &events)
    }

    /// The FSK demodulator of a burst read one way round (nil for the other decoders).
    var fskReading: FSKDemodulator? { fsk }

    var isInBurst: Bool { fsk?.isInBurst ?? hijack?.isInBurst ?? readings?.isInBurst ?? false }

    /// For a burst read two ways: what they differ in and which reading the evidence chose
    /// (nil while undecided, and for any other decoder).
    var decided: (question: BurstReadings.Question, outcome: BurstReadings.Outcome, format: FrameFormat)? {
        guard let readings, let outcome = readings.outcome else { return nil }
        return (readings.question, outcome, readings.chosenFormat)
    }
}

/// A sample type ``AutoReceiver`` takes: how it goes into the ring (floats, full scale 1,
/// non-finite as silence) and which of a burst decoder's paths it goes to.
protocol RingSample {
    /// Stores `part` as floats at `ring` and returns its energy (sum of squares, full scale 1).
    static func store(_ part: UnsafeBufferPointer<Self>, to ring: UnsafeMutablePointer<Float>) -> Double
    /// The energy of `part` alone (sum of squares, full scale 1).
    static func energy(_ part: UnsafeBufferPointer<Self>) -> Double
    /// Hands `part` to the receiver's path for this sample type.
    static func feed<R: ModemReceiver>(
        _ part: UnsafeBufferPointer<Self>, to receiver: inout R, into events: inout [ModemEvent])
}

extension Float: RingSample {
    static func energy(_ part: UnsafeBufferPointer<Float>) -> Double {
        var energy: Float = 0
        for x in part where x.isFinite { energy += x * x }
        return Double(energy)
    }

    static func store(_ part: UnsafeBufferPointer<Float>, to ring: UnsafeMutablePointer<Float>) -> Double {
        var energy: Float = 0
        for k in part.indices {
            let v = part[k].isFinite ? part[k] : 0
            ring[k] = v
            energy += v * v
        }
        return Double(energy)
    }

    static func feed<R: ModemReceiver>(
        _ part: UnsafeBufferPointer<Float>, to receiver: inout R, into events: inout [ModemEvent]
    ) {
        receiver.process(part, into: &events)
    }
}

extension Int16: RingSample {
    /// Two plain loops the compiler vectorises: the conversion, and the energy in integers
    /// (exact, so its order does not matter).
    static func store(_ part: UnsafeBufferPointer<Int16>, to ring: UnsafeMutablePointer<Float>) -> Double {
        for k in part.indices { ring[k] = Float(part[k]) * (1 / 32_768) }
        return energy(part)
    }

    static func energy(_ part: UnsafeBufferPointer<Int16>) -> Double {
        var energy: Int64 = 0
        for x in part {
            let v = Int32(x)
            energy &+= Int64(v &* v)
        }
        return Double(energy) * 0x1p-30
    }

    static func feed<R: ModemReceiver>(
        _ part: UnsafeBufferPointer<Int16>, to receiver: inout R, into events: inout [ModemEvent]
    ) {
        receiver.process(part, into: &events)
    }
}
