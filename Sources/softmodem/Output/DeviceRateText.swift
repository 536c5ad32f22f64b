import ModemALSA

extension ALSAPCM {
    /// The rate for the `-v` device lines: "44100 Hz", and when a converter is on the way
    /// (alsa-lib's from the card's own rate, or the sound server's from its rate), which
    /// rate it converts from and how to avoid it.
    var rateText: String {
        if let native = convertedFromRate {
            return "\(sampleRate) Hz (alsa-lib converts from the card's \(native) Hz: --rate \(native) avoids it)"
        }
        if let server = ServerRate.rate(of: device, direction), server != sampleRate {
            return "\(sampleRate) Hz (the sound server converts from its \(server) Hz: --rate \(server) avoids it)"
        }
        return "\(sampleRate) Hz"
    }
}
