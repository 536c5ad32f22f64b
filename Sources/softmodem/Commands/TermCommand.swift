import ArgumentParser
import CommandLineText
import ModemALSA
import ModemAudioIO
import ModemDSP
import ModemLive

#if canImport(Glibc)
    import Glibc
#endif

/// `softmodem term`: an interactive full-duplex terminal over one sound device.
struct TermCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "term",
        abstract: "Interactive terminal: typed lines are sent, received bytes are printed.",
        discussion: """
            Like a serial console for the boards. Each line typed (with its newline) goes \
            out as one burst on a stream kept open; bytes heard while our own burst is \
            playing and shortly after are dropped when they match what we sent, because \
            half-duplex boards and cable crosstalk echo them back; anything else is printed. \
            Ctrl-D or SIGINT ends the session.
            """)

    @OptionGroup var modem: ProfileOptions
    @OptionGroup var audio: LiveAudioOptions
    @OptionGroup var verbosity: VerbosityOptions
    @OptionGroup var duplex: DuplexOptions

    func run() throws {
        if Diagnostics.stderrIsTerminal {
            Diagnostics.info("softmodem term on \(audio.device), \(duplex.describe(modem)): type lines, Ctrl-D to quit")
        }
        var input = DescriptorInput()
        let report = try duplex.run(
            modem, audio: audio, verbosity: verbosity, input: &input, output: StandardOutputPort())
        if verbosity.verbose {
            Diagnostics.info(
                "term: \(report.received) bytes received"
                    + (duplex.reliable ? "; " : ", \(report.echoed) echoed bytes suppressed; ")
                    + LiveText.bridge(report))
        }
    }
}
