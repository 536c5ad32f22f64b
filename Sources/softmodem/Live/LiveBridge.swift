import ModemALSA
import ModemAudioIO
import ModemDSP
import ModemDecoding

/// A full-duplex bridge between a byte stream and the modem on one sound device: what
/// arrives on the input goes out as bursts (bytes that arrive together form one), and what
/// the receiver decodes, less the echo of our own transmission, goes to the output. `term`
/// runs it on stdin and stdout, `serial` on a pseudo-terminal.
///
/// Half-duplex boards and cable crosstalk echo what we send: bytes heard while our own burst
/// plays, and `echoGuard` seconds after, are dropped when they match what we sent.
struct LiveBridge {
    let audio: LiveAudioOptions
    let reporter: BurstReporter
    /// Seconds after our own audio has played that its echo may still arrive.
    let echoGuard: Double
    /// A capture that stops delivering audio is waited for (``CaptureReader``): `serial`
    /// outlives a sound server's restart; `term` ends with the reason.
    var waitsForDevice = false

    struct Counters {
        var received = 0
        var echoed = 0
    }

    /// Runs until a stop signal or the input's end; `tick` is called every pass (at least
    /// every 20 ms) and may end the session by returning false.
    func run<Factory: ObservedReceiverFactory, Maker: TransmitterMaker>(
        _ factory: Factory, _ maker: Maker, tail: Double, input: inout InputReader, output: some BridgePort,
        tick: () throws(CLIError) -> Bool = { true }
    ) throws(CLIError) -> (Counters, String) {
        StopSignal.install()
        var tx = try LiveTransmitter(maker, options: audio, keepOpen: true, verbose: reporter.verbose)
        var rx = try LiveDecoder(factory, options: audio, waitsForDevice: waitsForDevice, reporter: reporter)
        tx.start()
        rx.start()
        var echo = EchoFilter()
        var counters = Counters()
        let captureLatency = Double(rx.capture.latencyFrames) / Double(rx.capture.sampleRate)
        // Input waits here and goes out a chunk at a time, keeping a quarter of a second
        // queued (LiveTransmitter.hasRoom): the loop must keep reading the capture while a
        // long write plays, or its ring overflows and both the echo and the other side's
        // bytes are lost.
        var outgoing: [UInt8] = []
        var sent = 0
        var inputOpen = true
        while !StopSignal.isRequested && (inputOpen || sent < outgoing.count) {
            try tx.pump()
            if try !tick() { break }
            if inputOpen && outgoing.count - sent < LiveTransmitter<Maker.Transmitter>.chunkBytes {
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
                let end = min(sent + LiveTransmitter<Maker.Transmitter>.chunkBytes, outgoing.count)
                try outgoing.withUnsafeBufferPointer { b throws(CLIError) in
                    try tx.send(UnsafeBufferPointer(rebasing: b[sent..<end]))
                }
                // Our bytes are heard back once they have played and been captured; the
                // sound server's own buffering comes on top, hence the guard.
                echo.expect(
                    outgoing[sent..<end],
                    until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency
                        + tx.airSeconds(bytes: end - sent) + echoGuard)
                sent = end
                // Bytes that arrived together form one burst: it ends when they are all out.
                if sent == outgoing.count { try tx.endBurst() }
            }
            if !tx.isIdle {
                // Still sending (devices and servers may start late): the echo can come
                // until our audio has left the device and been captured.
                echo.extend(
                    until: monotonicSeconds() + tx.playback.queuedSeconds + captureLatency + tx.airSeconds(bytes: 1)
                        + echoGuard)
            }
            guard try rx.poll(timeout: 0.02) else { continue }
            for e in rx.events where e.kind == .byte {
                if echo.isEcho(e.value, at: rx.capturedAt(e)) {
                    counters.echoed += 1
                    continue
                }
                counters.received += 1
                try output.put(e.value)
            }
            try output.flush()
        }
        try tx.finish(tail: tail)
        rx.stop()
        return (counters, "rx \(rx.counters); tx \(tx.counters)")
    }
}
