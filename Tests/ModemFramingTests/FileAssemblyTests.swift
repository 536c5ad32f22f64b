import ModemFraming
import Testing

/// Link deliveries back into files, without any I/O.
@Suite struct FileAssemblyTests {
    static let content = Array("the file's content".utf8)
    static let header = FileHeader(name: "f.txt", size: UInt64(content.count), crc: CRC32.update(0, content))

    @Test func aFileInPiecesGivesItsHeaderItsContentInOrderAndItsEnd() throws {
        var a = FileAssembly()
        let h = Self.header.encoded
        #expect(try a.add(LinkDelivery(bytes: Array(h.prefix(3)), endOfMessage: false)).isEmpty)
        #expect(a.isReceiving)
        #expect(try a.add(LinkDelivery(bytes: Array(h.dropFirst(3)), endOfMessage: true)) == [.started(Self.header)])
        #expect(
            try a.add(LinkDelivery(bytes: Array(Self.content.prefix(5)), endOfMessage: false)) == [
                .content(Array(Self.content.prefix(5)))
            ])
        #expect(
            try a.add(LinkDelivery(bytes: Array(Self.content.dropFirst(5)), endOfMessage: true)) == [
                .content(Array(Self.content.dropFirst(5))), .completed(Self.header),
            ])
        #expect(!a.isReceiving)
        #expect(a.completed == [Self.header])
        try a.finish()
    }

    @Test func contentOtherThanTheHeaderPromisedFails() throws {
        var a = FileAssembly()
        _ = try a.add(LinkDelivery(bytes: Self.header.encoded, endOfMessage: true))
        var damaged = Self.content
        damaged[0] ^= 1
        #expect(
            throws: FileAssembly.Failure.mismatch(
                Self.header, receivedBytes: UInt64(damaged.count), crc: CRC32.update(0, damaged))
        ) {
            _ = try a.add(LinkDelivery(bytes: damaged, endOfMessage: true))
        }
    }

    @Test func aStreamThatIsNotFilesFailsAtItsFirstMessage() {
        var a = FileAssembly()
        #expect(throws: FileAssembly.Failure.invalidHeader) {
            _ = try a.add(LinkDelivery(bytes: Array("hello".utf8), endOfMessage: true))
        }
        var b = FileAssembly()
        #expect(throws: FileAssembly.Failure.headerTooLong) {
            _ = try b.add(LinkDelivery(bytes: [UInt8](repeating: 0x20, count: 600), endOfMessage: false))
        }
    }

    @Test func endingInsideAFileOrWithoutOneFails() throws {
        #expect(throws: FileAssembly.Failure.noFile) { try FileAssembly().finish() }
        var a = FileAssembly()
        _ = try a.add(LinkDelivery(bytes: Self.header.encoded, endOfMessage: true))
        _ = try a.add(LinkDelivery(bytes: Array(Self.content.prefix(4)), endOfMessage: false))
        #expect(throws: FileAssembly.Failure.incomplete(Self.header, receivedBytes: 4)) { try a.finish() }
    }
}
