import ArgumentParser
import ModemAudioIO
import ModemDSP
import ModemFraming

// Option values that are enums: swift-argument-parser parses them, lists them in --help and
// completions, and reports a bad value as a usage error naming the choices.

extension Parity: EnumArgument {}
extension RawSampleFormat: EnumArgument {}
extension ByteProtocol: EnumArgument {}
extension HiJackGeneration: EnumArgument {}
extension ChannelLayout: EnumArgument {}

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

/// `--profile`: a built-in FSK profile or a HiJack generation (`hijack`, `hijack-infinity`,
/// `hijack-lab11`).
struct ProfileName: ExpressibleByArgument, Equatable {
    /// FSK found from the signal, burst by burst (receiving commands).
    static let auto = ProfileName(name: "auto")

    /// The canonical name (a built-in profile's, or a HiJack generation's).
    let name: String

    private init(name: String) { self.name = name }

    init(_ profile: ModemProfile) { name = profile.name }

    init?(argument: String) {
        let lower = argument.lowercased()
        if let generation = HiJackGeneration(rawValue: lower) {
            name = generation.name
        } else if lower == Self.auto.name {
            self = .auto
        } else if let profile = ModemProfile.named(lower) {
            name = profile.name
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] {
        ModemProfile.builtIn.map(\.name) + HiJackGeneration.allCases.map(\.name) + [auto.name]
    }
    var defaultValueDescription: String { name }
    /// The HiJack generation this name selects, nil for FSK and auto.
    var hiJackGeneration: HiJackGeneration? { HiJackGeneration(rawValue: name) }
    var isHiJack: Bool { hiJackGeneration != nil }
    var isAuto: Bool { self == .auto }
}
