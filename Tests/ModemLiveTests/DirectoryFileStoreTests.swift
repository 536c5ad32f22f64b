import ModemFraming
import ModemLive
import ModemSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `receive DIR`'s store on a real directory: a file appears under its name only once
/// committed, an abandoned one stays `.part`, and a directory that is not there fails with
/// the path it could not write.
@Suite struct DirectoryFileStoreTests {
    /// A fresh directory under the temporary one.
    func directory() throws -> String {
        var template = Array(FilePaths.join(FilePaths.temporaryDirectory(), "softmodem-store.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        return String(cString: made!)
    }

    func contents(_ path: String) throws -> [UInt8] { try InputFile(path: path).readAll() }

    /// Removes `dir` and what the tests left in it.
    func remove(_ dir: String, _ names: [String]) {
        for name in names { unlink(FilePaths.join(dir, name)) }
        rmdir(dir)
    }

    @Test func aCommittedFileHasItsNameAndBytes() throws {
        let dir = try directory()
        defer { remove(dir, ["note.txt", "note.txt.part"]) }
        let store = DirectoryFileStore(directory: dir)
        let bytes = Array("hello over the link\n".utf8)
        let header = FileHeader(name: "note.txt", size: UInt64(bytes.count), crc: CRC32.update(0, bytes))
        try store.begin(header)
        try store.write(Array(bytes.prefix(5)))
        #expect(throws: SystemError.self) { try contents(FilePaths.join(dir, "note.txt")) }
        try store.write(Array(bytes.dropFirst(5)))
        try store.commit(header)
        #expect(try contents(FilePaths.join(dir, "note.txt")) == bytes)
        #expect(throws: SystemError.self) { try contents(FilePaths.join(dir, "note.txt.part")) }
    }

    @Test func anAbandonedFileStaysPartial() throws {
        let dir = try directory()
        defer { remove(dir, ["half.bin", "half.bin.part"]) }
        let store = DirectoryFileStore(directory: dir)
        let header = FileHeader(name: "half.bin", size: 100, crc: 0)
        try store.begin(header)
        try store.write([1, 2, 3])
        store.abandon(header)
        #expect(try contents(FilePaths.join(dir, "half.bin.part")) == [1, 2, 3])
        #expect(throws: SystemError.self) { try contents(FilePaths.join(dir, "half.bin")) }
    }

    @Test func aMissingDirectoryNamesThePath() throws {
        let parent = try directory()
        defer { rmdir(parent) }
        let dir = FilePaths.join(parent, "not-there")
        let store = DirectoryFileStore(directory: dir)
        do {
            try store.begin(FileHeader(name: "x", size: 1, crc: 0))
            Issue.record("a file began in a directory that does not exist")
        } catch {
            #expect(error.path == FilePaths.join(dir, "x.part"))
        }
    }
}
