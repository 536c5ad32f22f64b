/// Reads choices (format, protocol, chunk sizes) off the front of a fuzz input, so one
/// byte string covers every variant and the fuzzer can steer between them.
public struct FuzzInput {
    public let bytes: UnsafeRawBufferPointer
    public private(set) var position = 0

    public init(_ start: UnsafeRawPointer?, _ count: Int) {
        bytes = UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: count)
    }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// One of `choices`, picked by the next byte.
    public mutating func pick<T>(_ choices: [T]) -> T { choices[Int(byte()) % choices.count] }

    /// Everything not yet read.
    public var rest: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[min(position, bytes.count)...]) }
}
