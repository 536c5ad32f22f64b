import ArgumentParser
import ModemAudioIO
import ModemDSP
import ModemFraming

// Option values that are enums: swift-argument-parser parses them, lists them in --help and
// completions, and reports a bad value as a usage error naming the choices.

extension Parity: EnumArgument {}
extension RawSampleFormat: EnumArgument {}
extension ByteProtocol: EnumArgument {}

/// An enum option value named by its raw string.
///
/// Lists its cases by their raw values directly: the library's defaults format each case
/// with `"\(value)"`, whose run-time conformance lookups cost millions of instructions at
/// every start (the argument sets are built three times per parse).
protocol EnumArgument: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {}

extension EnumArgument {
    static var allValueStrings: [String] { allCases.map(\.rawValue) }
    /// The same as the library's: it omits descriptions equal to the value, which all are.
    static var allValueDescriptions: [String: String] { [:] }
    var defaultValueDescription: String { rawValue }
}

/// `--profile`: a built-in FSK profile or `hijack`.
struct ProfileName: ExpressibleByArgument, Equatable {
    /// The profile name that selects the HiJack coder (Manchester) instead of FSK.
    static let hijack = ProfileName(name: "hijack")
    /// FSK found from the signal, burst by burst (receiving commands).
    static let auto = ProfileName(name: "auto")

    /// The canonical name (a built-in profile's, or "hijack").
    let name: String

    private init(name: String) { self.name = name }

    init(_ profile: ModemProfile) { name = profile.name }

    init?(argument: String) {
        let lower = argument.lowercased()
        if lower == Self.hijack.name {
            self = .hijack
        } else if lower == Self.auto.name {
            self = .auto
        } else if let profile = ModemProfile.named(lower) {
            name = profile.name
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ModemProfile.builtIn.map(\.name) + [hijack.name, auto.name] }
    var defaultValueDescription: String { name }
    var isHiJack: Bool { self == .hijack }
    var isAuto: Bool { self == .auto }
}
