public import ModemAudioIO
public import ModemDSP
public import ModemDecoding
public import ModemSystem

/// Why a measurement could not be made.
public enum BenchError: Error, Sendable, CustomStringConvertible {
    /// The profile, rate or format cannot work (`context`: the modem measured, if any).
    case configuration(ModemConfigurationError, context: String?)
    /// A decode session could not be set up at this rate.
    case session(DecodeSessionError)
    /// A temporary sound file for another program could not be written.
    case audio(AudioIOError)
    /// Another program (minimodem, this one) could not be run.
    case system(SystemError)
    /// A stream's decoder could not be set up on its thread.
    case decoderSetup(modem: String)

    /// One line for the command line: the underlying error's own, or which decoder failed.
    public var description: String {
        switch self {
        case .configuration(let error, let context): return context.map { "\($0): \(error)" } ?? error.description
        case .session(let error): return error.description
        case .audio(let error): return error.description
        case .system(let error): return error.description
        case .decoderSetup(let modem): return "\(modem): cannot set up the decoder"
        }
    }
}
