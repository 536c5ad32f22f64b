import Synchronization

/// A lock-free single-producer single-consumer queue of Float samples.
///
/// One thread calls ``write(_:)``, one other thread calls ``read(into:)`` and
/// ``discardAll()``; either may read the counts. Storage is allocated once in `init`, so
/// neither side allocates, locks or makes system calls. Positions are running totals (they
/// never wrap in practice: 2^63 samples), masked into a power-of-two buffer; the release
/// store of a position publishes the samples written before it.
public final class SPSCRingBuffer: @unchecked Sendable {
    // @unchecked: storage is shared, but the head/tail protocol gives each slot to exactly
    // one side at a time, which the type system cannot express.
    /// The most samples the queue holds: a power of two.
    public let capacity: Int
    private let mask: Int
    private let storage: UnsafeMutablePointer<Float>
    private let head = Atomic<Int>(0)  // total samples written (producer-owned)
    private let tail = Atomic<Int>(0)  // total samples read (consumer-owned)

    /// A queue holding at least `minimumCapacity` samples (rounded up to a power of two).
    public init(minimumCapacity: Int) {
        var c = 1
        while c < max(2, minimumCapacity) { c <<= 1 }
        capacity = c
        mask = c - 1
        storage = .allocate(capacity: c)
        storage.initialize(repeating: 0, count: c)
    }

    deinit { storage.deallocate() }

    /// Samples waiting to be read.
    public var availableToRead: Int { head.load(ordering: .acquiring) - tail.load(ordering: .acquiring) }

    /// Free space for the producer.
    public var availableToWrite: Int { capacity - availableToRead }

    /// Producer: appends as many of `samples` as fit and returns how many that was.
    @discardableResult
    public func write(_ samples: UnsafeBufferPointer<Float>) -> Int {
        guard let src = samples.baseAddress else { return 0 }
        let h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        let n = min(samples.count, capacity - (h - t))
        if n <= 0 { return 0 }
        let start = h & mask
        let first = min(n, capacity - start)
        (storage + start).update(from: src, count: first)
        if n > first { storage.update(from: src + first, count: n - first) }
        head.store(h + n, ordering: .releasing)
        return n
    }

    /// Consumer: moves up to `buffer.count` samples into `buffer` and returns how many.
    @discardableResult
    public func read(into buffer: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let dst = buffer.baseAddress else { return 0 }
        let t = tail.load(ordering: .relaxed)
        let h = head.load(ordering: .acquiring)
        let n = min(buffer.count, h - t)
        if n <= 0 { return 0 }
        let start = t & mask
        let first = min(n, capacity - start)
        dst.update(from: storage + start, count: first)
        if n > first { (dst + first).update(from: storage, count: n - first) }
        tail.store(t + n, ordering: .releasing)
        return n
    }

    /// Consumer: drops everything queued; returns how many samples were dropped.
    @discardableResult
    public func discardAll() -> Int {
        let t = tail.load(ordering: .relaxed)
        let h = head.load(ordering: .acquiring)
        tail.store(h, ordering: .releasing)
        return h - t
    }
}
