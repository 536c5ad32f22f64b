#if canImport(Glibc)
    import Glibc
#endif

/// The width of the terminal on a file descriptor, for status lines that must not wrap.
enum TerminalWidth {
    /// Columns of the terminal on `descriptor` (TIOCGWINSZ), else `$COLUMNS`, else nil.
    /// Asked again at every call, so a resized window is followed.
    static func columns(of descriptor: Int32 = 2) -> Int? {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = getenv("COLUMNS"), let value = Int(String(cString: text)), value > 0 { return value }
        return nil
    }
}
