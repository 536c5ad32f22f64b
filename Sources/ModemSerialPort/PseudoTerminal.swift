import CPseudoTerminal
public import ModemLive
public import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// The pseudo-terminal `serial` offers programs as their serial port: the master side is
/// ours, the slave (`/dev/pts/N`, optionally behind a symlink) is the program's.
///
/// The bridge holds the slave open itself, in raw mode: the master then stays usable while
/// no program has the port open, so programs may close and reopen it at will, and a program
/// that opens it finds no line discipline (no echo, no line editing, no CR/LF mapping).
/// Bytes for a port nobody reads wait in the terminal's queue; when it is full the oldest
/// are dropped, as a UART drops bytes nobody reads, instead of stalling the modem.
public final class PseudoTerminal: BridgePort {
    /// The master side's descriptor, which the bridge reads the program's bytes from.
    public let master: Int32
    /// The port's path, `/dev/pts/N`.
    public let path: String
    private let slave: Int32
    private var pending: [UInt8] = []
    private var settings: termios
    /// Bytes discarded because nobody read the port and its queue was full.
    public private(set) var droppedBytes = 0

    /// Opens a new pseudo-terminal (`posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r`) and
    /// puts its slave side in raw mode (`cfmakeraw`, `tcsetattr`).
    public init() throws(PseudoTerminalError) {
        let fd = cpt_posix_openpt()
        guard fd >= 0 else { throw .open(Errno(rawValue: errno)) }
        var name = [CChar](repeating: 0, count: 256)
        guard cpt_grantpt(fd) == 0, cpt_unlockpt(fd) == 0, cpt_ptsname_r(fd, &name, name.count) == 0 else {
            let reason = Errno(rawValue: errno)
            close(fd)
            throw .setUp(reason)
        }
        let slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let held = open(slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard held >= 0 else {
            let reason = Errno(rawValue: errno)
            close(fd)
            throw .openPort(slavePath, reason)
        }
        var raw = termios()
        tcgetattr(held, &raw)
        cfmakeraw(&raw)
        tcsetattr(held, TCSANOW, &raw)
        // Writes must never block the modem loop: see ``put(_:)``.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        master = fd
        slave = held
        path = slavePath
        settings = raw
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Queues `byte` for the program; ``flush()`` writes it.
    public func put(_ byte: UInt8) throws(LiveError) { pending.append(byte) }

    /// Writes what is pending; when the port's queue is full (nobody reads it), its oldest
    /// bytes are discarded (`tcflush`) to make room.
    public func flush() throws(LiveError) {
        var written = 0
        var flushedOnce = false
        while written < pending.count {
            let n = pending[written...].withUnsafeBytes { write(master, $0.baseAddress!, $0.count) }
            if n > 0 {
                written += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN && !flushedOnce {
                var queued: Int32 = 0
                _ = ioctl(slave, UInt(FIONREAD), &queued)
                droppedBytes += Int(queued)
                tcflush(slave, TCIFLUSH)
                flushedOnce = true
                continue
            }
            if n < 0 && errno != EAGAIN {
                throw .stream(name: path, operation: .writing, errno: errno)
            }
            droppedBytes += pending.count - written
            break
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// What a program changed in the port's settings since the last call (speed,
    /// character size, parity, stop bits), or nil. They are accepted and ignored: the
    /// modem's profile decides what goes over the air.
    public func settingsChange() -> PortSettings? {
        var now = termios()
        guard tcgetattr(slave, &now) == 0 else { return nil }
        defer { settings = now }
        let before = PortSettings(settings)
        let after = PortSettings(now)
        return before == after ? nil : after
    }
}

/// A serial port's line settings as a program set them (`tcsetattr(3)`).
public struct PortSettings: Equatable, Sendable {
    /// Bits a second, when the speed is one of the common ones (300 to 115200).
    public var baud: Int?
    /// The `termios` speed code, for a speed not in that list.
    public var speedCode: UInt32
    /// 5 to 8.
    public var dataBits: Int
    /// The parity bit a program asked for.
    public var parity: Parity
    /// 1 or 2.
    public var stopBits: Int

    /// No parity bit, or an even or odd one.
    public enum Parity: Equatable, Sendable { case none, even, odd }

    init(_ t: termios) {
        var copy = t
        let speeds: [speed_t: Int] = [
            speed_t(B300): 300, speed_t(B1200): 1200, speed_t(B2400): 2400, speed_t(B4800): 4800, speed_t(B9600): 9600,
            speed_t(B19200): 19200, speed_t(B38400): 38400, speed_t(B57600): 57600, speed_t(B115200): 115200,
        ]
        speedCode = UInt32(cfgetospeed(&copy))
        baud = speeds[cfgetospeed(&copy)]
        switch t.c_cflag & tcflag_t(CSIZE) {
        case tcflag_t(CS5): dataBits = 5
        case tcflag_t(CS6): dataBits = 6
        case tcflag_t(CS7): dataBits = 7
        default: dataBits = 8
        }
        parity = t.c_cflag & tcflag_t(PARENB) == 0 ? .none : (t.c_cflag & tcflag_t(PARODD) != 0 ? .odd : .even)
        stopBits = t.c_cflag & tcflag_t(CSTOPB) != 0 ? 2 : 1
    }
}

/// Why a pseudo-terminal could not be offered.
public enum PseudoTerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `posix_openpt(3)` failed.
    case open(Errno)
    /// `grantpt(3)`, `unlockpt(3)` or `ptsname_r(3)` failed.
    case setUp(Errno)
    /// The port's own side (its path) could not be opened.
    case openPort(String, Errno)

    /// One line naming the call that failed and the system's reason.
    public var description: String {
        switch self {
        case .open(let e): return "cannot open a pseudo-terminal: \(e)"
        case .setUp(let e): return "cannot set up a pseudo-terminal: \(e)"
        case .openPort(let path, let e): return "cannot open \(path): \(e)"
        }
    }
}
