/// Link deliveries back into files: a ``FileHeader`` message, then the content as one
/// message, checked against the header's size and CRC-32. It holds no file: it says what to
/// do with the bytes (``Event``), and a receiving program writes them where it wants.
///
/// A header is at most 512 bytes; a stream whose first message is longer, or is not a valid
/// header, fails. A content message that ends with the wrong size or CRC-32 fails the file.
public struct FileAssembly: Sendable {
    /// What one delivery means for the files.
    public enum Event: Sendable, Equatable {
        /// A file begins: its header (name, size, CRC-32).
        case started(FileHeader)
        /// More of the current file's content, in order.
        case content([UInt8])
        /// The current file ended with the size and CRC-32 its header promised.
        case completed(FileHeader)
    }

    /// Why the stream did not give whole files.
    public enum Failure: Error, Sendable, Equatable {
        /// The first message runs longer than any header can be.
        case headerTooLong
        /// The first message is not a file header.
        case invalidHeader
        /// A file ended with other content than its header promised.
        case mismatch(FileHeader, receivedBytes: UInt64, crc: UInt32)
        /// The stream ended inside a file.
        case incomplete(FileHeader, receivedBytes: UInt64)
        /// The stream ended without a single file.
        case noFile
    }

    /// The longest header a sender writes (a name of up to 255 bytes and its fields).
    public static let maxHeaderBytes = 512

    private var header: FileHeader?
    private var headerBytes: [UInt8] = []
    private var received: UInt64 = 0
    private var crc: UInt32 = 0
    /// The files completed so far, in order.
    public private(set) var completed: [FileHeader] = []

    /// An assembly waiting for the first file's header.
    public init() {}

    /// True between a file's first header byte and its last content byte.
    public var isReceiving: Bool { header != nil || !headerBytes.isEmpty }

    /// Takes one delivery; returns what it means (none, one or two events).
    public mutating func add(_ d: LinkDelivery) throws(Failure) -> [Event] {
        guard let h = header else {
            headerBytes += d.bytes
            guard headerBytes.count <= Self.maxHeaderBytes else { throw .headerTooLong }
            guard d.endOfMessage else { return [] }
            guard let h = FileHeader.decode(headerBytes) else { throw .invalidHeader }
            headerBytes = []
            header = h
            received = 0
            crc = 0
            return [.started(h)]
        }
        received += UInt64(d.bytes.count)
        crc = CRC32.update(crc, d.bytes)
        var events: [Event] = d.bytes.isEmpty ? [] : [.content(d.bytes)]
        guard d.endOfMessage else { return events }
        header = nil
        guard received == h.size, crc == h.crc else { throw .mismatch(h, receivedBytes: received, crc: crc) }
        completed.append(h)
        events.append(.completed(h))
        return events
    }

    /// The stream ended: fails when a file is incomplete or none was completed.
    public func finish() throws(Failure) {
        if let h = header { throw .incomplete(h, receivedBytes: received) }
        if completed.isEmpty { throw .noFile }
    }
}
