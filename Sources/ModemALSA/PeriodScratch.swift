#if canImport(Glibc)
    import Glibc
#endif

/// A stream's scratch space for one period, in the two forms it converts between: the
/// device's interleaved samples in the device's format (`raw`), and float samples as the
/// ring holds them (`mono`, `channels` per frame). Allocated when the stream opens, so the
/// audio thread never allocates, and freed with the stream.
final class PeriodScratch {
    let raw: UnsafeMutableRawPointer
    let mono: UnsafeMutablePointer<Float>

    init(pcm: ALSAPCM, channels: Int = 1) {
        raw = .allocate(byteCount: pcm.periodFrames * pcm.channels * pcm.format.size, alignment: 16)
        mono = .allocate(capacity: pcm.periodFrames * channels)
    }

    deinit {
        raw.deallocate()
        mono.deallocate()
    }
}

extension ALSAError {
    /// The device granted fewer channels than the stream needs; `detail` says how many.
    static func missingChannels(device: String, _ detail: String) -> ALSAError {
        ALSAError(
            reason: .unsupported, device: device, function: "snd_pcm_hw_params_set_channels", code: -EINVAL,
            detail: detail)
    }
}
