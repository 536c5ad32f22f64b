import ArgumentParser
import CommandLineText
import ModemLive
import ModemSerialPort

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem serial`: the modem as a serial port, for programs written for one.
struct SerialCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serial",
        abstract: "Offer the modem as a serial port: a pseudo-terminal bridged to a sound device.",
        discussion: """
            Prints the port's path (/dev/pts/N) on stderr; --link makes a symlink to it. \
            Bytes a program writes to the port go out as modem audio (writes that arrive \
            together form one burst, on a device kept open); decoded bytes are written to \
            the port. The port is raw (no echo, no line editing); speed and character \
            settings a program makes are accepted and ignored (-v says so), since the \
            profile decides what goes over the air. The echo of our own transmission is \
            suppressed as in `term`. Programs may close and reopen the port; SIGINT or \
            SIGTERM stops the bridge and removes the symlink. With --reliable the bytes \
            travel as reliable-link packets: they arrive exactly once and in order, or the \
            bridge reports the loss (the far end runs `serial --reliable` or the board's \
            reliable-link sketch). --profile auto finds the far end's profile when \
            receiving and sends with --send-profile.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup var duplex: DuplexOptions

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Also offer the port under this path, as a symlink (e.g. /tmp/ttyAudio0).", valueName: "path"))
    var link: String?

    func run() throws {
        let port: PseudoTerminal
        do { port = try PseudoTerminal() } catch { throw CLIError.runtime(error.description) }
        if let link { try makeLink(link, to: port.path) }
        defer { if let link { unlink(link) } }
        var input = DescriptorInput(descriptor: port.master, name: port.path, survivesHangup: true)
        let verbose = verbosity.verbose
        var announced = false
        let report = try duplex.run(
            modem, audio: audio, verbosity: verbosity, waitsForDevice: true, input: &input, output: port
        ) {
            // Said once the devices are open, so a device that fails leaves only its error.
            if !announced {
                Diagnostics.info(
                    "softmodem serial: \(link.map { "\($0) -> " } ?? "")\(port.path) on \(audio.device), \(duplex.describe(modem))"
                )
                announced = true
            }
            if verbose, let change = port.settingsChange() {
                Diagnostics.info(
                    "\(port.path): a program set \(change.text): ignored, the profile decides what is sent")
            }
            return true
        }
        if verbose {
            Diagnostics.info(
                "serial: \(report.received) bytes received, "
                    + (duplex.reliable ? "" : "\(report.echoed) echoed bytes suppressed, ")
                    + "\(port.droppedBytes) bytes dropped with nobody reading the port; \(LiveText.bridge(report))")
        }
    }

    /// Points `path` at the port, replacing an earlier symlink (a bridge that was killed)
    /// but never a file or directory.
    private func makeLink(_ path: String, to target: String) throws(CLIError) {
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFLNK else {
                throw .runtime("\(path) exists and is not a symlink; not replacing it")
            }
            unlink(path)
        }
        guard symlink(target, path) == 0 else {
            throw .runtime("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }
}

extension PortSettings {
    /// "9600 baud, 8N1".
    var text: String {
        let speed = baud.map { "\($0) baud" } ?? "speed code \(speedCode)"
        let letter = parity == .none ? "N" : (parity == .odd ? "O" : "E")
        return "\(speed), \(dataBits)\(letter)\(stopBits)"
    }
}
