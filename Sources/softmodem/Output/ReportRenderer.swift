import FoundationEssentials
import ModemReport
import ModemSystem
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// Draws report pages through `softmodem-report`, a program of its own: the HTML library it
/// links brings Foundation and its 38 MB of ICU tables, which softmodem leaves out (a
/// smaller binary that starts faster). The document goes over as JSON on its standard input;
/// the page comes back on its standard output.
enum ReportRenderer {
    static let programName = "softmodem-report"

    /// Fails early, before any long work, when the page could not be drawn: the program or
    /// its charting library is missing.
    static func check() throws(CLIError) {
        let result = try run(["--check"])
        if result.status != 0 { throw failure(result) }
    }

    /// The page's HTML.
    static func render(_ document: ReportDocument) throws(CLIError) -> [UInt8] {
        let encoder = JSONEncoder()
        let names = ReportDocument.nonFiniteNames
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: names.positiveInfinity, negativeInfinity: names.negativeInfinity, nan: names.nan)
        let json: [UInt8]
        do {
            json = Array(try encoder.encode(document))
        } catch {
            throw .runtime("cannot encode the report: \(error)")
        }

        let result = try run([], input: json)
        if result.status != 0 { throw failure(result) }
        return result.output
    }

    private static func run(_ arguments: [String], input: [UInt8]? = nil) throws(CLIError) -> ChildProcess.Result {
        let path = try program()
        do { return try ChildProcess.run(path, arguments, input: input) } catch { throw CLIError(error) }
    }

    private static func failure(_ result: ChildProcess.Result) -> CLIError {
        let line = result.firstErrorLine
        return .runtime(line.isEmpty ? "\(programName) failed (exit status \(result.status))" : line)
    }

    /// Beside this executable (a build directory, or a tree installed by hand), else where
    /// the package installs it: `PREFIX/lib/softmodem/` for `PREFIX/bin/softmodem`.
    static func program() throws(CLIError) -> String {
        let own: String
        do { own = try FilePaths.ownExecutable() } catch { throw CLIError(error) }
        let directory = FilePath(own).removingLastComponent().string
        let candidates = [
            FilePaths.join(directory, programName), FilePaths.join(directory, "../lib/softmodem/\(programName)"),
        ]
        for candidate in candidates where FilePaths.isExecutableFile(candidate) { return candidate }
        throw CLIError.runtime(
            "cannot draw the report: \(programName) is not installed (looked in \(candidates[0]) and \(candidates[1]))")
    }
}
