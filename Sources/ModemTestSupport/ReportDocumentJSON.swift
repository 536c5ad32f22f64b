import Foundation
public import ModemReport

/// A report document through the JSON form softmodem hands softmodem-report, with the same
/// names for non-finite numbers.
public enum ReportDocumentJSON {
    /// Thrown by a test when the decoded document is not the kind that was encoded.
    public struct Mismatch: Error {
        /// A mismatch; it carries no details.
        public init() {}
    }

    /// `document` encoded, then decoded.
    public static func roundTrip(_ document: ReportDocument) throws -> ReportDocument {
        let names = ReportDocument.nonFiniteNames
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: names.positiveInfinity, negativeInfinity: names.negativeInfinity, nan: names.nan)
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: names.positiveInfinity, negativeInfinity: names.negativeInfinity, nan: names.nan)
        return try decoder.decode(ReportDocument.self, from: try encoder.encode(document))
    }
}
