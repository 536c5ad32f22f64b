import Foundation
import Glibc

/// A pseudo-terminal pair: the child gets the slave side as its stdin and stdout (so
/// `isatty` holds and the line discipline echoes typing, as in a real terminal); the test
/// types into and reads from the master side.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32
    private(set) var output = Data()

    init() throws {
        // posix_openpt & co. are hidden behind _XOPEN_SOURCE in Swift's Glibc, so do what
        // they do: open the multiplexer, unlock the pair (TIOCSPTLCK), ask its number (TIOCGPTN).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw POSIXError(.ENXIO)
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENXIO) }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(master)
        close(slave)
    }

    /// Sets the window's width, as a resized terminal window would.
    func setColumns(_ columns: Int) {
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    /// Types `text` as a user would.
    func type(_ text: String) {
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { write(master, $0.baseAddress!, $0.count) }
    }

    /// Everything the child wrote (and the terminal echoed) so far.
    func drain() -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress!, $0.count) }
            if n <= 0 { break }
            output.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
