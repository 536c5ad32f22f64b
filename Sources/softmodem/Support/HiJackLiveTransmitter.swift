import ModemALSA
import ModemDSP

/// HiJack line (left data, right power tone) -> stereo playback thread, for `tx --profile
/// hijack` and `power`.
///
/// The stream is kept open from start to finish and the producer keeps a fixed amount of
/// audio queued (``pump()``), so the board's power never stops: between bytes the data line
/// carries idle 1s and the right channel the tone. Only if the producer stalls for longer
/// than the queue does the player fill with silence.
struct HiJackLiveTransmitter {
    let playback: PlaybackStream
    private var line: HiJackLineSource
    /// Whether the data channel carries the HiJack line (false: power tone only).
    let sendsData: Bool
    private var block: [Float]
    private let blockFrames: Int
    /// Frames kept queued ahead of the device: enough to ride out a late wake-up of the
    /// producer, short enough that a byte typed now is heard soon.
    let targetFrames: Int
    private(set) var bytesQueued = 0
    private(set) var framesRendered: Int64 = 0

    init(options: LiveAudioOptions, encoder: (Double) throws(CLIError) -> HiJackEncoder?, power: PowerToneOptions,
         verbose: Bool) throws(CLIError) {
        do {
            playback = try PlaybackStream(device: options.device, sampleRate: options.rate, periodFrames: options.periodFrames,
                                          periods: LiveAudioOptions.periods, keepOpen: true, channels: 2)
        } catch {
            throw CLIError(error)
        }
        let rate = Double(playback.sampleRate)
        let tone = try power.tone(sampleRate: rate)
        let data = try encoder(rate)
        sendsData = data != nil
        do {
            // Power only: a silent data line (amplitude 0) keeps a single code path.
            line = try HiJackLineSource(encoder: data ?? HiJackEncoder(sampleRate: rate, amplitude: 0), tone: tone)
        } catch {
            throw .usage("\(error)")
        }
        blockFrames = playback.pcm.periodFrames
        targetFrames = max(4 * playback.pcm.periodFrames, Int(rate * 0.15))
        block = [Float](repeating: 0, count: 2 * blockFrames)
        if verbose {
            let p = playback.pcm
            var what = "power tone \(Diagnostics.number(tone.frequency, 0)) Hz at \(Diagnostics.number(Double(tone.amplitude), 2)) (right)"
            if let data {
                what = "hijack \(Diagnostics.number(data.baud, 3)) baud, \(data.bytePeriod) cells per byte\(data.invert ? ", inverted" : "") (left), " + what
            }
            Diagnostics.info("\(p.device): playback \(p.sampleRate) Hz, \(p.channels) channel(s), \(p.format.rawValue), "
                + "period \(p.periodFrames) frames (\(Diagnostics.number(Double(p.periodFrames) * 1000 / Double(p.sampleRate))) ms), "
                + "buffer \(p.bufferFrames) frames; \(what)")
        }
    }

    func start() { playback.start() }

    /// True when every queued byte has been rendered (the line is back to idle 1s).
    var isIdle: Bool { line.isIdle }

    /// Tops the queue up to ``targetFrames``; call at least every 100 ms.
    mutating func pump() throws(CLIError) {
        while playback.pendingFrames < targetFrames && !StopSignal.isRequested {
            try render(blockFrames)
        }
    }

    /// Renders and queues `frames` more frames (waits for room if the queue is full).
    mutating func render(_ frames: Int) throws(CLIError) {
        var left = frames
        while left > 0 {
            let n = min(left, blockFrames)
            block.withUnsafeMutableBufferPointer { line.render(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(2 * n)])) }
            do {
                try block.withUnsafeBufferPointer { b throws(ALSAError) in try playback.write(UnsafeBufferPointer(rebasing: b[0..<(2 * n)])) }
            } catch {
                throw CLIError(error)
            }
            framesRendered += Int64(n)
            left -= n
        }
    }

    /// Queues all of `bytes`, rendering (and so waiting for playback) while the byte queue
    /// is full. After a stop signal the rest is dropped.
    mutating func send(_ bytes: UnsafeBufferPointer<UInt8>) throws(CLIError) {
        var i = 0
        while i < bytes.count && !StopSignal.isRequested {
            let n = line.enqueue(UnsafeBufferPointer(rebasing: bytes[i...]))
            i += n
            bytesQueued += n
            if i < bytes.count { try render(blockFrames) }
        }
    }

    /// Renders until every queued byte is out (unless stopped), then `tail` seconds of idle
    /// line and power, lets it all play and stops.
    mutating func finish(tail: Double) throws(CLIError) {
        while !line.isIdle && !StopSignal.isRequested { try render(blockFrames) }
        try render(Int(tail * Double(playback.sampleRate)))
        playback.endBurst()
        do { try playback.finish() } catch { throw CLIError(error) }
    }

    var counters: String {
        "\(bytesQueued) bytes sent, \(playback.playedFrames) frames played, \(playback.silenceFrames) frames of filler silence, \(playback.underruns) underruns recovered"
    }
}
