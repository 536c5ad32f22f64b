import RealModule

// The baseband phasor the bit timing reads, made one sample at a time.

extension BitTimingEstimator {
    /// A block mixed down to the centre between the tones and smoothed by moving sums of
    /// `m1` and then `m2` samples, sample by sample.
    ///
    /// Made as the samples come rather than into arrays: ``runs(in:envelope:)`` reads the
    /// phasor twice (the mean power first, then the turns), and making it twice costs less
    /// than the block-long arrays of Double pairs it took (three of 384 KB for a survey's
    /// 12 blocks, most of the memory a short decode touched). Each moving sum keeps its
    /// last inputs in a delay line, so it adds and subtracts the same values in the same
    /// order as a sum over a whole array: the phasor is bit-identical to that.
    struct Baseband {
        private let stepC: Double
        private let stepS: Double
        private var c = 1.0
        private var s = 0.0
        private var produced = 0
        private var first: MovingSum
        private var second: MovingSum
        /// The block's mean, taken out of every sample, and what a high-pass then takes out
        /// of an offset that starts or stops inside the block (a burst's own). Why: a DC
        /// offset, mixed down, is a phasor turning at minus the centre, which neither moving
        /// sum nulls; at a third of a tone's amplitude (a pin's square wave between 0 and its
        /// supply) it outweighed the tone nearer it, and the runs fitted no bit rate.
        /// Nil for a block without an offset (``BitTimingEstimator/offset(of:)``), whose
        /// samples are read as they are.
        private let offset: Double?
        private var dc: DCBlocker

        init(center: Double, sampleRate: Double, m1: Int, m2: Int, offset: Double? = nil) {
            self.offset = offset
            dc = DCBlocker(cutoff: BitTimingEstimator.dcCorner, sampleRate: sampleRate)
            // The mixing phasor turns by a fixed step: one rotation a sample, renormalised
            // now and then, instead of a cosine and a sine.
            let w = 2 * Double.pi * center / sampleRate
            (stepC, stepS) = (Double.cos(w), Double.sin(w))
            first = MovingSum(length: m1)
            second = MovingSum(length: m2)
        }

        /// The phasor at the next sample, whose value is `x`.
        @inline(__always)
        mutating func next(_ sample: Float) -> (re: Double, im: Double) {
            var x = Double(sample)
            if let offset {
                let centred = Float(x - offset)
                if produced == 0 { dc.prime(at: centred) }
                x = Double(dc.step(centred))
            }
            let mixed = (re: x * c, im: -x * s)
            (c, s) = (c * stepC - s * stepS, s * stepC + c * stepS)
            produced += 1
            if produced & 255 == 0 {
                let norm = 1 / (c * c + s * s).squareRoot()
                c *= norm
                s *= norm
            }
            return second.add(first.add(mixed))
        }
    }

    /// The high-pass's corner, in Hz: a time constant of 3.2 ms (one Bell 103 bit), so an
    /// offset that starts with its burst is gone within its preamble; 3 degrees of phase
    /// at Bell 103's tones.
    static let dcCorner = 50.0

    /// The sum of the last `length` phasors added (of all of them, before `length`).
    struct MovingSum {
        /// The last `length` phasors added, oldest at `slot` once full.
        private var delay: [(re: Double, im: Double)]
        private var slot = 0
        private var full = false
        private var re = 0.0
        private var im = 0.0

        init(length: Int) { delay = [(re: Double, im: Double)](repeating: (0, 0), count: length) }

        /// Adds `x`, drops the phasor `length` back, and returns the sum.
        @inline(__always)
        mutating func add(_ x: (re: Double, im: Double)) -> (re: Double, im: Double) {
            re += x.re
            im += x.im
            if full {
                re -= delay[slot].re
                im -= delay[slot].im
            }
            delay[slot] = x
            slot += 1
            if slot == delay.count {
                slot = 0
                full = true
            }
            return (re, im)
        }
    }

    /// The turn of a run summed over its middle, away from the smoothed transitions: from
    /// m2 samples past the run's start to m2 before the transition that ends it.
    ///
    /// The end is known only at that transition, so the last m2 + 1 turns wait in a delay
    /// line and each joins the sum as it leaves: in sample order, as a sum over the
    /// middle's turns afterwards would add them (kept whole, the turns took another
    /// block-long array).
    struct MiddleTurn {
        private var delay: [Double]
        private var slot = 0
        /// The sum of the turns (radians per sample) and their count.
        private(set) var sum = 0.0
        private(set) var count = 0

        init(m2: Int) { delay = [Double](repeating: 0, count: m2 + 1) }

        /// Takes the turn `t` of sample `k`, and adds that of sample k - m2 - 1 when it lies
        /// in the middle of the run begun at `runStart` (none when negative).
        @inline(__always)
        mutating func add(_ t: Double, at k: Int, runStart: Int) {
            let leaving = delay[slot]
            delay[slot] = t
            slot = slot + 1 == delay.count ? 0 : slot + 1
            let m2 = delay.count - 1
            if runStart >= 0 && k - m2 - 1 >= runStart + m2 {
                sum += leaving
                count += 1
            }
        }

        /// Starts the sum of a new run.
        mutating func restart() {
            sum = 0
            count = 0
        }
    }

    /// Mean power of `block`'s phasor from sample `settle` on (the moving sums filled), its
    /// `offset` (``offset(of:)``) taken out.
    func meanPower(_ block: ArraySlice<Float>, _ m1: Int, _ m2: Int, from settle: Int, offset: Double?) -> Double {
        var z = Baseband(center: center, sampleRate: sampleRate, m1: m1, m2: m2, offset: offset)
        var sum = 0.0
        var k = 0
        for x in block {
            let a = z.next(x)
            if k >= settle { sum += a.re * a.re + a.im * a.im }
            k += 1
        }
        return sum / Double(block.count - settle)
    }

    /// The mean of `block`'s finite samples when it is an offset of at least a tenth of their
    /// RMS level about it, nil otherwise. Why only then: a lone tone at a trial's centre
    /// mixes down to a phasor that barely turns, so the sign of its turn is rounding, and
    /// the high-pass's rounding made its runs fit 1815 baud ("looks like FSK" instead of "the
    /// strongest tone is 1000 Hz"). A burst of tones or of noise averages to well under a
    /// hundredth of its level over a block.
    static func offset(of block: ArraySlice<Float>) -> Double? {
        var sum = 0.0
        var squares = 0.0
        var count = 0
        for x in block where x.isFinite {
            sum += Double(x)
            squares += Double(x) * Double(x)
            count += 1
        }
        guard count > 0 else { return nil }
        let mean = sum / Double(count)
        let variance = max(0, squares / Double(count) - mean * mean)
        return mean * mean >= 0.01 * variance ? mean : nil
    }
}
