public import ModemDSP

// The options that pin what detection found, and the lines that say so: the command line's
// words (both its programs), kept out of the DSP core, which describes signals in values.

extension Diagnosis {
    /// The one line a decoder prints of it, e.g. "the input is too quiet to carry a modem:
    /// loudest level -70.2 dBFS", or for a modem the options that would decode it.
    public var text: String {
        switch self {
        case .silence:
            return "the input is silent (digital zero)"
        case .tooQuiet(let level):
            return "the input is too quiet to carry a modem: loudest level \(oneDecimal(level)) dBFS"
        case .noModemTones(let strongest?, let strongestLevel?, let level):
            return
                "no modem tones: the strongest tone is \(roundedHz(strongest)) Hz at \(oneDecimal(strongestLevel)) dBFS (level \(oneDecimal(level)) dBFS)"
        case .noModemTones(_, _, let level):
            return "no modem tones, only noise or sound without steady tones (level \(oneDecimal(level)) dBFS)"
        case .tonesWithoutTiming(let lower, let upper, _):
            return
                "modem-like tones at \(roundedHz(lower)) and \(roundedHz(upper)) Hz, but their timing fits no character format"
        case .modem(let s):
            return "the signal looks like \(s.summary): decode with \(s.suggestion)"
        case .clipping(let fraction, let then):
            let share = fraction * 100 < 0.1 ? "under 0.1" : oneDecimal(fraction * 100)
            let clip = "the input clips (\(share) % of samples flat at full scale)"
            guard let then else { return clip }
            return clip + "; " + then.text
        }
    }
}

extension ModemSignature {
    /// What to pin: ``options``, or when ``markIsProven`` is false those options with the
    /// caveat that mark and space may be the other way round.
    public var suggestion: String {
        markIsProven
            ? options : "\(options), or with --mark and --space the other way round (which tone is mark is unproven)"
    }

    /// The options that pin it: `--profile NAME`, or the measured values (tones to the
    /// nearest 5 Hz, well inside what the demodulator tolerates).
    public var options: String {
        if let profile { return "--profile \(profile.name)" }
        func five(_ x: Double) -> String { String(Int((x / 5).rounded()) * 5) }
        return "--baud \(roundedHz(baud)) --mark \(five(mark)) --space \(five(space))"
    }
}

extension Detection {
    /// Command-line options that pin this detection, e.g. `--profile webjack-1225` or
    /// `--baud 600 --mark 3000 --space 1800 --parity even --data-bits 7`.
    public var options: String {
        if let generation = hiJackGeneration { return "--profile \(generation.name)" }
        var parts = [signature.options]
        if format.parity != .none { parts.append("--parity \(format.parity.rawValue)") }
        if format.dataBits != 8 { parts.append("--data-bits \(format.dataBits)") }
        if format.stopBits != 1 { parts.append("--stop-bits \(format.stopBits)") }
        return parts.joined(separator: " ")
    }

    /// The `-v` line, e.g. "detected webjack-1225 (1225 baud, mark 4900 Hz, space 2450 Hz,
    /// 8N1): pin with --profile webjack-1225".
    public var text: String {
        if let inverted = hiJackInverted {
            let polarity = inverted ? "inverted line" : "normal polarity"
            let name = (hiJackGeneration ?? .gen1).name
            return
                "detected \(name) (Manchester, \(roundedHz(signature.baud)) baud, \(polarity)): pin with --profile \(name)"
        }
        // A matching profile is described by its own values: those are what decode it.
        let p = profile
        var values =
            "\(roundedHz(p.baud)) baud, mark \(roundedHz(p.mark)) Hz, space \(roundedHz(p.space)) Hz, \(format)"
        if let bits = signature.toneBits?.seconds(markIsUpper: signature.mark > signature.space) {
            // An Arduino's mark and space bits differ in length; the rate is their mean.
            values += "; mark bits \(roundedHz(bits.mark * 1e6)) us, space bits \(roundedHz(bits.space * 1e6)) us"
        }
        let what = signature.profile == nil ? "FSK (\(values))" : "\(p.name) (\(values))"
        if formatEvidence == .unproven {
            return "detected \(what), but 7 data bits or 8 (the top bit set) is unproven: not printed; "
                + "pin 7 bits with \(options), or 8 with \(signature.options)"
        }
        switch markEvidence {
        case .unproven:
            return "detected \(what), but which tone is mark is unproven: not printed; pin with \(options) "
                + "or with mark and space the other way round"
        case .bothReadings: return "detected \(what), mark proven by the burst: pin with \(options)"
        case _ where formatEvidence == .wholeBurst:
            return "detected \(what), data bits proven by the burst: pin with \(options)"
        default: return "detected \(what): pin with \(options)"
        }
    }
}

/// A frequency or bit rate to the nearest whole number, as every line of detection says it.
func roundedHz(_ x: Double) -> String { String(Int(x.rounded())) }

/// A level to one decimal, rounded half away from zero (`-0.05` reads "-0.1").
func oneDecimal(_ x: Double) -> String {
    let tenths = Int((x * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
}
