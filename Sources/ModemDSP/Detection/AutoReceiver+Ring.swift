// The ring of samples a burst is analysed and decoded from.

extension AutoReceiver {
    /// Copies `part` (at most the ring's length) into the ring as floats, non-finite
    /// samples as silence, and adds its energy to the block's.
    mutating func remember<S: RingSample>(_ part: UnsafeBufferPointer<S>) {
        let size = Self.ringCapacity
        // The ring is allocated at its capacity but filled only as far as the input has
        // come: a short input touches only what it fills (made full size, a decode of a
        // 3-byte file zeroed 418 KB, a hundred page faults of its start-up; grown by
        // doubling, each ring was copied into the next, twice the pages). It is read only
        // where it was written.
        if ring.count < size {
            let needed = Int(min(Int64(size), samplesConsumed + Int64(part.count)))
            if needed > ring.count {
                if ring.capacity < size { ring.reserveCapacity(size) }
                ring.append(contentsOf: repeatElement(0, count: needed - ring.count))
            }
        }
        var at = Int(samplesConsumed % Int64(size))
        var energy = 0.0
        ring.withUnsafeMutableBufferPointer { r in
            var i = 0
            while i < part.count {
                let n = min(part.count - i, size - at)
                energy += S.store(UnsafeBufferPointer(rebasing: part[i..<(i + n)]), to: r.baseAddress! + at)
                i += n
                at = at + n == size ? 0 : at + n
            }
        }
        blockEnergy += energy
        samplesConsumed += Int64(part.count)
    }

    /// The samples from `start` to now, out of the ring (none from before it last started
    /// afresh).
    func history(from start: Int64) -> [Float] {
        let size = Self.ringCapacity
        let first = min(samplesConsumed, max(start, samplesConsumed - Int64(size), ringValidFrom))
        let from = Int(first % Int64(size))
        let count = Int(samplesConsumed - first)
        // At most two pieces: up to the ring's end, then from its start, into one array of
        // the right size (an array of the first piece, then both into another, touched
        // both).
        let head = min(count, size - from)
        var samples: [Float] = []
        samples.reserveCapacity(count)
        samples.append(contentsOf: ring[from..<(from + head)])
        samples.append(contentsOf: ring[0..<(count - head)])
        return samples
    }
}
