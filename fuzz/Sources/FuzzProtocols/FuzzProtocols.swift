import FuzzSupport
import ModemFraming

/// Every byte-protocol parser (`--protocol`): the first byte picks the protocol, the
/// second the spacing of the bytes in time (guard times, timeouts); each message is
/// printed as text and JSON fields, as the command line does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProtocols(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let proto = input.pick(ByteProtocol.allCases)
    let spacing = Double(input.byte()) * 0.01
    var parser = proto.makeParser()
    var time = 0.0
    var messages: [any FramedMessage] = []
    for b in input.rest {
        messages += parser.pushAny(b, at: time)
        time += spacing
        if let m = parser.advanceAny(to: time) { messages.append(m) }
    }
    if let m = parser.advanceAny(to: time + 60) { messages.append(m) }
    for m in messages {
        _ = m.description
        _ = m.fields
        _ = hexString(m.raw)
    }
    return 0
}
