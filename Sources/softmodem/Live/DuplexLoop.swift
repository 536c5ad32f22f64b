import ModemDSP
import ModemDecoding

/// The loop of a full-duplex command (term, serial) once the receiver and the transmitter
/// are chosen: raw bytes (``LiveBridge``) or reliable-link packets (``ReliableBridge``).
protocol DuplexLoop {
    /// Runs until a stop signal or the input's end; `tick` is called every pass (at least
    /// every 20 ms) and may end the session by returning false. Returns the counters and
    /// the `-v` line about the devices.
    func run<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, tail: Double, input: inout InputReader, output: some BridgePort,
        tick: () throws(CLIError) -> Bool
    ) throws(CLIError) -> (LiveBridge.Counters, String)
}

extension LiveBridge: DuplexLoop {}
