import ModemSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Programs run to their end: output, error output and status come back whatever their
/// sizes; a program that is not there is an error naming it.
@Suite struct ChildProcessTests {
    let shell = "/bin/sh"

    @Test func outputErrorAndStatusComeBack() throws {
        let result = try ChildProcess.run(shell, ["-c", "printf out; printf 'first\\nsecond' >&2; exit 3"])
        #expect(result.output == Array("out".utf8))
        #expect(result.errorOutput == Array("first\nsecond".utf8))
        #expect(result.firstErrorLine == "first")
        #expect(result.status == 3)
    }

    /// Large output on both streams at once cannot deadlock: error output goes to a file.
    @Test func bothStreamsLargeAtOnce() throws {
        let result = try ChildProcess.run(
            shell, ["-c", "head -c 300000 /dev/zero; head -c 300000 /dev/zero >&2; head -c 300000 /dev/zero"])
        #expect(result.output.count == 600_000)
        #expect(result.errorOutput.count == 300_000)
        #expect(result.status == 0)
    }

    @Test func inputIsTheProgramsStandardInput() throws {
        let input = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(try ChildProcess.run("/bin/cat", [], input: input).output == input)
        // No input: /dev/null, so a reader ends at once.
        #expect(try ChildProcess.output("/bin/cat", []).isEmpty)
    }

    @Test func aSignalIsReportedAsShellsDo() throws {
        #expect(try ChildProcess.run(shell, ["-c", "kill -KILL $$"]).status == 128 + 9)
    }

    @Test func aMissingProgramIsNamed() {
        do {
            _ = try ChildProcess.run("/nonexistent/program", [])
            Issue.record("a missing program ran")
        } catch {
            #expect(error.operation == .run && error.subject == "/nonexistent/program")
            #expect(error.description.hasPrefix("cannot run /nonexistent/program: "))
        }
    }
}

/// Files and paths: the errors say what failed on which file.
@Suite struct FilePathsTests {
    @Test func pathsJoinAndSplit() {
        #expect(FilePaths.join("dir", "name") == "dir/name")
        #expect(FilePaths.join("dir/", "name") == "dir/name")
        #expect(FilePaths.baseName("/a/b/c.wav") == "c.wav")
        #expect(FilePaths.baseName("c.wav/") == "c.wav")
    }

    @Test func executablesAreFoundOnThePath() throws {
        let sh = try #require(FilePaths.findExecutable("sh"))
        #expect(FilePaths.isExecutableFile(sh))
        #expect(FilePaths.findExecutable("no-such-program-softmodem") == nil)
        #expect(!FilePaths.isExecutableFile("/tmp"))
    }

    @Test func ownExecutableIsThisTestRunner() throws {
        #expect(FilePaths.isExecutableFile(try FilePaths.ownExecutable()))
    }

    @Test func fileErrorsNameTheFileAndTheOperation() {
        #expect(throws: SystemError(.open, "/nonexistent/x", .system(.noSuchFileOrDirectory))) {
            try InputFile(path: "/nonexistent/x")
        }
        #expect(throws: SystemError(.open, "/tmp", .isDirectory)) { try InputFile(path: "/tmp") }
        #expect(
            SystemError(.open, "/tmp", .isDirectory).description == "cannot open /tmp: is a directory")
        #expect(throws: SystemError(.write, "/nonexistent/y", .system(.noSuchFileOrDirectory))) {
            try OutputFile(path: "/nonexistent/y")
        }
        #expect(throws: SystemError(.rename(to: "/tmp/z"), "/nonexistent/z", .system(.noSuchFileOrDirectory))) {
            try FilePaths.rename("/nonexistent/z", to: "/tmp/z")
        }
    }

    @Test func aClosedFileRefusesWrites() throws {
        let path = FilePaths.join(
            FilePaths.temporaryDirectory(), "softmodem-closed-\(UInt32.random(in: 0...UInt32.max))")
        let file = try OutputFile(path: path)
        try file.write([1, 2])
        file.close()
        #expect(throws: SystemError(.write, path, .closed)) { try file.write([3]) }
        let read = try InputFile(path: path)
        #expect(try read.readAll() == [1, 2])
        try read.rewind()
        #expect(try read.read(upTo: 1) == [1])
        try FilePaths.rename(path, to: path + ".gone")
        defer { unlink(path + ".gone") }
        #expect(throws: SystemError.self) { try InputFile(path: path) }
    }
}
