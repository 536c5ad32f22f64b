extension LiveTransmitter {
    /// Sends what `input` delivers until it ends or the context's stop flag is set: `tx`
    /// reading standard input.
    ///
    /// Bytes that arrive together go into the current burst; a pause of `pause` seconds on
    /// the context's clock with a burst open closes it with its postamble, so the board sees
    /// the end of a line typed by hand instead of waiting for more. Between reads (each
    /// waits up to `pollMilliseconds`) the resting line is kept fed (``pump()``), so
    /// HiJack's power tone never stops. The burst still open at the end is left for
    /// ``finish(tail:)``. Start the device (``start()``) first.
    public mutating func send(
        from input: inout some ByteInput, pause: Double = 0.1, pollMilliseconds: Int32 = 20
    ) throws(LiveError) {
        let clock = context.clock
        var lastInput = clock.now()
        var burstOpen = false
        while !context.stop.isRequested {
            try pump()
            switch try input.read(waiting: pollMilliseconds) {
            case .end:
                return
            case .nothing:
                if burstOpen && clock.now() - lastInput >= pause {
                    try endBurst()
                    burstOpen = false
                }
            case .bytes(let n):
                try input.buffer.withUnsafeBufferPointer { b throws(LiveError) in
                    try send(UnsafeBufferPointer(rebasing: b[0..<n]))
                }
                lastInput = clock.now()
                burstOpen = true
            }
        }
    }
}
