import CALSA

#if canImport(Glibc)
    import Glibc
#endif

extension ALSAPCM {
    /// Negotiates access, format, channels, rate, period and buffer with the device, then the
    /// software thresholds. Calls `snd_pcm_hw_params_*` and `snd_pcm_sw_params_*`; returns
    /// what the device granted.
    static func configure(_ pcm: OpaquePointer, _ request: ALSARequest) throws(ALSAError) -> Granted {
        let device = request.device
        // Every failure goes through the module's one helper; when the device cannot do what
        // was asked (`unsupported`), the error also lists the devices that exist.
        let listed = { ALSADevice.availableNames(capture: request.direction == .capture) }
        func check(_ rc: Int32, _ function: String, _ detail: @autoclosure () -> String, unsupported: Bool = false)
            throws(ALSAError)
        {
            try ALSAError.check(
                rc, function, device: device, reason: unsupported ? .unsupported : .failed, detail(),
                available: unsupported ? listed() : [])
        }
        // A parameter block from `snd_pcm_hw_params_malloc` or `snd_pcm_sw_params_malloc`.
        func parameters(_ function: String, _ malloc: (UnsafeMutablePointer<OpaquePointer?>?) -> Int32)
            throws(ALSAError) -> OpaquePointer
        {
            var block: OpaquePointer?
            guard malloc(&block) == 0, let block else {
                throw ALSAError(
                    reason: .failed, device: device, function: function, code: -ENOMEM, detail: "out of memory")
            }
            return block
        }
        let hw = try parameters("snd_pcm_hw_params_malloc", snd_pcm_hw_params_malloc)
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any", "cannot read the device's capabilities")
        try check(
            snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access",
            "does not support interleaved read/write access", unsupported: true)

        guard
            let format = ALSASampleFormat.allCases.first(where: { snd_pcm_hw_params_test_format(pcm, hw, $0.alsa) == 0 }
            )
        else {
            throw ALSAError(
                reason: .unsupported, device: device, function: "snd_pcm_hw_params_test_format", code: -EINVAL,
                detail:
                    "supports none of the sample formats \(ALSASampleFormat.allCases.map(\.rawValue).joined(separator: ", ")) (try plughw: instead of hw:)",
                available: listed())
        }
        try check(
            snd_pcm_hw_params_set_format(pcm, hw, format.alsa), "snd_pcm_hw_params_set_format",
            "refused format \(format.rawValue)", unsupported: true)

        var channels = UInt32(max(1, request.channels))
        if snd_pcm_hw_params_test_channels(pcm, hw, channels) != 0 {
            var lo: UInt32 = 0
            var hi: UInt32 = 0
            _ = snd_pcm_hw_params_get_channels_min(hw, &lo)
            _ = snd_pcm_hw_params_get_channels_max(hw, &hi)
            channels = min(max(channels, lo), hi)
        }
        try check(
            snd_pcm_hw_params_set_channels(pcm, hw, channels), "snd_pcm_hw_params_set_channels",
            "refused \(channels) channel(s)", unsupported: true)

        let rate = try negotiateRate(pcm, hw, request, listed: listed)
        let native = convertedFrom(pcm, rate)

        var period = snd_pcm_uframes_t(max(16, request.periodFrames))
        var dir: Int32 = 0
        try check(
            snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir), "snd_pcm_hw_params_set_period_size_near",
            "refused a period of \(request.periodFrames) frames", unsupported: true)
        var buffer = period * snd_pcm_uframes_t(max(2, request.periods))
        try check(
            snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer), "snd_pcm_hw_params_set_buffer_size_near",
            "refused a buffer of \(buffer) frames", unsupported: true)
        try check(
            snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params",
            "refused \(rate) Hz, \(channels) channel(s), \(format.rawValue)", unsupported: true)
        _ = snd_pcm_hw_params_get_period_size(hw, &period, &dir)
        _ = snd_pcm_hw_params_get_buffer_size(hw, &buffer)

        try setSoftwareParameters(pcm, request, period: period, buffer: buffer)
        return Granted(
            channels: Int(channels), format: format, rate: Int(rate), nativeRate: native.map { Int($0) },
            period: Int(period), buffer: Int(buffer), descriptionLine: descriptionLine(pcm))
    }

    /// The software thresholds. Calls `snd_pcm_sw_params_*`. Playback starts by itself once
    /// two periods are queued: early enough for low latency, late enough that the first
    /// period does not underrun at once. Capture's threshold is 1, but the capture stream
    /// starts it explicitly (``ALSAPCM/startIfPrepared()``), since it waits before it reads.
    private static func setSoftwareParameters(
        _ pcm: OpaquePointer, _ request: ALSARequest, period: snd_pcm_uframes_t, buffer: snd_pcm_uframes_t
    ) throws(ALSAError) {
        func check(_ rc: Int32, _ function: String, _ detail: String) throws(ALSAError) {
            try ALSAError.check(rc, function, device: request.device, detail)
        }
        var block: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&block) == 0, let sw = block else {
            throw ALSAError(
                reason: .failed, device: request.device, function: "snd_pcm_sw_params_malloc", code: -ENOMEM,
                detail: "out of memory")
        }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current", "cannot read software parameters")
        let start = request.direction == .playback ? min(buffer, 2 * period) : 1
        try check(
            snd_pcm_sw_params_set_start_threshold(pcm, sw, start), "snd_pcm_sw_params_set_start_threshold",
            "refused a start threshold")
        try check(
            snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min", "refused avail_min")
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params", "refused software parameters")
    }

    /// The device's own rate when alsa-lib converts to `rate` on the way (a `plughw:` or
    /// `plug:` device over a card that cannot run at it), else nil. Asks the device's whole
    /// configuration space again with alsa-lib's resampler off (`snd_pcm_hw_params_any`,
    /// `snd_pcm_hw_params_set_rate_resample`, `snd_pcm_hw_params_test_rate`,
    /// `snd_pcm_hw_params_get_rate_min`). A sound server's own converter is not visible
    /// here: its plugins accept every rate.
    private static func convertedFrom(_ pcm: OpaquePointer, _ rate: UInt32) -> UInt32? {
        var block: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&block) == 0, let probe = block else { return nil }
        defer { snd_pcm_hw_params_free(probe) }
        guard snd_pcm_hw_params_any(pcm, probe) >= 0, snd_pcm_hw_params_set_rate_resample(pcm, probe, 0) == 0,
            snd_pcm_hw_params_test_rate(pcm, probe, rate, 0) != 0
        else { return nil }
        var native = rate
        var dir: Int32 = 0
        guard snd_pcm_hw_params_set_rate_near(pcm, probe, &native, &dir) == 0 else { return nil }
        return native
    }

    /// Sets the rate on `hw` and returns it: exactly the one asked for when it was chosen (a
    /// board's tones are only right at the rate we modulate with, and a `hw:` device should
    /// fail loudly rather than drift); otherwise the device's own rate if it cannot run at
    /// the one asked for, with alsa-lib's resampler (`plughw:`) left out. Calls
    /// `snd_pcm_hw_params_set_rate_resample`, `snd_pcm_hw_params_test_rate`,
    /// `snd_pcm_hw_params_get_rate_min`/`max` and `snd_pcm_hw_params_set_rate[_near]`.
    private static func negotiateRate(
        _ pcm: OpaquePointer, _ hw: OpaquePointer, _ request: ALSARequest, listed: () -> [String]
    ) throws(ALSAError) -> UInt32 {
        let device = request.device
        var rate = UInt32(clamping: request.sampleRate)
        if !request.rateIsExact {
            _ = snd_pcm_hw_params_set_rate_resample(pcm, hw, 0)
        }
        if snd_pcm_hw_params_test_rate(pcm, hw, rate, 0) == 0 {
            try ALSAError.check(
                snd_pcm_hw_params_set_rate(pcm, hw, rate, 0), "snd_pcm_hw_params_set_rate", device: device,
                reason: .unsupported, "refused \(rate) Hz", available: listed())
            return rate
        }
        var lo: UInt32 = 0
        var hi: UInt32 = 0
        var dir: Int32 = 0
        _ = snd_pcm_hw_params_get_rate_min(hw, &lo, &dir)
        _ = snd_pcm_hw_params_get_rate_max(hw, &hi, &dir)
        let range = lo == hi ? "\(lo) Hz only" : "\(lo)-\(hi) Hz"
        guard !request.rateIsExact, lo > 0, lo <= hi else {
            throw ALSAError(
                reason: .unsupported, device: device, function: "snd_pcm_hw_params_set_rate", code: -EINVAL,
                detail: "cannot \(request.direction.verb) at \(request.sampleRate) Hz: the device supports \(range)",
                available: listed())
        }
        rate = min(max(rate, lo), hi)
        try ALSAError.check(
            snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &dir), "snd_pcm_hw_params_set_rate_near", device: device,
            reason: .unsupported, "refused every rate near \(request.sampleRate) Hz", available: listed())
        return rate
    }
}
