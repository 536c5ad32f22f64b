import CALSA

/// The sample formats this module negotiates, best first. Float avoids conversion on
/// servers (pulse); 32- and 16-bit integers are what real codecs offer on `hw:`.
public enum ALSASampleFormat: String, Sendable, CaseIterable {
    case float32 = "FLOAT_LE"
    case s32 = "S32_LE"
    case s16 = "S16_LE"

    var alsa: snd_pcm_format_t {
        switch self {
        case .float32: return SND_PCM_FORMAT_FLOAT_LE
        case .s32: return SND_PCM_FORMAT_S32_LE
        case .s16: return SND_PCM_FORMAT_S16_LE
        }
    }

    /// Bytes per sample.
    public var size: Int {
        switch self {
        case .float32, .s32: return 4
        case .s16: return 2
        }
    }
}

/// Copies channel `channel` of `frames` interleaved device frames to mono floats
/// (full scale = +-1). Plain loop: runs on the capture thread, allocates nothing.
func deinterleave(
    _ raw: UnsafeRawPointer, format: ALSASampleFormat, channels: Int, channel: Int,
    frames: Int, into out: UnsafeMutablePointer<Float>
) {
    switch format {
    case .float32:
        let p = raw.assumingMemoryBound(to: Float.self)
        for i in 0..<frames { out[i] = p[i * channels + channel] }
    case .s32:
        let p = raw.assumingMemoryBound(to: Int32.self)
        for i in 0..<frames { out[i] = Float(Int32(littleEndian: p[i * channels + channel])) * (1 / 2_147_483_648) }
    case .s16:
        let p = raw.assumingMemoryBound(to: Int16.self)
        for i in 0..<frames { out[i] = Float(Int16(littleEndian: p[i * channels + channel])) * (1 / 32_768) }
    }
}

/// Writes mono floats to every channel of `frames` interleaved device frames, clipping to
/// full scale (NaN becomes silence). Runs on the playback thread, allocates nothing.
func interleave(
    _ samples: UnsafePointer<Float>, frames: Int, format: ALSASampleFormat, channels: Int,
    into raw: UnsafeMutableRawPointer
) {
    switch format {
    case .float32:
        let p = raw.assumingMemoryBound(to: Float.self)
        for i in 0..<frames {
            let s = clip(samples[i])
            for c in 0..<channels { p[i * channels + c] = s }
        }
    case .s32:
        let p = raw.assumingMemoryBound(to: Int32.self)
        for i in 0..<frames {
            let v = Int32(littleEndian: Int32(Double(clip(samples[i])) * 2_147_483_647))
            for c in 0..<channels { p[i * channels + c] = v }
        }
    case .s16:
        let p = raw.assumingMemoryBound(to: Int16.self)
        for i in 0..<frames {
            let v = Int16(littleEndian: Int16(clip(samples[i]) * 32_767))
            for c in 0..<channels { p[i * channels + c] = v }
        }
    }
}

/// Writes `frames` interleaved frames of `sourceChannels` floats to the first channels of
/// `channels`-channel device frames (extra device channels get silence, extra source
/// channels are dropped), clipping like ``interleave``. Allocates nothing.
func convertFrames(
    _ samples: UnsafePointer<Float>, sourceChannels: Int, frames: Int, format: ALSASampleFormat,
    channels: Int, into raw: UnsafeMutableRawPointer
) {
    let shared = min(sourceChannels, channels)
    switch format {
    case .float32:
        let p = raw.assumingMemoryBound(to: Float.self)
        for i in 0..<frames {
            for c in 0..<channels { p[i * channels + c] = c < shared ? clip(samples[i * sourceChannels + c]) : 0 }
        }
    case .s32:
        let p = raw.assumingMemoryBound(to: Int32.self)
        for i in 0..<frames {
            for c in 0..<channels {
                let s = c < shared ? clip(samples[i * sourceChannels + c]) : 0
                p[i * channels + c] = Int32(littleEndian: Int32(Double(s) * 2_147_483_647))
            }
        }
    case .s16:
        let p = raw.assumingMemoryBound(to: Int16.self)
        for i in 0..<frames {
            for c in 0..<channels {
                let s = c < shared ? clip(samples[i * sourceChannels + c]) : 0
                p[i * channels + c] = Int16(littleEndian: Int16(s * 32_767))
            }
        }
    }
}

@inline(__always) private func clip(_ x: Float) -> Float {
    x.isNaN ? 0 : min(1, max(-1, x))
}
