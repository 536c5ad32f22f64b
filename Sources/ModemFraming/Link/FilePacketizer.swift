/// A file transfer as link packets, for a medium with no way back (a recording, `send -o`):
/// the file's header as one message, then its content as another, each cut into packets of
/// at most ``maxPayload`` bytes, the last packet of each message marked `.dataEnd`, sequence
/// numbers counting on across both.
///
/// Streaming: the content comes in chunks of any size and at most one packet's worth is
/// held, so memory does not grow with the file. The packets are the same whatever the
/// chunking. An empty file still ends its content message with one empty `.dataEnd`.
public struct FilePacketizer: Sendable {
    /// The most payload one packet carries (``LinkConfiguration/maxPayload``).
    public let maxPayload: Int
    private var seq: UInt16 = 0
    private var held: [UInt8] = []
    private var contentBytes = 0

    /// - Parameter maxPayload: at least 1.
    public init(maxPayload: Int) { self.maxPayload = max(1, maxPayload) }

    /// The packets of the header message; call once, before the content.
    public mutating func header(_ header: FileHeader) -> [LinkPacket] {
        var out: [LinkPacket] = []
        var pending = header.encoded[...]
        while pending.count > maxPayload {
            out.append(next(Array(pending.prefix(maxPayload)), last: false))
            pending = pending.dropFirst(maxPayload)
        }
        out.append(next(Array(pending), last: true))
        return out
    }

    /// The packets that `chunk` of content completes; `isLast` (the file's end) sends what
    /// is held and ends the message.
    public mutating func content(_ chunk: [UInt8], isLast: Bool) -> [LinkPacket] {
        held += chunk
        contentBytes += chunk.count
        var out: [LinkPacket] = []
        var sent = 0
        while held.count - sent > maxPayload || (isLast && held.count > sent) {
            let n = min(maxPayload, held.count - sent)
            out.append(next(Array(held[sent..<(sent + n)]), last: isLast && sent + n == held.count))
            sent += n
        }
        held.removeFirst(sent)
        if isLast && contentBytes == 0 { out.append(next([], last: true)) }
        return out
    }

    private mutating func next(_ payload: [UInt8], last: Bool) -> LinkPacket {
        defer { seq &+= 1 }
        return LinkPacket(kind: last ? .dataEnd : .data, seq: seq, payload: payload)
    }
}
