public import SystemPackage

/// A file or process operation that failed: what was being done, to which file or program,
/// and why.
///
/// The description is one line in the form the command line prints ("cannot open x.wav:
/// No such file or directory"); the fields let a program decide for itself.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was being done.
    public enum Operation: Equatable, Sendable {
        case open, read, rewind, write
        /// Renaming `subject` to this path.
        case rename(to: String)
        /// Running the program `subject`.
        case run
        /// Making the temporary file that carries a program's standard input or error.
        case runTemporaryFile
        /// Reading back such a temporary file.
        case readTemporaryFile
        /// Finding this program's own binary (`/proc/self/exe`).
        case findOwnBinary
    }

    /// Why it failed; its description is the system's text ("No such file or directory").
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The system's error number.
        case system(Errno)
        /// The path names a directory where a file was wanted.
        case isDirectory
        /// The file had already been closed.
        case closed
        /// The directory a file was to be made in does not exist.
        case noSuchDirectory(String)

        /// The reason alone, as the end of a one-line message.
        public var description: String {
            switch self {
            case .system(let errno): errno.description
            case .isDirectory: "is a directory"
            case .closed: "already closed"
            case .noSuchDirectory(let directory): "no such directory \(directory)"
            }
        }
    }

    /// What was being done.
    public let operation: Operation
    /// The file or program concerned (empty for ``Operation/findOwnBinary`` and
    /// ``Operation/readTemporaryFile``).
    public let subject: String
    /// Why it failed.
    public let reason: Reason

    /// A failure of `operation` on `subject` for `reason`.
    public init(_ operation: Operation, _ subject: String, _ reason: Reason) {
        self.operation = operation
        self.subject = subject
        self.reason = reason
    }

    /// The error for the current `errno`.
    static func current(_ operation: Operation, _ subject: String) -> SystemError {
        SystemError(operation, subject, .system(Errno(rawValue: currentErrno())))
    }

    /// One line: "cannot OPERATION SUBJECT: REASON".
    public var description: String {
        let why = reason.description
        switch operation {
        case .open: return "cannot open \(subject): \(why)"
        case .read: return "cannot read \(subject): \(why)"
        case .rewind: return "cannot rewind \(subject): \(why)"
        case .write: return "cannot write \(subject): \(why)"
        case .rename(let to): return "cannot rename \(subject) to \(to): \(why)"
        case .run: return "cannot run \(subject): \(why)"
        case .runTemporaryFile: return "cannot run \(subject): temporary file: \(why)"
        case .readTemporaryFile: return "cannot read a temporary file: \(why)"
        case .findOwnBinary: return "cannot find this program's binary in /proc/self/exe: \(why)"
        }
    }
}
