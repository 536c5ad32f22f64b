import ModemAudioIO
import ModemFraming

/// Turns link deliveries into files: header message, then content written as it arrives
/// to NAME.part, renamed to NAME when size and CRC-32 match.
final class FileAssembler {
    let directory: String
    let verbose: Bool
    private var header: FileHeader?
    private var headerBytes: [UInt8] = []
    private var handle: OutputFile?
    private var received: UInt64 = 0
    private var crc: UInt32 = 0
    private(set) var completed: [String] = []

    /// True between a file's header and its last byte.
    var isReceiving: Bool { header != nil || !headerBytes.isEmpty }

    init(directory: String, verbose: Bool) {
        self.directory = directory
        self.verbose = verbose
    }

    private func path(_ name: String) -> String { joinPath(directory, name) }

    func add(_ d: LinkDelivery) throws(CLIError) {
        guard let h = header else {
            headerBytes += d.bytes
            guard headerBytes.count <= 512 else { throw .runtime("the stream does not start with a file header") }
            guard d.endOfMessage else { return }
            guard let h = FileHeader.decode(headerBytes) else {
                throw .runtime("the stream does not start with a valid file header")
            }
            headerBytes = []
            header = h
            handle = try OutputFile(path: path(h.name + ".part"))
            received = 0
            crc = 0
            return
        }
        received += UInt64(d.bytes.count)
        crc = CRC32.update(crc, d.bytes)
        try handle?.write(d.bytes)
        guard d.endOfMessage else { return }
        handle?.close()
        handle = nil
        header = nil
        guard received == h.size, crc == h.crc else {
            throw .runtime(
                "\(h.name): got \(received) of \(h.size) bytes, CRC-32 \(String(crc, radix: 16)) instead of \(String(h.crc, radix: 16)); kept as \(h.name).part"
            )
        }
        let final = path(h.name)
        try renameFile(path(h.name + ".part"), to: final)
        completed.append(h.name)
        if verbose { Diagnostics.info("received \(h.name): \(h.size) bytes, CRC-32 ok") }
    }

    /// Fails if no file was completed or one is still incomplete.
    func finish() throws(CLIError) {
        if let h = header {
            throw .runtime(
                "\(h.name): incomplete, \(received) of \(h.size) bytes (kept as \(h.name).part); a packet was lost, try send --repeat"
            )
        }
        if completed.isEmpty { throw .runtime("no file found in the audio") }
    }
}
