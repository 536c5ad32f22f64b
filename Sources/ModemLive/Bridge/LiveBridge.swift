public import ModemDecoding

/// A full-duplex bridge between a byte stream and the modem on one sound device: what
/// arrives on the input goes out as bursts (bytes that arrive together form one), and what
/// the receiver decodes, less the echo of our own transmission, goes to the output.
///
/// Half-duplex boards and cable crosstalk echo what we send: bytes heard while our own burst
/// plays, and ``echoGuard`` seconds after, are dropped when they match what we sent.
public struct LiveBridge: DuplexLoop {
    /// The devices, clock, stop request and notices the bridge runs on.
    public let context: LiveContext
    /// The decoding report (and, through its verbosity, the observers).
    public let reporter: any DecodeReporting
    /// Seconds after our own audio has played that its echo may still arrive.
    public let echoGuard: Double
    /// A device that stops delivering audio or goes away is waited for (``CaptureReader``,
    /// ``LiveTransmitter``) instead of ending the bridge.
    public var waitsForDevice = false

    /// A bridge that ends when a device goes away, unless ``waitsForDevice`` is set after.
    public init(context: LiveContext, reporter: any DecodeReporting, echoGuard: Double) {
        self.context = context
        self.reporter = reporter
        self.echoGuard = echoGuard
    }

    /// Sends the input's bytes as bursts and writes what the receiver decodes, less our echo, to
    /// `output`, until a stop request, `tick` returning false, or the input's end once all of it is
    /// sent; then `tail` seconds of resting line play. Throws when a device, the input or the output fails.
    public func run<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, tail: Double, input: inout some ByteInput, output: some BridgePort,
        tick: () -> Bool
    ) throws(LiveError) -> BridgeReport {
        let clock = context.clock
        var tx = try LiveTransmitter(maker, context: context, keepOpen: true)
        tx.waitsForDevice = waitsForDevice
        var rx = try LiveDecoder(factory, context: context, waitsForDevice: waitsForDevice, reporter: reporter)
        tx.start()
        rx.start()
        var echo = EchoFilter()
        var report = BridgeReport()
        let captureLatency = Double(rx.capture.latencyFrames) / rx.sampleRate
        // Input waits here and goes out a chunk at a time, keeping a quarter of a second
        // queued (LiveTransmitter.hasRoom): the loop must keep reading the capture while a
        // long write plays, or its ring overflows and both the echo and the other side's
        // bytes are lost.
        let chunk = tx.feedBytes
        var outgoing: [UInt8] = []
        var sent = 0
        var inputOpen = true
        while !context.stop.isRequested && (inputOpen || sent < outgoing.count) {
            try tx.pump()
            if !tick() { break }
            if inputOpen && outgoing.count - sent < chunk {
                switch try input.read(waiting: 0) {
                case .end:
                    inputOpen = false
                case .nothing:
                    break
                case .bytes(let got):
                    if sent == outgoing.count {
                        outgoing.removeAll(keepingCapacity: true)
                        sent = 0
                    }
                    outgoing += input.buffer[0..<got]
                }
            }
            while sent < outgoing.count && tx.hasRoom {
                let end = min(sent + chunk, outgoing.count)
                try outgoing.withUnsafeBufferPointer { b throws(LiveError) in
                    try tx.send(UnsafeBufferPointer(rebasing: b[sent..<end]))
                }
                // Our bytes are heard back once they have played and been captured; the
                // sound server's own buffering comes on top, hence the guard.
                echo.expect(
                    outgoing[sent..<end],
                    until: clock.now() + tx.playback.queuedSeconds + captureLatency + tx.airSeconds(bytes: end - sent)
                        + echoGuard)
                sent = end
                // Bytes that arrived together form one burst: it ends when they are all out.
                if sent == outgoing.count { try tx.endBurst() }
            }
            if !tx.isIdle {
                // Still sending (devices and servers may start late): the echo can come
                // until our audio has left the device and been captured.
                echo.extend(
                    until: clock.now() + tx.playback.queuedSeconds + captureLatency + tx.airSeconds(bytes: 1)
                        + echoGuard)
            }
            guard try rx.poll(timeout: 0.02) else { continue }
            for e in rx.events where e.kind == .byte {
                if echo.isEcho(e.value, at: rx.capturedAt(e)) {
                    report.echoed += 1
                    continue
                }
                report.received += 1
                try output.put(e.value)
            }
            try output.flush()
        }
        try tx.finish(tail: tail)
        rx.stop()
        report.decoded = rx.stats
        report.capture = rx.captureCounters
        report.playback = tx.counters
        return report
    }
}
