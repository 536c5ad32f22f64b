import FuzzSupport
import ModemDSP

/// The HiJack (Manchester) decoder on arbitrary samples: the first bytes pick the rate,
/// the sample encoding (float bit patterns or 16-bit) and the chunk size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHiJack(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let rate = input.pick([44_100.0, 48_000, 8_000, 192_000, 22_050])
    let floats = input.byte() & 1 == 1
    let chunk = 1 + Int(input.byte()) * 17
    guard var decoder = try? HiJackDecoder(sampleRate: rate) else { return 0 }
    let rest = input.rest
    var samples: [Float]
    if floats {
        samples = (0..<(rest.count / 4)).map {
            Float(bitPattern: rest.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))
        }
    } else {
        samples = (0..<(rest.count / 2)).map {
            Float(rest.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) / 32768
        }
    }
    var events: [ModemEvent] = []
    samples.withUnsafeBufferPointer { all in
        var start = 0
        while start < all.count {
            let end = min(all.count, start + chunk)
            decoder.process(UnsafeBufferPointer(rebasing: all[start..<end]), into: &events)
            start = end
        }
    }
    decoder.flush(into: &events)
    _ = decoder.measuredBaud
    return 0
}
