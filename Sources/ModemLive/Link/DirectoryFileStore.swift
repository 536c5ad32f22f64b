public import ModemFraming
import ModemSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Files received over the link, kept in a directory (`receive DIR`): each is written to
/// `DIR/NAME.part` as it arrives and renamed to `DIR/NAME` once its size and CRC-32 match;
/// an incomplete or damaged one stays `.part`. A file of the same name is replaced.
public final class DirectoryFileStore: FileStore {
    /// Where files are written.
    public let directory: String
    private var file: FileDescriptor?
    private var partial = ""

    /// Keeps files in `directory`, which must exist (each operation fails otherwise).
    public init(directory: String) {
        self.directory = directory
    }

    deinit { try? file?.close() }

    private func path(_ name: String) -> String { FilePaths.join(directory, name) }

    /// Creates (or empties) `NAME.part` for the file `header` announces.
    public func begin(_ header: FileHeader) throws(FileStoreError) {
        try? file?.close()
        partial = path(header.name + ".part")
        do {
            file = try FileDescriptor.open(partial, forWriting: true)
        } catch {
            throw FileStoreError(path: partial, reason: "\(error)")
        }
    }

    /// Appends to the file in progress; nothing before a ``begin(_:)``.
    public func write(_ bytes: [UInt8]) throws(FileStoreError) {
        guard let file else { return }
        do {
            try bytes.withUnsafeBytes { b in Result { () throws(Errno) in try file.writeAllRetrying(b) } }.get()
        } catch {
            throw FileStoreError(path: partial, reason: "\(error)")
        }
    }

    /// Closes the file and renames `NAME.part` to `NAME`, replacing a file of that name.
    public func commit(_ header: FileHeader) throws(FileStoreError) {
        try? file?.close()  // close(2)
        file = nil
        let final = path(header.name)
        do {
            try FilePaths.rename(path(header.name + ".part"), to: final)
        } catch {
            throw FileStoreError(path: final, reason: error.reason.description)
        }
    }

    /// Closes the file and leaves `NAME.part` as it is, for the user to look at.
    public func abandon(_ header: FileHeader) {
        try? file?.close()
        file = nil
    }
}
