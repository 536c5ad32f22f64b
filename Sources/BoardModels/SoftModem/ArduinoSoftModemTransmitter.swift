/// The arms22 SoftModem library's transmitter on a 16 MHz Arduino, as the sound card hears
/// it (PROTOCOLS.md 1.3, 1.4).
///
/// Behaviour modelled from the library:
/// * `modulate(bit)` toggles pin D3 twice per tone cycle: low for `cycle - cycle/2` ticks,
///   high for `cycle/2` ticks, `cyclesPerBit` times, so the pin always returns to 0 V and
///   rests there between writes (DC, removed by the coupling capacitor).
/// * `write(bytes)` sends `(idle / BIT_PERIOD + 1)` preamble mark bits, computed in an 8-bit
///   variable (it wraps after about 209 ms idle at 1225 baud) and capped at 49, then each byte
///   as start + 8 data bits LSB first + stop, then one "push" mark bit.
/// * `clockError` scales every tick (a crystal or resonator off by that fraction), which moves
///   the bit rate and both tones together.
///
/// The 0/5 V pin goes through the 10k/4.7k divider (about 1.6 V peak to peak) and a 0.47 uF
/// coupling capacitor (a one-pole high-pass at ``OutputStage/couplingCorner``), then is
/// sampled. Each sample is the pin level averaged over its sampling interval (a box filter,
/// the simplest model of an ADC's anti-alias filter), so edges fall between samples exactly.
/// Output is in full-scale units: volts divided by ``OutputStage/voltsAtFullScale``.
/// Streaming: output is appended to the caller's array call by call; the state (pin, time,
/// filter) carries over, so splitting writes changes nothing.
public struct ArduinoSoftModemTransmitter: Sendable {
    /// The analog path from pin D3 to the sound card.
    public struct OutputStage: Sendable, Hashable {
        /// Supply voltage (pin high level).
        public var supplyVolts: Double = 5
        /// Divider ratio 4.7k / (10k + 4.7k).
        public var dividerRatio: Double = 4.7 / 14.7
        /// High-pass corner of the 0.47 uF capacitor into the microphone input (about
        /// 3.2 kOhm divider source plus a 2.2 kOhm bias resistor: 63 Hz).
        public var couplingCorner: Double = 1 / (2 * Double.pi * 0.47e-6 * 5_400)
        /// Volts at the sound card input that read as full scale (1.0 = 0 dBFS at 1 V peak).
        public var voltsAtFullScale: Double = 1.0

        /// The default stage: a 5 V pin, the 10k/4.7k divider, a 63 Hz coupling corner and 1 V at
        /// full scale.
        public init() {}
    }

    /// The library's timer constants for the profile being sent.
    public let timing: ArduinoSoftModemTiming
    /// Output sample rate in Hz.
    public let sampleRate: Double
    /// The board clock's fractional error; positive makes every tick longer, slowing the bit
    /// rate and lowering both tones.
    public let clockError: Double
    /// The analog path from the pin to the sound card.
    public let stage: OutputStage

    private let tickSeconds: Double
    private var pinHigh = false
    /// Time of the pin's current state start, and the sampler's position, in seconds.
    private var now: Double = 0
    private var sampleIndex: Int64 = 0
    private var partial: Double = 0  // integral of pin level over the current sample so far
    /// Microseconds (on the board's clock) since the last write ended, as `micros()` sees it.
    private var idleMicros: Int64
    private var coupling: OnePoleFilter

    /// A board that has been idle `initialIdleMicroseconds` since its last write (the first
    /// write's preamble is computed from it, wrapped to 8 bits and capped).
    public init(
        timing: ArduinoSoftModemTiming, sampleRate: Double, clockError: Double = 0,
        stage: OutputStage = OutputStage(), initialIdleMicroseconds: Int64 = 1_000_000
    ) {
        self.timing = timing
        self.sampleRate = sampleRate
        self.clockError = clockError
        self.stage = stage
        tickSeconds = Double(timing.tickMicroseconds) * 1e-6 * (1 + clockError)
        idleMicros = max(0, initialIdleMicroseconds)
        coupling = OnePoleFilter(.highPass, cornerFrequency: stage.couplingCorner, sampleRate: sampleRate)
    }

    /// The preamble length the next `write()` will send: `(idle / BIT_PERIOD + 1)` truncated to
    /// 8 bits, then capped at `MAX_CARRIR_BITS`. Anything from 0 to 49 at 1225 baud.
    public var nextPreambleBits: Int {
        let count = UInt8(truncatingIfNeeded: idleMicros / Int64(timing.bitMicroseconds) + 1)
        return min(Int(count), timing.maxPreambleBits)
    }

    /// `SoftModem::write(buffer, size)`: preamble, bytes, push bit. An empty buffer still
    /// sends the preamble and the push bit, as the library does.
    public mutating func write(_ bytes: [UInt8], into output: inout [Float]) {
        for _ in 0..<nextPreambleBits { modulate(true, &output) }
        for byte in bytes {
            modulate(false, &output)
            for bit in 0..<8 { modulate(byte >> bit & 1 == 1, &output) }
            modulate(true, &output)
        }
        modulate(true, &output)
        idleMicros = 0
    }

    /// Sends each byte with its own `write()` call, with `gapMicroseconds` of sketch time
    /// between calls (0: back to back, a 1-bit preamble each).
    public mutating func writeSingleBytes(_ bytes: [UInt8], gapMicroseconds: Int64 = 0, into output: inout [Float]) {
        for byte in bytes {
            write([byte], into: &output)
            idle(microseconds: gapMicroseconds, into: &output)
        }
    }

    /// The sketch does something else for `microseconds` (board clock): the pin rests at 0 V.
    public mutating func idle(microseconds: Int64, into output: inout [Float]) {
        guard microseconds > 0 else { return }
        advance(by: Double(microseconds) * 1e-6 * (1 + clockError), &output)
        idleMicros += microseconds
    }

    /// Writes the final partial sample (call once at the end).
    public mutating func flush(into output: inout [Float]) {
        let end = Double(sampleIndex + 1) / sampleRate
        if end > now { advance(by: end - now, &output) }
    }

    private mutating func modulate(_ mark: Bool, _ output: inout [Float]) {
        let cycle = mark ? timing.markCycleTicks : timing.spaceCycleTicks
        let count = mark ? timing.markCyclesPerBit : timing.spaceCyclesPerBit
        let second = cycle / 2
        let first = cycle - second
        for _ in 0..<count {
            advance(by: Double(first) * tickSeconds, &output)
            pinHigh.toggle()
            advance(by: Double(second) * tickSeconds, &output)
            pinHigh.toggle()
        }
    }

    /// Holds the current pin level for `duration` seconds, emitting every sample completed.
    private mutating func advance(by duration: Double, _ output: inout [Float]) {
        let end = now + duration
        let level = pinHigh ? stage.supplyVolts * stage.dividerRatio : 0
        let scale = 1 / stage.voltsAtFullScale
        while true {
            let sampleEnd = Double(sampleIndex + 1) / sampleRate
            if sampleEnd > end { break }
            partial += level * (sampleEnd - now)
            now = sampleEnd
            let volts = Float(partial * sampleRate)
            output.append(coupling.process(volts) * Float(scale))
            partial = 0
            sampleIndex += 1
        }
        partial += level * (end - now)
        now = end
    }
}
