public import ModemAudioIO
public import ModemDSP

/// Reads a sample source (file, headerless PCM, stdin) to its end through a decode
/// session: the read loop that `decode` and `receive` share.
public enum SourceDecoding {
    /// Decodes all of `source`, handing each of the chosen channel's events to `handle`
    /// in order, and calling `flush` after each read once a channel is chosen (so a pipe's
    /// output keeps up with its input). Ends with ``DecodeSession/finish()``.
    ///
    /// Files are read in large pieces (fewer system calls), streams in small ones. A mono
    /// 16-bit file is decoded from its integers (no float conversion pass).
    ///
    /// - Parameters:
    ///   - frameLimit: stop reading after about this many frames (a bound on the work for
    ///     untrusted input, whose header may promise hours); nil reads to the end.
    ///   - readError: turns a failed read into the caller's error type, so that the
    ///     caller's own `handle` and `flush` errors and read errors come out as one type.
    @inlinable public static func run<Receiver: ModemReceiver, Failure: Error>(
        _ source: inout some SampleSource, through session: inout DecodeSession<Receiver>, frameLimit: Int64? = nil,
        readError: (AudioIOError) -> Failure,
        handle: (ModemEvent) throws(Failure) -> Void, flush: () throws(Failure) -> Void = {}
    ) throws(Failure) {
        let framesPerRead = (source.isStream ? 1 : 16) * DecodeSession<Receiver>.framesPerStep
        let pcm16 = source.channels == 1 ? (source as? SoundFileReader).flatMap { $0.isPCM16 ? $0 : nil } : nil
        var interleaved = [Float](repeating: 0, count: pcm16 == nil ? framesPerRead * source.channels : 0)
        while true {
            let frames: Int
            do {
                if let pcm16 {
                    let shorts = try pcm16.readPCM16(maxFrames: framesPerRead)
                    frames = shorts.count
                    if frames > 0 { session.process(pcm16: shorts) }
                } else {
                    frames = try interleaved.withUnsafeMutableBufferPointer { buffer throws(AudioIOError) in
                        try source.read(into: buffer)
                    }
                    if frames > 0 { interleaved.withUnsafeBufferPointer { session.process($0, frames: frames) } }
                }
            } catch {
                throw readError(error)
            }
            if frames == 0 { break }
            for e in session.delivered { try handle(e) }
            if session.chosen != nil { try flush() }
            if let frameLimit, session.stats.frames >= frameLimit { break }
        }
        session.finish()
        for e in session.delivered { try handle(e) }
        try flush()
    }
}
