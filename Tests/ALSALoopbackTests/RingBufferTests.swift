import ModemALSA
import Testing

@Suite struct RingBufferTests {
    @Test func wrapsAroundAndKeepsOrder() {
        let ring = SPSCRingBuffer(minimumCapacity: 5)
        #expect(ring.capacity == 8)
        var next: Float = 0
        var expected: Float = 0
        var out = [Float](repeating: 0, count: 8)
        for step in 0..<200 {
            let chunk = (0..<(step % 7 + 1)).map { _ -> Float in
                defer { next += 1 }
                return next
            }
            let put = chunk.withUnsafeBufferPointer { ring.write($0) }
            next -= Float(chunk.count - put)  // unwritten samples are offered again
            let want = step % 5 + 1
            let got = out.withUnsafeMutableBufferPointer {
                ring.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<want]))
            }
            for i in 0..<got {
                #expect(out[i] == expected)
                expected += 1
            }
            #expect(ring.availableToRead + ring.availableToWrite == ring.capacity)
        }
    }

    @Test func refusesWhenFullAndDiscards() {
        let ring = SPSCRingBuffer(minimumCapacity: 4)
        let ten = [Float](repeating: 1, count: 10)
        #expect(ten.withUnsafeBufferPointer { ring.write($0) } == 4)
        #expect(ten.withUnsafeBufferPointer { ring.write($0) } == 0)
        #expect(ring.discardAll() == 4)
        #expect(ring.availableToRead == 0)
    }

    @Test func crossThreadTransferIsExact() async {
        let ring = SPSCRingBuffer(minimumCapacity: 64)
        let total = 200_000
        let producer = Task.detached {
            var i = 0
            var chunk = [Float](repeating: 0, count: 37)
            while i < total {
                let n = min(chunk.count, total - i)
                for k in 0..<n { chunk[k] = Float(i + k) }
                let put = chunk.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[0..<n])) }
                i += put
                if put == 0 { await Task.yield() }
            }
        }
        var received = 0
        var ok = true
        var buffer = [Float](repeating: 0, count: 53)
        while received < total {
            let got = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            for k in 0..<got where buffer[k] != Float(received + k) { ok = false }
            received += got
            if got == 0 { await Task.yield() }
        }
        await producer.value
        #expect(ok)
        #expect(received == total)
    }
}
