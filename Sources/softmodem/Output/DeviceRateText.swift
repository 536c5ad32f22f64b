import ModemALSA

extension ALSAPCM {
    /// The rate for the `-v` device lines: "44100 Hz", and when alsa-lib converts from the
    /// card's own rate on the way, which rate that is and how to avoid it.
    var rateText: String {
        guard let native = convertedFromRate else { return "\(sampleRate) Hz" }
        return "\(sampleRate) Hz (alsa-lib converts from the card's \(native) Hz: --rate \(native) avoids it)"
    }
}
