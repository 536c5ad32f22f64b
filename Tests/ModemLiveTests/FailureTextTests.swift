import CommandLineText
import ModemAudioIO
import ModemDecoding
import ModemFraming
import ModemLive
import Testing

/// The libraries' failures as the one line a command prints, and whose failure each is.
@Suite("Failure lines")
struct FailureTextTests {
    @Test("a device that does not answer names the sound servers to check; a busy one does not")
    func deviceLines() {
        let silent = FailureText.line(
            LiveError.device(AudioDeviceError(.noAnswer, device: "pulse", description: "pulse: no answer")))
        #expect(silent.kind == .runtime)
        #expect(silent.text.hasPrefix("pulse: no answer; is the sound server running"))
        let busy = FailureText.line(AudioDeviceError(.busy, device: "hw:1", description: "hw:1: busy"))
        #expect(busy == FailureLine(.runtime, "hw:1: busy"))
    }

    @Test("settings that could never work are the user's, with the option named")
    func usageLines() {
        let channel = FailureText.line(DecodeSessionError.noSuchChannel(input: "a.wav", channels: 1, requested: 2))
        #expect(channel == FailureLine(.usage, "a.wav has 1 channel; --channel 3 does not exist"))
        #expect(FailureText.line(AudioIOError.invalidParameters("rate 0")).kind == .usage)
        let power = FailureText.line(LiveError.transmitter(.powerAmplitude(2)))
        #expect(power == FailureLine(.usage, "--power-amplitude must be between 0 and 1 (full scale), not 2.0"))
    }

    @Test("a file without an audio header points to --raw; a lost packet to send --repeat")
    func hints() {
        #expect(
            FailureText.line(AudioIOError.noAudioHeader(path: "x.txt")).text.hasSuffix(
                "(for headerless audio use --raw)"))
        let header = FileHeader(name: "log.csv", size: 100, crc: 0xabc)
        let lost = FailureText.line(LinkRecording.ReadFailure.unfinished(.incomplete(header, receivedBytes: 64)))
        #expect(
            lost
                == FailureLine(
                    .runtime,
                    "log.csv: incomplete, 64 of 100 bytes (kept as log.csv.part); a packet was lost, try send --repeat")
        )
    }

    @Test("an error thrown untyped finds its line by type; another type has none")
    func anyError() {
        struct Other: Error {}
        let thrown: any Error = LiveError.stream(name: "stdin", operation: .reading, errno: 5)
        #expect(FailureText.line(for: thrown) == FailureLine(.runtime, "error reading stdin: Input/output error"))
        #expect(FailureText.line(for: Other()) == nil)
        let silent: any Error = InputProblem.silent(input: "quiet.wav")
        #expect(FailureText.line(for: silent) == FailureLine(.runtime, "quiet.wav is silent: every sample is zero"))
    }
}
