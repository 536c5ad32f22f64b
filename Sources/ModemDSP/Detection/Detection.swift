/// What ``AutoReceiver`` detected for one burst: the modem's tones, bit rate and character
/// format, and the options that would pin them.
public struct Detection: Sendable, Equatable, CustomStringConvertible {
    /// First sample of the burst (where the receiver started decoding it).
    public var startSample: Int64
    public var signature: ModemSignature
    public var format: FrameFormat

    public init(startSample: Int64, signature: ModemSignature, format: FrameFormat) {
        self.startSample = startSample
        self.signature = signature
        self.format = format
    }

    /// The profile the burst is decoded with: the matching built-in one, else the measured
    /// values (named "custom").
    public var profile: ModemProfile {
        signature.profile ?? ModemProfile(name: "custom", baud: signature.baud, mark: signature.mark, space: signature.space)
    }

    /// Command-line options that pin this detection, e.g. `--profile webjack-1225` or
    /// `--baud 600 --mark 3000 --space 1800 --parity even --data-bits 7`.
    public var options: String {
        var parts = [signature.options]
        if format.parity != .none { parts.append("--parity \(format.parity.rawValue)") }
        if format.dataBits != 8 { parts.append("--data-bits \(format.dataBits)") }
        if format.stopBits != 1 { parts.append("--stop-bits \(format.stopBits)") }
        return parts.joined(separator: " ")
    }

    /// E.g. "detected webjack-1225 (1225 baud, mark 4900 Hz, space 2450 Hz, 8N1): pin with --profile webjack-1225".
    public var description: String {
        // A matching profile is described by its own values: those are what decode it.
        let p = profile
        let values = "\(Diagnosis.hz(p.baud)) baud, mark \(Diagnosis.hz(p.mark)) Hz, space \(Diagnosis.hz(p.space)) Hz, \(format)"
        let what = signature.profile == nil ? "FSK (\(values))" : "\(p.name) (\(values))"
        return "detected \(what): pin with \(options)"
    }
}
