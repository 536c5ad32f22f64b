#if canImport(Glibc)
    import Glibc
#endif

/// How ``ALSAPCM/recover(_:)`` dealt with a failed call; either way the caller repeats it.
public enum ALSARecovery: Sendable, Equatable {
    /// Interrupted by a signal, or the device was not ready (`-EINTR`, `-EAGAIN`): nothing
    /// was lost.
    case interrupted
    /// An overrun or underrun (`-EPIPE`) or a suspend (`-ESTRPIPE`), undone by
    /// `snd_pcm_recover`: audio was lost, so streams count it.
    case xrun
}

/// The module's one retry policy for ALSA calls, written here and nowhere else.
///
/// - `-EINTR` (a signal arrived) and `-EAGAIN` (not ready yet): the call is simply made again.
///   Opening is the exception: there `-EAGAIN` means another program holds the device, which
///   is reported as busy, so ``open(_:)`` repeats on `-EINTR` only.
/// - `-EPIPE` (xrun) and `-ESTRPIPE` (suspend) on a transfer or a wait: the stream is
///   restarted with `snd_pcm_recover` (silently) and the call made again; the capture and
///   playback streams count these as overruns and underruns.
/// - Anything else, or a failed `snd_pcm_recover`: the original error is thrown, and the
///   stream that met it stops and rethrows it to its producer or consumer.
enum ALSARetryPolicy {
    /// True for the errors that are repeated with nothing to undo.
    @inline(__always)
    static func isInterruption(_ code: Int32) -> Bool { code == -EINTR || code == -EAGAIN }

    /// True for the errors `snd_pcm_recover` undoes.
    @inline(__always)
    static func isXrun(_ code: Int32) -> Bool { code == -EPIPE || code == -ESTRPIPE }

    /// Calls `call` until it returns something other than an interruption (see above).
    static func repeatingInterrupted(_ call: () -> Int32) -> Int32 {
        var rc: Int32
        repeat { rc = call() } while isInterruption(rc)
        return rc
    }

    /// Calls `call` (an open) until it returns something other than `-EINTR`.
    static func open(_ call: () -> Int32) -> Int32 {
        var rc: Int32
        repeat { rc = call() } while rc == -EINTR
        return rc
    }
}
