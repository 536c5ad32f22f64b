import ModemAudioIO
public import ModemDSP
import ModemSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A whole process timed: wall time from spawn to exit, its CPU time, and its stdout.
public struct ProcessTiming: Sendable {
    /// Seconds from spawn to exit, on the monotonic clock.
    public var wallSeconds: Double
    /// User and system CPU seconds of the process.
    public var cpuSeconds: Double
    /// What it wrote on standard output: the decoded bytes, for a decoder.
    public var output: [UInt8]

    /// Runs `program` and waits for it; CPU time is the change in the children's usage
    /// (`getrusage(RUSAGE_CHILDREN)`), which counts each child once it has been waited for.
    public static func run(_ program: String, _ arguments: [String]) throws(BenchError) -> ProcessTiming {
        let cpuBefore = childrenCPUSeconds()
        let start = StreamTiming.nanoseconds(CLOCK_MONOTONIC)
        let output: [UInt8]
        do { output = try ChildProcess.output(program, arguments) } catch { throw .system(error) }
        let wall = Double(StreamTiming.nanoseconds(CLOCK_MONOTONIC) &- start) * 1e-9
        return ProcessTiming(wallSeconds: wall, cpuSeconds: childrenCPUSeconds() - cpuBefore, output: output)
    }

    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)  // getrusage(2)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// minimodem and `softmodem decode`, each as a whole process on the same 16-bit WAV file,
/// so start-up and file reading count for both alike.
public struct MinimodemComparison: Sendable {
    /// minimodem's run.
    public var minimodem: ProcessTiming
    /// `softmodem decode --profile`'s run.
    public var softmodem: ProcessTiming
    /// How many times faster `softmodem decode` finished (wall time).
    public var ratio: Double { minimodem.wallSeconds / max(1e-9, softmodem.wallSeconds) }

    /// Times minimodem (`--rx` with the profile's tones and bit rate, its default settings)
    /// and this program's decoder (`softmodem` with `arguments`, then the file's path) on
    /// `samples` written once to a temporary file.
    public static func measure(
        minimodemPath: String, softmodem: String, arguments: [String], profile: ModemProfile, samples: [Float],
        sampleRate: Double
    ) throws(BenchError) -> MinimodemComparison {
        let file = try TemporaryWAV(samples, sampleRate: sampleRate)
        defer { file.remove() }
        let theirs = try ProcessTiming.run(minimodemPath, MinimodemArguments.receive(profile, file: file.path))
        let ours = try ProcessTiming.run(softmodem, arguments + [file.path])
        return MinimodemComparison(minimodem: theirs, softmodem: ours)
    }
}

/// How minimodem is asked to decode one of the FSK profiles from a file.
public enum MinimodemArguments {
    /// `--rx -q` with the profile's tones and bit rate, whole numbers written without a point.
    public static func receive(_ profile: ModemProfile, file: String) -> [String] {
        ["--rx", "-q", "-M", hz(profile.mark), "-S", hz(profile.space), "-f", file, hz(profile.baud)]
    }

    private static func hz(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }

    /// What minimodem at `path` decodes from `samples` (written to a temporary 16-bit WAV).
    public static func decode(_ path: String, _ samples: [Float], sampleRate: Double, profile: ModemProfile)
        throws(BenchError) -> [UInt8]
    {
        let file = try TemporaryWAV(samples, sampleRate: sampleRate)
        defer { file.remove() }
        do { return try ChildProcess.output(path, receive(profile, file: file.path)) } catch { throw .system(error) }
    }
}

/// Samples written to a 16-bit mono WAV in the temporary directory, for other programs.
struct TemporaryWAV {
    let path: String

    init(_ samples: [Float], sampleRate: Double) throws(BenchError) {
        path = FilePaths.join(
            FilePaths.temporaryDirectory(), "softmodem-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).wav")
        do {
            let writer = try SoundFileWriter(path: path, sampleRate: Int(sampleRate), channels: 1)
            try samples.withUnsafeBufferPointer { b throws(AudioIOError) in try writer.write(b, channels: 1) }
            try writer.finish()
        } catch {
            unlink(path)
            throw .audio(error)
        }
    }

    func remove() { unlink(path) }
}
