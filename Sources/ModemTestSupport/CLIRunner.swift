public import Foundation

/// Runs the built `softmodem` binary (or another program) and captures its output; finds
/// the binary, the package root and the shared captures for every test target and bench.
public enum CLI {
    /// How a program ended and what it printed.
    public struct Result: Sendable {
        /// The exit status (or the signal number when the process was killed, as after a timeout).
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: Data
        /// Everything written to standard error, decoded as UTF-8.
        public var stderr: String
        /// Standard output decoded as UTF-8.
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The package root, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `SOFTMODEM_BIN` if set (the Makefile sets it), else the newest build in .build.
    public static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["SOFTMODEM_BIN"],
            FileManager.default.isExecutableFile(atPath: path)
        {
            return path
        }
        let candidates = ["release", "debug"].map { packageRoot.appendingPathComponent(".build/\($0)/softmodem").path }
        return candidates.filter { FileManager.default.isExecutableFile(atPath: $0) }
            .max { modified($0) < modified($1) } ?? candidates[0]
    }()

    private static func modified(_ path: String) -> Date {
        (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
    }

    /// The shared captures folder, or nil when it is absent (tests then skip).
    public static let captures: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("truth.json").path) ? url : nil
    }()

    /// Runs the softmodem binary (``binary``) with `arguments`, feeding it `stdin`; the process is
    /// terminated after `timeout` seconds.
    public static func softmodem(_ arguments: [String], stdin: Data? = nil, timeout: TimeInterval = 120) throws
        -> Result
    {
        try run(binary, arguments, stdin: stdin, timeout: timeout)
    }

    /// Runs `executable` with `arguments`, feeding it `stdin`, and collects both outputs; the
    /// process is terminated after `timeout` seconds.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, timeout: TimeInterval = 120)
        throws -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let writer = Thread {
            if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        // Drain both pipes concurrently so a chatty child never blocks.
        nonisolated(unsafe) var errData = Data()
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }.start()
        let deadline = DispatchTime.now() + timeout
        let timer = DispatchSource.makeTimerSource()
        timer.schedule(deadline: deadline)
        timer.setEventHandler { if process.isRunning { process.terminate() } }
        timer.resume()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        errDone.wait()
        return Result(
            status: process.terminationStatus, stdout: outData, stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory for one test.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("softmodem-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The first executable named `program` on `$PATH`, like `which(1)`; nil when there is none.
    public static func which(_ program: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(program)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// `count` seeded pseudo-random bytes (an LCG): the same seed gives the same bytes.
    public static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed &+ 0x9E37_79B9_7F4A_7C15
        var data = Data(count: count)
        for i in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            data[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return data
    }
}
