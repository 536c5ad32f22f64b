import ModemFraming
import Testing

/// A file as link packets for a one-way recording (`send -o`): what the receiving end
/// reassembles is the header message then the content message, whatever the chunking.
@Suite struct FilePacketizerTests {
    /// The packets of a file of `content` read in chunks of `chunk` bytes.
    static func packets(_ content: [UInt8], chunk: Int, maxPayload: Int) -> [LinkPacket] {
        var p = FilePacketizer(maxPayload: maxPayload)
        var out = p.header(FileHeader(name: "data.bin", size: UInt64(content.count), crc: CRC32.update(0, content)))
        var i = 0
        repeat {
            let piece = Array(content[i..<min(content.count, i + chunk)])
            i += piece.count
            out += p.content(piece, isLast: i >= content.count)
        } while i < content.count
        return out
    }

    /// The messages a receiver delivers from `packets`, in order.
    static func delivered(_ packets: [LinkPacket]) -> [[UInt8]] {
        var receiver = ReliableReceiver()
        var messages: [[UInt8]] = [[]]
        for p in packets {
            for d in receiver.receive(p.wireBytes, at: 0) {
                messages[messages.count - 1] += d.bytes
                if d.endOfMessage { messages.append([]) }
            }
        }
        return messages.dropLast()
    }

    @Test(arguments: [1, 7, 20, 4096])
    func anyChunkingGivesTheSamePacketsAndTheFileComesBack(chunk: Int) {
        let content = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let packets = Self.packets(content, chunk: chunk, maxPayload: 20)
        #expect(packets == Self.packets(content, chunk: 1000, maxPayload: 20))
        #expect(packets.map(\.seq) == (0..<UInt16(packets.count)).map { $0 })
        #expect(packets.allSatisfy { $0.payload.count <= 20 })
        let messages = Self.delivered(packets)
        #expect(messages.count == 2)
        #expect(FileHeader.decode(messages[0])?.size == 1000)
        #expect(messages[1] == content)
    }

    @Test func anEmptyFileEndsItsContentWithOneEmptyPacket() {
        let packets = Self.packets([], chunk: 10, maxPayload: 20)
        #expect(packets.last?.kind == .dataEnd && packets.last?.payload == [])
        let messages = Self.delivered(packets)
        #expect(messages.count == 2 && messages[1].isEmpty)
    }
}
