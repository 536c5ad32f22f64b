import ModemDSP

/// A spectrogram of a whole recording with bounded memory, for `inspect`'s picture of the
/// band around the tones (FFTW).
///
/// Hann-windowed frames of ``frameLength`` samples (about 20 Hz bins), a quarter frame
/// apart. Each
/// column averages the power of ``framesPerColumn`` frames; when ``maxColumns`` columns are
/// full, neighbours are merged pairwise and each column then covers twice as many frames, so
/// any length of input fits. Only bins up to ``maxFrequency`` are kept per column; the
/// average spectrum of the whole input is kept for every bin up to it too (hum, DC).
/// Streaming: chunks of any size. NaN and infinite samples read as 0.
public final class Spectrogram {
    /// Samples per second of the input, in Hz.
    public let sampleRate: Double
    /// Samples per frame: the smallest power of two (256-16384) covering a twentieth of a second,
    /// so bins are at most 20 Hz wide.
    public let frameLength: Int
    /// Highest frequency kept per column, in Hz (clamped to the Nyquist frequency).
    public let maxFrequency: Double
    /// Columns kept before neighbours are merged pairwise (even, at least 2).
    public let maxColumns: Int
    /// Kept bins per column: 0 ..< bins, each ``binHz`` wide.
    public let bins: Int
    /// Width of one bin, in Hz.
    public var binHz: Double { sampleRate / Double(frameLength) }
    /// Frames averaged per column (doubles as columns merge).
    public private(set) var framesPerColumn = 1
    /// Mean power per bin (linear, a full-scale sine's bin reads about 0.5), column by column.
    public private(set) var columns: [[Float]] = []
    /// Mean power per bin over every frame.
    public var averageSpectrum: [Double] {
        (0..<bins).map { frames > 0 ? total[$0] / Double(frames) : 0 }
    }
    /// Frames analysed so far.
    public private(set) var frames = 0

    private let fft: RealFFT
    private let scale: Float
    // Raw buffers from the pool, not array properties (see ``BufferPool``): the loops touch
    // them per sample.
    private let buffers = BufferPool()
    private let window: UnsafeMutablePointer<Float>
    /// The last `frameLength` samples, a ring indexed by `filled & (frameLength - 1)`.
    private let history: UnsafeMutablePointer<Float>
    private var filled = 0
    /// The open column's summed power per bin, and every frame's.
    private let open: UnsafeMutablePointer<Float>
    private let total: UnsafeMutablePointer<Double>
    private var openFrames = 0

    /// - Parameters:
    ///   - maxFrequency: highest frequency kept (clamped to the Nyquist frequency).
    ///   - maxColumns: columns kept at most (even, at least 2).
    public init(sampleRate: Double, maxFrequency: Double, maxColumns: Int = 800) {
        self.sampleRate = sampleRate
        var n = 256
        while Double(n) < sampleRate / 20 && n < 16_384 { n *= 2 }
        frameLength = n
        self.maxFrequency = min(maxFrequency, sampleRate / 2)
        self.maxColumns = max(2, maxColumns & ~1)
        bins = min(n / 2, Int(self.maxFrequency / (sampleRate / Double(n))) + 1)
        fft = RealFFT(size: n)
        let (window, energy) = buffers.hannWindow(n)
        self.window = window
        // A full-scale sine's bin then reads about its mean power, 0.5.
        scale = Float(2 / (energy * Double(n)))
        history = buffers.zeroed(n)
        open = buffers.zeroed(bins)
        total = buffers.zeroed(bins)
    }

    /// Seconds of input per column.
    public var columnSeconds: Double { Double(framesPerColumn * frameLength / 4) / sampleRate }

    /// Feeds samples (NaN and infinities read as 0), transforming a frame every quarter frame
    /// once a whole one is in.
    public func process(_ samples: UnsafeBufferPointer<Float>) {
        let mask = frameLength - 1
        let hop = frameLength / 4
        let history = self.history
        let window = self.window
        let input = fft.input
        var filled = self.filled
        for x in samples {
            history[filled & mask] = x.isFinite ? x : 0
            filled += 1
            if filled >= frameLength && filled & (hop - 1) == 0 {
                // The oldest sample sits at `filled & mask`.
                let first = filled & mask
                for i in 0..<frameLength { input[i] = history[(first + i) & mask] * window[i] }
                transform()
            }
        }
        self.filled = filled
    }

    /// Closes the partly filled column (call once, at the end).
    public func finish() {
        if openFrames > 0 { closeColumn() }
    }

    private func transform() {
        fft.execute(bins: 0...(bins - 1))
        for k in 0..<bins {
            let p = fft.power(k) * scale
            open[k] += p
            total[k] += Double(p)
        }
        frames += 1
        openFrames += 1
        if openFrames == framesPerColumn { closeColumn() }
    }

    private func closeColumn() {
        let n = Float(openFrames)
        columns.append((0..<bins).map { open[$0] / n })
        for k in 0..<bins { open[k] = 0 }
        openFrames = 0
        if columns.count == maxColumns {
            var merged: [[Float]] = []
            merged.reserveCapacity(maxColumns / 2)
            for c in stride(from: 0, to: maxColumns, by: 2) {
                merged.append(zip(columns[c], columns[c + 1]).map { ($0 + $1) / 2 })
            }
            columns = merged
            framesPerColumn *= 2
        }
    }
}
