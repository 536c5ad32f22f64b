public import ModemDSP
public import ModemSpectrum

/// The level meter on a live capture (`level`): reads the device and measures each interval,
/// on the context's clock and stop flag.
public struct LiveLevelMeter {
    /// The meter: the latest reading and how many were made.
    public let meter: LevelMeter
    private var reader: CaptureReader

    /// Opens the context's capture and a meter for `profile` at the rate the device granted.
    /// A profile that cannot run at that rate (tones above its Nyquist frequency) stops the
    /// capture and is thrown as ``LiveError/decoding(_:)``, naming the device.
    public init(profile: ModemProfile, context: LiveContext) throws(LiveError) {
        reader = try CaptureReader(context: context)
        do {
            try profile.validate(sampleRate: reader.sampleRate)
        } catch {
            reader.capture.stop()
            throw .decoding(.configuration(input: context.device, error))
        }
        meter = LevelMeter(profile: profile, sampleRate: reader.sampleRate)
    }

    /// Frames per second the device granted.
    public var sampleRate: Double { reader.sampleRate }

    /// Captures and measures until the context's stop flag is set or `duration` seconds pass
    /// on its clock; `reading` gets the meter after each read that completed a reading. The
    /// capture starts here and is stopped at the end, also when a read fails (a device that
    /// went away), whose error is rethrown.
    public mutating func run(
        for duration: Double?, pollTimeout: Double = 0.1, reading: (LevelMeter) -> Void
    ) throws(LiveError) {
        let capture = reader.capture
        let clock = reader.context.clock
        let stop = reader.context.stop
        capture.start()
        defer { capture.stop() }
        let started = clock.now()
        var shown = meter.readingCount
        while !stop.isRequested {
            if let duration, clock.now() - started >= duration { return }
            let frames = try reader.read(timeout: pollTimeout).frames
            reader.buffer.withUnsafeBufferPointer { meter.process(UnsafeBufferPointer(rebasing: $0[0..<frames])) }
            guard meter.readingCount > shown else { continue }
            shown = meter.readingCount
            reading(meter)
        }
    }
}
