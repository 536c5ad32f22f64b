import ModemAudioIO

/// Checks shared by the FSK and HiJack decode paths, so both word them the same way.
enum InputChecks {
    /// A usage error when `channel` (0-based) does not exist in `source`.
    static func channel(_ channel: Int?, in source: some SampleSource) throws(CLIError) {
        let channels = source.channels
        if let channel, channel >= channels {
            throw .usage("\(source.name) has \(channels) channel\(channels == 1 ? "" : "s"); --channel \(channel + 1) does not exist")
        }
    }

    /// After a whole input was decoded: a runtime error when it held no audio, no finite
    /// samples or only zeros, or when its header promised more than it held.
    static func decoded(_ name: String, frames: Int64, peak: Float, nonFinite: Int64 = 0,
                        truncation: AudioIOError?) throws(CLIError) {
        if frames == 0 { throw .runtime("\(name) holds no audio") }
        if peak == 0 && nonFinite > 0 { throw .runtime("\(name) holds no finite samples (NaN or infinite)") }
        if peak == 0 { throw .runtime("\(name) is silent: every sample is zero") }
        if let truncation { throw CLIError(truncation) }
    }
}
