public import ModemAudioIO
public import ModemDSP
import ModemDecoding
import ModemFraming

/// Which receiver `decode` would build: a pinned FSK profile, detection (its default), or
/// HiJack.
public enum FuzzModem: Sendable {
    case fsk(ModemProfile)
    case auto
    case hijack

    /// Every kind, the FSK ones once per built-in profile.
    public static let all: [FuzzModem] = [.auto, .hijack] + ModemProfile.builtIn.map { .fsk($0) }
}

/// `decode -v --protocol` on a source, through the command line's own decode session: its
/// channel choice, its observers as `decode` plugs them in (the signal check and the tone
/// adapter always, the spectrum and detection reports as with `-v`), and the decoded bytes
/// parsed as `protocol`.
///
/// Errors are the expected outcome for most inputs and are ignored; only a crash, a trap
/// or a sanitizer report is a finding.
public func decodeLikeCLI(_ source: inout some SampleSource, modem: FuzzModem, channel: Int?, protocol: ByteProtocol) {
    switch modem {
    case .fsk(let profile):
        let settings = FSKSettings(profile: profile)
        decode(&source, settings, channel: channel, protocol: `protocol`) { rate in
            [
                SignalCheckObserver(sampleRate: rate, pinned: profile),
                ToneAdapterObserver(settings: settings, sampleRate: rate, reporter: Verbose()),
                SpectrumObserver(settings: settings, sampleRate: rate),
            ]
        }
    case .auto:
        decode(&source, AutoSettings(), channel: channel, protocol: `protocol`) { rate in
            [SignalCheckObserver(sampleRate: rate, pinned: nil), DetectionObserver(reporter: Verbose())]
        }
    case .hijack:
        decode(&source, HiJackSettings(), channel: channel, protocol: `protocol`) { rate in
            [SignalCheckObserver(sampleRate: rate, pinned: nil)]
        }
    }
}

/// A bound on the work per input: a header may claim hours of audio.
private let frameLimit: Int64 = 4_000_000

private func decode<Factory: ModemReceiverFactory>(
    _ source: inout some SampleSource, _ factory: Factory, channel: Int?, protocol: ByteProtocol,
    observers: (Double) -> [any DecodeObserver<Factory.Receiver>]
) {
    let channels = source.channels
    guard channels > 0, channels <= 64 else { return }
    let rate = source.sampleRate
    guard
        var session = try? DecodeSession(
            factory, sampleRate: rate, channels: channels, channel: channel, name: "fuzz",
            reporter: Verbose(), observers: { observers(rate) })
    else { return }  // a rate the modem cannot run at: decode refuses too
    var parser = `protocol`.makeParser()
    var time = 0.0
    func handle(_ e: ModemEvent) {
        guard e.kind == .byte else { return }
        time = Double(e.endSample) / rate
        _ = parser.pushAny(e.value, at: time)
    }
    try? SourceDecoding.run(
        &source, through: &session, frameLimit: frameLimit, readError: { (e: AudioIOError) in e },
        handle: { (e: ModemEvent) throws(AudioIOError) in handle(e) })
    _ = parser.advanceAny(to: time + 10)
    _ = session.notes
    if let reader = source as? SoundFileReader { _ = reader.truncation?.description }
}

/// `-v` and `-vv` as the command line asks for them; the text is made and dropped.
private struct Verbose: DecodeReporting {
    var verbose: Bool { true }
    var trace: Bool { true }
    func trace(_ event: ModemEvent, rate: Double) { _ = "\(event.kind) \(event.value) \(event.startSample)" }
    func burst(_ burst: BurstTracker.Summary, rate: Double, observations: [BurstObservation]) {
        _ = observations.count
    }
    func note(_ note: DecodeNote) { _ = note }
}
