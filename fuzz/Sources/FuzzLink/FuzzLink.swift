import FuzzSupport
import ModemFraming

/// The reliable-link receiver and the file header (`receive`): the first byte picks the
/// chunking; every delivered message is also tried as a ``FileHeader``, and the input
/// itself too, as a packet (with its Reed-Solomon repair) and as a hello.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLink(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let chunk = 1 + Int(input.byte())
    let rest = Array(input.rest)
    _ = FileHeader.decode(rest)
    _ = LinkPacket.decode(rest)
    var repaired = 0
    _ = LinkPacket.decode(rest, repaired: &repaired)
    var word = Array(rest.prefix(255))
    _ = LinkPacket.code.correct(&word)
    _ = LinkCapabilities.fromHello(rest)
    var receiver = ReliableReceiver()
    var message: [UInt8] = []
    var now = 0.0
    var start = 0
    while start < rest.count {
        let end = min(rest.count, start + chunk)
        for d in receiver.receive(rest[start..<end], at: now) {
            message += d.bytes
            if d.endOfMessage {
                if let h = FileHeader.decode(message) { _ = h.encoded }
                message.removeAll()
            }
            if message.count > 1 << 20 { message.removeAll() }
        }
        now += 0.05
        _ = receiver.nextBurst(at: now)
        start = end
    }
    _ = receiver.statistics
    return 0
}
