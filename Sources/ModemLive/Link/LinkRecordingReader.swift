public import ModemAudioIO
import ModemDSP
public import ModemDecoding
public import ModemFraming

extension LinkRecording {
    /// Why files could not be taken back from recordings.
    public enum ReadFailure: Error, Sendable {
        /// The modem cannot run at a recording's rate, or the channel does not exist.
        case session(DecodeSessionError)
        /// A recording could not be read.
        case audio(AudioIOError)
        /// A file could not be written, or the stream broke the file transfer's rules.
        case store(LiveError)
        /// The recordings ended without whole files: one left incomplete, or none at all.
        case unfinished(FileAssembly.Failure)
    }

    /// Takes back the files of recordings made with ``write(file:to:_:)``: every byte
    /// decoded goes to a ``ReliableReceiver``, and what it delivers to the files of a
    /// ``FileStore``. Recordings are read one after another, since a
    /// transfer may span them.
    ///
    /// Nothing is acknowledged (a recording has no return channel), so packets recorded more
    /// than once (``Settings/repeats``) are what makes up for damaged ones: the receiver
    /// keeps the first good copy. The link checks every packet itself, so no signal check holds characters
    /// back; senders off the profile's tones are followed.
    public struct Reader<Factory: ObservedReceiverFactory> {
        /// The receiver every recording is decoded with.
        public let factory: Factory
        let store: any FileStore
        let reporter: any DecodeReporting
        var receiver: ReliableReceiver
        var files = FileAssembly()
        var current: FileHeader?

        /// A reader that decodes with `factory`'s receiver and writes the files to `store`;
        /// `reporter` gets decoding's lines (a quiet one by default).
        public init(factory: Factory, store: any FileStore, reporter: any DecodeReporting = SilentReporter()) {
            self.factory = factory
            self.store = store
            self.reporter = reporter
            receiver = ReliableReceiver(configuration: LinkConfiguration(baud: factory.nominalBaud))
        }

        /// The link's counts so far: payload bytes, messages, damaged packets, duplicates.
        public var statistics: LinkStatistics { receiver.statistics }

        /// Decodes `source` to its end, calling `completed` for each file made whole in it.
        public mutating func read(_ source: inout some SampleSource, completed: (FileHeader) -> Void = { _ in })
            throws(ReadFailure)
        {
            let rate = source.sampleRate
            let policy = ObserverPolicy(followsTones: true, measuresSpectrum: false, checksSignal: false)
            func handle(_ e: ModemEvent) throws(ReadFailure) {
                guard e.kind == .byte else { return }
                for d in receiver.receive(CollectionOfOne(e.value), at: Double(e.endSample) / rate) {
                    do throws(LiveError) {
                        if let h = try store.take(d, through: &files, current: &current) { completed(h) }
                    } catch {
                        throw .store(error)
                    }
                }
            }
            _ = try SourceDecoding.decode(
                &source, with: factory, channel: nil, policy: policy, reporter: reporter,
                sessionError: { ReadFailure.session($0) }, readError: { ReadFailure.audio($0) }, handle: handle)
        }

        /// Ends the reading: a file still in progress is abandoned (its `.part` kept), and
        /// the failure says whether the recordings held whole files.
        public mutating func finish() throws(ReadFailure) {
            abandon()
            do { try files.finish() } catch { throw .unfinished(error) }
        }

        /// Abandons a file in progress, if any (on an error, before ``finish()``).
        public mutating func abandon() {
            if let current { store.abandon(current) }
            current = nil
        }
    }
}
