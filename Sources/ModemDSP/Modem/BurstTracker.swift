/// Groups receiver events (any modem) into bursts and summarises each one, for `-v` reports.
///
/// A burst ends when no character has been seen for `gapBits` bit times (default: two
/// characters). Feed events in order with ``add(_:)``; a finished burst is returned by the
/// call that proves it finished (the first event after the gap) or by ``finish(at:)``.
public struct BurstTracker: Sendable {
    /// What one burst looked like.
    public struct Summary: Sendable, Equatable, Codable {
        /// The first character's ``ModemEvent/startSample``.
        public var startSample: Int64
        /// The last character's ``ModemEvent/endSample``.
        public var endSample: Int64
        /// Characters decoded.
        public var bytes = 0
        /// Characters dropped as ``ModemEvent/Kind/framingError`` (bad stop bit, lost clock, cut off).
        public var framingErrors = 0
        /// Characters dropped for a wrong parity bit (lab11: packets with a wrong checksum).
        public var parityErrors = 0
        /// Mean tone power (linear; full-scale sine = 0.5).
        public var signalPower = 0.0
        /// Mean power of everything but the tones (same scale); FSK only, 0 for HiJack.
        public var noisePower = 0.0
        /// Mean estimated Eb/N0 in dB over the burst's characters.
        public var ebN0 = 0.0
        /// Mean measured tones in Hz (NaN when never seen).
        public var markFrequency = Double.nan
        /// Mean measured space tone in Hz (NaN when never seen).
        public var spaceFrequency = Double.nan
        /// HiJack: mean measured bit rate (NaN for FSK) and the last frame's polarity.
        public var baud = Double.nan
        /// HiJack: true when the last frame's line was inverted; nil for FSK.
        public var inverted: Bool?

        /// An empty burst over these samples: counts and powers 0, measured rates and tones NaN.
        public init(startSample: Int64, endSample: Int64) {
            self.startSample = startSample
            self.endSample = endSample
        }
    }

    /// A pause longer than this many samples, from one character's end to the next one's start,
    /// ends a burst.
    public let gapSamples: Int64
    private var current: Summary?
    private var count = 0
    private var markSum = 0.0, markCount = 0.0, spaceSum = 0.0, spaceCount = 0.0
    private var baudSum = 0.0, baudCount = 0.0

    /// A tracker whose gap is `gapBits` bit times at `baud` and `sampleRate` (Hz).
    public init(sampleRate: Double, baud: Double, gapBits: Double = 20) {
        gapSamples = Int64(sampleRate / baud * gapBits)
    }

    /// Adds one event; returns the previous burst if this event starts a new one.
    public mutating func add(_ event: ModemEvent) -> Summary? {
        var finished: Summary?
        if let c = current, event.startSample - c.endSample > gapSamples {
            finished = close()
        }
        if current == nil {
            current = Summary(startSample: event.startSample, endSample: event.endSample)
        }
        current!.endSample = event.endSample
        switch event.kind {
        case .byte: current!.bytes += 1
        case .framingError: current!.framingErrors += 1
        case .parityError: current!.parityErrors += 1
        }
        switch event.metrics {
        // A character reported lost unmeasured (a burst's opening no receiver heard) counts
        // as an error but has no level to average.
        case .fsk(let m) where m.signalPower > 0 || m.ebN0Ratio > 0:
            count += 1
            let n = Double(count)
            current!.signalPower += (m.signalPower - current!.signalPower) / n
            current!.noisePower += (m.noisePower - current!.noisePower) / n
            current!.ebN0 += (m.ebN0 - current!.ebN0) / n
            if m.markFrequency.isFinite {
                markSum += m.markFrequency
                markCount += 1
            }
            if m.spaceFrequency.isFinite {
                spaceSum += m.spaceFrequency
                spaceCount += 1
            }
        case .fsk: break
        case .hijack(let m):
            if m.baud.isFinite {
                baudSum += m.baud
                baudCount += 1
            }
            current!.inverted = m.inverted
        }
        return finished
    }

    /// Closes the open burst if the stream has moved past its gap (or `force` is set).
    public mutating func finish(at sample: Int64, force: Bool = false) -> Summary? {
        guard let c = current, force || sample - c.endSample > gapSamples else { return nil }
        return close()
    }

    private mutating func close() -> Summary? {
        guard var c = current else { return nil }
        c.markFrequency = markCount > 0 ? markSum / markCount : .nan
        c.spaceFrequency = spaceCount > 0 ? spaceSum / spaceCount : .nan
        c.baud = baudCount > 0 ? baudSum / baudCount : .nan
        current = nil
        count = 0
        markSum = 0
        markCount = 0
        spaceSum = 0
        spaceCount = 0
        baudSum = 0
        baudCount = 0
        return c
    }
}
