import ModemSystem
public import SystemPackage

/// Buffered writer of raw bytes to a file descriptor (standard output by default).
public struct ByteSink: ~Copyable {
    public let descriptor: FileDescriptor
    public let name: String
    private var buffer: [UInt8] = []
    private let capacity: Int

    public init(descriptor: FileDescriptor = .standardOutput, name: String = "stdout", capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.name = name
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    public mutating func write(_ byte: UInt8) throws(AudioIOError) {
        buffer.append(byte)
        if buffer.count >= capacity { try flush() }
    }

    public mutating func write(_ bytes: some Sequence<UInt8>) throws(AudioIOError) {
        for b in bytes { try write(b) }
    }

    public mutating func flush() throws(AudioIOError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        do {
            try buffer.withUnsafeBytes { b in Result { () throws(Errno) in try descriptor.writeAllRetrying(b) } }.get()
        } catch {
            throw .writeFailed(path: name, reason: error.description)
        }
    }
}
