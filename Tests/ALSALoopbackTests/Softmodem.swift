import Foundation
import Glibc

/// Runs the built `softmodem` binary against the private PulseAudio server.
enum Softmodem {
    /// `SOFTMODEM_BIN` if set (the Makefile sets it), else the newest build in .build.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["SOFTMODEM_BIN"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = ["release", "debug"].map { root.appendingPathComponent(".build/\($0)/softmodem").path }
        func modified(_ p: String) -> Date {
            (try? FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as? Date) ?? .distantPast
        }
        return candidates.filter { FileManager.default.isExecutableFile(atPath: $0) }.max { modified($0) < modified($1) } ?? candidates[0]
    }()

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
    }

    /// A running softmodem whose stdout and stderr are collected to files.
    final class Running {
        let process = Process()
        let stdoutURL: URL
        let stderrURL: URL
        let stdinPipe = Pipe()

        init(_ arguments: [String], in dir: URL, tag: String) throws {
            stdoutURL = dir.appendingPathComponent("\(tag).out")
            stderrURL = dir.appendingPathComponent("\(tag).err")
            FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
            FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: Softmodem.binary)
            process.arguments = arguments
            process.environment = Loopback.server?.environment
            process.standardInput = stdinPipe
            process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            try process.run()
        }

        func send(_ data: Data) { stdinPipe.fileHandleForWriting.write(data) }
        func closeStdin() { try? stdinPipe.fileHandleForWriting.close() }
        var stdout: Data { (try? Data(contentsOf: stdoutURL)) ?? Data() }
        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// Waits for exit; SIGKILLs after `timeout` seconds so a hang fails instead of blocking.
        @discardableResult
        func wait(timeout: Double) -> Int32 {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Runs to completion with `stdin` and returns status and output.
    static func run(_ arguments: [String], stdin: Data = Data(), timeout: Double = 60) throws -> Result {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = try Running(arguments, in: dir, tag: "run")
        p.send(stdin)
        p.closeStdin()
        let status = p.wait(timeout: timeout)
        return Result(status: status, stdout: p.stdout, stderr: p.stderr)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("softmodem-alsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Polls `condition` every 20 ms until it holds or `timeout` seconds pass.
    static func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed
        return Data((0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }
}
