import ArgumentParser
import ModemFraming

/// `--protocol NAME` and `--json`: the byte protocol a command parses or builds.
///
/// On `decode` (and `rx`) the protocol parses the decoded bytes and prints one message per
/// line (`--json`: one JSON object per line). On `encode` (and `tx`) the fields of
/// ``MessageFieldOptions`` build the message to send.
struct ProtocolOptions: ParsableArguments {
    @Option(name: .customLong("protocol"), help: ArgumentHelp("Byte protocol to parse or build.", valueName: "name"))
    var name: ByteProtocol?

    @Flag(name: .long, help: "With --protocol: one JSON object per message (time, protocol, fields, raw bytes).")
    var json = false

    /// The chosen protocol, nil without --protocol.
    func resolved() throws(CLIError) -> ByteProtocol? { name }

    func validate() throws {
        if name == nil && json { throw ValidationError("--json needs --protocol") }
    }
}
