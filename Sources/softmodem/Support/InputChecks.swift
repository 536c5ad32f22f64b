import ModemAudioIO

/// What every decoded input is checked for once it has been read, whatever the modem.
enum InputChecks {
    /// After a whole input was decoded: a runtime error when it held no audio, no finite
    /// samples or only zeros, or when its header promised more than it held.
    static func decoded(
        _ name: String, frames: Int64, peak: Float, nonFinite: Int64 = 0,
        truncation: AudioIOError?
    ) throws(CLIError) {
        if frames == 0 { throw .runtime("\(name) holds no audio") }
        if peak == 0 && nonFinite > 0 { throw .runtime("\(name) holds no finite samples (NaN or infinite)") }
        if peak == 0 { throw .runtime("\(name) is silent: every sample is zero") }
        if let truncation { throw CLIError(truncation) }
    }
}
