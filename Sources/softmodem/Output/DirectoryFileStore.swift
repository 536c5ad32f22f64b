import ModemAudioIO
import ModemFraming
import ModemLive
import ModemSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// `receive DIR`: each file is written to `DIR/NAME.part` as it arrives and renamed to
/// `DIR/NAME` once its size and CRC-32 match; an incomplete or damaged one stays `.part`.
final class DirectoryFileStore: FileStore {
    let directory: String
    private var file: FileDescriptor?
    private var partial = ""

    init(directory: String) {
        self.directory = directory
    }

    deinit { try? file?.close() }

    private func path(_ name: String) -> String { FilePaths.join(directory, name) }

    func begin(_ header: FileHeader) throws(FileStoreError) {
        partial = path(header.name + ".part")
        do {
            file = try FileDescriptor.open(partial, forWriting: true)
        } catch {
            throw FileStoreError(path: partial, reason: "\(error)")
        }
    }

    func write(_ bytes: [UInt8]) throws(FileStoreError) {
        guard let file else { return }
        do {
            try bytes.withUnsafeBytes { b in Result { () throws(Errno) in try file.writeAllRetrying(b) } }.get()
        } catch {
            throw FileStoreError(path: partial, reason: "\(error)")
        }
    }

    func commit(_ header: FileHeader) throws(FileStoreError) {
        try? file?.close()  // close(2)
        file = nil
        let final = path(header.name)
        do {
            try FilePaths.rename(path(header.name + ".part"), to: final)
        } catch {
            guard case .system(let errno) = error.reason else { throw FileStoreError(path: final, reason: "\(error)") }
            throw FileStoreError(path: final, reason: errno.description)
        }
    }

    func abandon(_ header: FileHeader) {
        try? file?.close()
        file = nil
    }
}
