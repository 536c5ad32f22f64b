import ModemSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A file written whole replaces the old one in one step, and a write that cannot happen
/// leaves nothing behind.
@Suite struct WholeFileTests {
    let directory: String

    init() {
        var template = Array((FilePaths.temporaryDirectory() + "/wholefile.XXXXXX").utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func read(_ path: String) throws -> [UInt8] { try InputFile(path: path).readAll() }

    /// Names in the directory other than `.` and `..`.
    func entries() -> [String] {
        guard let d = opendir(directory) else { return [] }
        defer { closedir(d) }
        var names: [String] = []
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func writesAndReplacesLeavingNoTemporaryFile() throws {
        let path = FilePaths.join(directory, "report.html")
        try WholeFile.write(Array("first".utf8), to: path)
        try WholeFile.write(Array("second, longer".utf8), to: path)
        #expect(try read(path) == Array("second, longer".utf8))
        #expect(entries() == ["report.html"])
        unlink(path)
        rmdir(directory)
    }

    @Test func aDirectoryOrAMissingDirectoryIsNamedAndNothingIsLeft() throws {
        #expect(throws: SystemError(.write, directory, .isDirectory)) { try WholeFile.write([1], to: directory) }
        let missing = FilePaths.join(directory, "absent")
        let path = FilePaths.join(missing, "x.html")
        #expect(throws: SystemError(.write, path, .noSuchDirectory(missing))) { try WholeFile.checkTarget(path) }
        #expect(throws: SystemError(.write, path, .noSuchDirectory(missing))) { try WholeFile.write([1], to: path) }
        #expect(
            SystemError(.write, path, .noSuchDirectory(missing)).description
                == "cannot write \(path): no such directory \(missing)")
        #expect(entries().isEmpty)
        rmdir(directory)
    }

    @Test func aFailedWriteNamesTheTargetAndLeavesNoFile() throws {
        // The temporary file's name taken by a directory: opening it fails.
        let path = FilePaths.join(directory, "page.html")
        let temporary = FilePaths.join(directory, ".page.html.\(getpid()).partial")
        #expect(mkdir(temporary, 0o700) == 0)
        do {
            try WholeFile.write([1, 2, 3], to: path)
            Issue.record("the write succeeded")
        } catch {
            #expect(error.operation == .write && error.subject == path, "\(error)")
            #expect(!error.description.contains(".partial"), "\(error)")
        }
        #expect(entries() == [".page.html.\(getpid()).partial"])
        rmdir(temporary)
        rmdir(directory)
    }
}
