import Foundation
import ModemReport

/// The charting library inlined into every report: dygraphs, from Debian's libjs-dygraphs,
/// read from its installed path at run time so the report needs no network.
public enum ChartLibrary {
    /// Where libjs-dygraphs installs its minified script.
    public static let defaultPath = "/usr/share/javascript/dygraphs/dygraph.min.js"

    /// The script and its style sheet (``defaultPath`` with `.css` for `.js`), each without
    /// its source-map comment (a browser's developer tools would try to fetch the map).
    public static func load(path: String = defaultPath) throws(ReportError) -> (script: String, style: String) {
        let stylePath = path.hasSuffix(".js") ? String(path.dropLast(3)) + ".css" : path + ".css"
        return (try read(path), try read(stylePath))
    }

    private static func read(_ path: String) throws(ReportError) -> String {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw .chartLibraryMissing(path)
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("//# sourceMappingURL") && !$0.hasPrefix("/*# sourceMappingURL") }.joined(
                separator: "\n")
    }
}

/// Why a report could not be made.
public enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    case chartLibraryMissing(String)

    /// The message for the user: the path that could not be read and the package to install.
    public var description: String {
        switch self {
        case .chartLibraryMissing(let path): return "cannot read the charting library \(path): install libjs-dygraphs"
        }
    }
}
