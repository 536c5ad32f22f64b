import ModemSystem
public import SystemPackage

/// Buffered writer of raw bytes to a file descriptor (standard output by default).
public struct ByteSink: ~Copyable {
    /// The descriptor written to; the sink never closes it.
    public let descriptor: FileDescriptor
    /// What write errors call the output, such as "stdout".
    public let name: String
    private var buffer: [UInt8] = []
    private let capacity: Int

    /// A sink that writes to `descriptor` once `capacity` bytes (64 KiB by default) are buffered.
    public init(descriptor: FileDescriptor = .standardOutput, name: String = "stdout", capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.name = name
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Buffers one byte, flushing when the buffer reaches its capacity.
    /// Throws ``AudioIOError/writeFailed(path:reason:)`` when that flush fails.
    public mutating func write(_ byte: UInt8) throws(AudioIOError) {
        buffer.append(byte)
        if buffer.count >= capacity { try flush() }
    }

    /// Buffers every byte of `bytes`, flushing each time the buffer fills.
    public mutating func write(_ bytes: some Sequence<UInt8>) throws(AudioIOError) {
        for b in bytes { try write(b) }
    }

    /// Writes out everything buffered, continuing after short writes. The sink does not
    /// flush when it goes away, so call this last. The buffer is emptied even when the
    /// write throws ``AudioIOError/writeFailed(path:reason:)``.
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
