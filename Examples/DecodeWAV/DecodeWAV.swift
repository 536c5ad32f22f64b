// An example of softmodem as a library: decode a recording to bytes with no command-line
// code at all. It opens the file (ModemAudioIO), decodes it as `softmodem decode` does with
// no options (SourceDecoding.decode: each burst's modem detected by AutoSettings, the
// standard observers of ObserverPolicy) and writes the decoded bytes to stdout. What it
// cannot prove it does not print: the session's notes say why, and the exit status is 1.
//
//     swift run -c release decode-wav samples/hello-softmodem-1225.wav
import ModemAudioIO
import ModemDSP
import ModemDecoding
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

@main
struct DecodeWAV {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 2 else { fail("usage: decode-wav FILE.wav") }
        do {
            let (bytes, notes) = try decode(arguments[1])
            var out = ByteSink()
            try out.write(bytes)
            try out.flush()
            if let note = notes.first { fail("\(arguments[1]): \(words(note))") }
        } catch {
            fail("\(error)")
        }
    }

    /// The bytes of every burst in the file at `path`, and the session's notes (why nothing,
    /// or not all, was printed). A file with no audio, or only silence, is an error.
    static func decode(_ path: String) throws -> (bytes: [UInt8], notes: [DecodeNote]) {
        var source = try SoundFileReader(path: path)
        var bytes: [UInt8] = []
        func keep(_ e: ModemEvent) { if e.kind == .byte { bytes.append(e.value) } }
        let decoded = try SourceDecoding.decode(
            &source, with: AutoSettings(), channel: nil, policy: .input(verbose: false),
            sessionError: { $0 as any Error }, readError: { $0 as any Error }, handle: keep)
        if let problem = decoded.problem { throw problem }
        return (bytes, decoded.notes)
    }

    /// This program's words for a note: the library hands over values (softmodem's command
    /// line says more, with the options that would help).
    static func words(_ note: DecodeNote) -> String {
        switch note {
        case .nothingDecoded(let diagnosis):
            switch diagnosis {
            case .silence: "nothing decoded: the input is silent"
            case .modem(let signature): "nothing decoded from \(signature.summary)"
            default: "nothing decoded: no modem signal"
            }
        case .markUnproven(let bursts, _): "\(bursts) burst(s) not printed: which tone is mark is unproven"
        case .formatUnproven(let bursts, _): "\(bursts) burst(s) not printed: 7 data bits or 8 is unproven"
        case .profileMismatch(let pinned, let signature):
            "the signal is not \(pinned.name) but looks like \(signature.summary)"
        case .hiJackMismatch(let pinned, let signal): "the signal is \(signal.name), not \(pinned.name)"
        case .channelChosen, .retuned, .detected: "\(note)"
        }
    }

    static func fail(_ line: String) -> Never {
        var err = ByteSink(descriptor: .standardError, name: "stderr")
        try? err.write(Array("decode-wav: \(line)\n".utf8))
        try? err.flush()
        exit(1)
    }
}
