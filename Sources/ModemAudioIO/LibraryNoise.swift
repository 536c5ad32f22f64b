#if canImport(Glibc)
    import Glibc
#endif

/// Keeps libmpg123's own messages off standard error.
///
/// libsndfile decodes MPEG audio through libmpg123, which prints to stderr
/// ("[src/libmpg123/parse.c:skip_junk():1317] error: Giving up searching valid MPEG header
/// after 65536 bytes of junk.", "Note: Illegal Audio-MPEG-Header ...") unless its handle has
/// the MPG123_QUIET flag. libsndfile creates that handle itself and offers no way to set
/// the flag, and neither library has a global logging switch. So the calls into libsndfile
/// that can reach libmpg123 run with file descriptor 2 pointed at /dev/null: every open
/// (a file starting like MPEG goes to libmpg123, and so does a WAV whose format tag says
/// MPEG Layer III, so no look at the first bytes can tell beforehand) and every read of
/// MPEG-coded audio. libsndfile itself never prints (it logs into
/// a buffer, see ``SoundFileReader``), so nothing else is hidden; softmodem prints nothing
/// from inside these calls, and reads files on one thread.
enum LibraryNoise {
    /// Runs `body` with standard error discarded, then restores it.
    static func silenced<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        fflush(nil)  // fflush(3): anything still buffered goes out first
        let saved = dup(2)  // dup(2)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if saved >= 0 && null >= 0 { dup2(null, 2) }  // dup2(2)
        defer {
            fflush(nil)
            if saved >= 0 {
                dup2(saved, 2)
                close(saved)
            }
            if null >= 0 { close(null) }
        }
        return try body()
    }

    /// True when `header` (the first bytes of a file) starts like MPEG audio: an ID3v2 tag
    /// or a frame sync (11 set bits). Only for naming what is wrong with a file.
    static func looksLikeMPEG(_ header: [UInt8]) -> Bool {
        if header.count >= 3 && header[0] == 0x49 && header[1] == 0x44 && header[2] == 0x33 { return true }  // "ID3"
        return header.count >= 2 && header[0] == 0xFF && header[1] & 0xE0 == 0xE0
    }
}
