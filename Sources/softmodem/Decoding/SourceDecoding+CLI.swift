import ModemAudioIO
import ModemDSP
import ModemDecoding

extension SourceDecoding {
    /// ``SourceDecoding/run(_:through:readError:handle:flush:)`` with read errors as the
    /// command line reports them.
    static func run<Receiver: ModemReceiver>(
        _ source: inout some SampleSource, through session: inout DecodeSession<Receiver>,
        handle: (ModemEvent) throws(CLIError) -> Void, flush: () throws(CLIError) -> Void = {}
    ) throws(CLIError) {
        try run(&source, through: &session, readError: { CLIError($0) }, handle: handle, flush: flush)
    }
}
