/// The envelope of a signal with bounded memory: per bucket of samples, the lowest and
/// highest sample and the mean power.
///
/// Buckets start ``bucketLength`` samples long; when ``maxBuckets`` are full, neighbours
/// merge pairwise and buckets double in length, so any length of input fits in a fixed
/// number of points. Used for the overview of a whole recording and for each burst's
/// waveform. Streaming: chunks of any size; NaN and infinite samples read as 0.
public struct Envelope: Sendable, Codable {
    /// One point of the envelope: the range and the mean power of its samples.
    public struct Bucket: Sendable, Equatable, Codable {
        /// The lowest sample in the bucket.
        public var low: Float
        /// The highest sample in the bucket.
        public var high: Float
        /// Mean of the squared samples.
        public var power: Float
    }

    /// Sample index of the first bucket's first sample.
    public let origin: Int64
    /// The most buckets kept (even, at least 2); filling them merges them pairwise.
    public let maxBuckets: Int
    /// Samples per bucket now; doubles at each merge.
    public private(set) var bucketLength: Int
    /// The completed buckets, oldest first (``allBuckets`` adds the partly filled one).
    public private(set) var buckets: [Bucket] = []
    private var open = Bucket(low: .infinity, high: -.infinity, power: 0)
    private var openCount = 0

    /// - Parameters:
    ///   - bucketLength: samples per bucket at first (at least 1).
    ///   - maxBuckets: buckets kept at most (even, at least 2).
    public init(origin: Int64 = 0, bucketLength: Int, maxBuckets: Int) {
        self.origin = origin
        self.bucketLength = max(1, bucketLength)
        self.maxBuckets = max(2, maxBuckets & ~1)
        buckets.reserveCapacity(self.maxBuckets)
    }

    /// Samples taken so far.
    public var count: Int64 { Int64(buckets.count) * Int64(bucketLength) + Int64(openCount) }

    /// Adds samples (non-finite ones as 0), closing and merging buckets as they fill.
    public mutating func add(_ samples: UnsafeBufferPointer<Float>) {
        for s in samples {
            let x = s.isFinite ? s : 0
            if x < open.low { open.low = x }
            if x > open.high { open.high = x }
            open.power += x * x
            openCount += 1
            if openCount == bucketLength { close() }
        }
    }

    /// The buckets with the partly filled one, for drawing.
    public var allBuckets: [Bucket] {
        guard openCount > 0 else { return buckets }
        var last = open
        last.power /= Float(openCount)
        return buckets + [last]
    }

    private mutating func close() {
        open.power /= Float(openCount)
        buckets.append(open)
        open = Bucket(low: .infinity, high: -.infinity, power: 0)
        openCount = 0
        guard buckets.count == maxBuckets else { return }
        var merged: [Bucket] = []
        merged.reserveCapacity(maxBuckets)
        for i in stride(from: 0, to: maxBuckets, by: 2) {
            let a = buckets[i]
            let b = buckets[i + 1]
            merged.append(Bucket(low: min(a.low, b.low), high: max(a.high, b.high), power: (a.power + b.power) / 2))
        }
        buckets = merged
        bucketLength *= 2
    }
}
