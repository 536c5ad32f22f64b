import ArgumentParser
import ModemFraming

/// `--protocol NAME` and `--json`: the byte protocol a command parses or builds.
///
/// On `decode` (and `rx`) the protocol parses the decoded bytes and prints one message per
/// line (`--json`: one JSON object per line). On `encode` (and `tx`) the fields of
/// ``MessageFieldOptions`` build the message to send.
struct ProtocolOptions: ParsableArguments {
    @Option(name: .customLong("protocol"), help: ArgumentHelp("Byte protocol to parse or build.", discussion: "One of: \(ByteProtocol.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "name"))
    var name: String?

    @Flag(name: .long, help: "With --protocol: one JSON object per message (time, protocol, fields, raw bytes).")
    var json = false

    /// The chosen protocol, nil without --protocol; a usage error for an unknown name.
    func resolved() throws(CLIError) -> ByteProtocol? {
        guard let name else {
            if json { throw .usage("--json needs --protocol") }
            return nil
        }
        guard let p = ByteProtocol(rawValue: name.lowercased()) else {
            throw .usage("unknown protocol '\(name)'; use one of: \(ByteProtocol.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return p
    }
}
