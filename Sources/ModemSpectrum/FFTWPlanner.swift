internal import CFFTW
import ModemDSP
import RealModule
import Synchronization

/// FFTW's planner is not thread-safe (only `fftwf_execute` is); every plan is made and
/// destroyed under this lock so analyzers can live on several threads at once.
let fftwPlannerLock = Mutex(())

/// Makes a plan under the planner lock. Only integers cross the lock (buffer addresses
/// captured by `make`, the plan's address back): the buffers belong to the caller alone.
func makePlan(_ make: @Sendable () -> fftwf_plan?) -> fftwf_plan {
    let address = fftwPlannerLock.withLock { _ in Int(bitPattern: make()) }
    return OpaquePointer(bitPattern: address)!
}

/// Makes a one-dimensional complex plan of `size` points (`direction` FFTW_FORWARD or
/// FFTW_BACKWARD, estimated, not measured) from the buffer at address `input` to the one at
/// `output`, under the planner lock.
func makeComplexPlan(size: Int, input: Int, output: Int, direction: Int32) -> fftwf_plan {
    makePlan {
        fftwf_plan_dft_1d(
            Int32(size), UnsafeMutablePointer(bitPattern: input), UnsafeMutablePointer(bitPattern: output),
            direction, UInt32(FFTW_ESTIMATE))
    }
}

/// Destroys a plan under the planner lock.
func destroyPlan(_ plan: fftwf_plan) {
    let address = Int(bitPattern: plan)
    fftwPlannerLock.withLock { _ in fftwf_destroy_plan(OpaquePointer(bitPattern: address)) }
}

/// A real-to-complex FFT of a fixed even size with its own aligned buffers: `input` holds
/// `size` samples, `execute()` leaves bins 0...size/2 in `output`.
///
/// Computed as a complex FFT of half the size over the samples taken in pairs (even ones as
/// real parts, odd ones as imaginary), then split into the spectra of the two halves and
/// recombined with one twiddle per bin. Why not `fftwf_plan_dft_r2c_1d`: FFTW's planner
/// spends about 10 M instructions (2-3 ms) on a real transform's plan even in
/// `FFTW_ESTIMATE` mode, and 0.5 M on a complex one; with two plans per analyzer that was a
/// quarter of every decode's start-up. The split costs a few operations per bin and matches
/// the real transform to float rounding (checked against a direct DFT in the tests).
final class RealFFT {
    let size: Int
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<fftwf_complex>
    /// The half-size complex transform of `input` read as size/2 complex values.
    private let pairs: ComplexFFT
    /// e^(-2 pi i k / size) for k in 0...size/2.
    private let twiddles: UnsafeMutablePointer<fftwf_complex>
    private let buffers = BufferPool()

    /// `size` must be even and at least 2.
    init(size: Int) {
        precondition(size >= 2 && size % 2 == 0, "RealFFT needs an even size")
        self.size = size
        let half = size / 2
        pairs = ComplexFFT(size: half, direction: .forward)
        // The pairs' input holds `size` floats, aligned by FFTW: the samples are written in place.
        input = UnsafeMutableRawPointer(pairs.input).assumingMemoryBound(to: Float.self)
        output = buffers.allocate(half + 1, repeating: (0, 0))
        twiddles = buffers.allocate(half + 1, repeating: (0, 0))
        for k in 0...half {
            let angle = -2 * Double.pi * Double(k) / Double(size)
            twiddles[k] = (Float(Double.cos(angle)), Float(Double.sin(angle)))
        }
    }

    /// Transforms `input` into `output` (bins 0...size/2). `input` is left as it was.
    func execute() {
        execute(bins: 0...size / 2)
    }

    /// Transforms `input` but computes only the output bins in `bins` (within 0...size/2):
    /// the half-size transform is whole either way, the split step costs per bin, and a
    /// caller that reads one band need not pay for the rest. Other bins keep old values.
    func execute(bins: ClosedRange<Int>) {
        pairs.execute()
        let pairs = self.pairs.output
        let half = size / 2
        for k in max(0, bins.lowerBound)...min(half, bins.upperBound) {
            // Z[k] = E[k] + i O[k] with E, O the spectra of the even and odd samples; both are
            // real signals' spectra, so conj(Z[half - k]) = E[k] - i O[k].
            let a = pairs[k == half ? 0 : k]
            let b = pairs[k == 0 ? 0 : half - k]
            let evenRe = 0.5 * (a.0 + b.0)
            let evenIm = 0.5 * (a.1 - b.1)
            let oddRe = 0.5 * (a.1 + b.1)
            let oddIm = -0.5 * (a.0 - b.0)
            let w = twiddles[k]
            output[k] = (evenRe + w.0 * oddRe - w.1 * oddIm, evenIm + w.0 * oddIm + w.1 * oddRe)
        }
    }

    /// |X_k|^2.
    @inline(__always)
    func power(_ k: Int) -> Float {
        let c = output[k]
        return c.0 * c.0 + c.1 * c.1
    }
}

/// A one-dimensional complex FFT of a fixed size (unnormalised) from its own aligned input
/// buffer to its own aligned output buffer.
final class ComplexFFT {
    enum Direction {
        case forward, backward
    }

    let size: Int
    let input: UnsafeMutablePointer<fftwf_complex>
    let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    init(size: Int, direction: Direction) {
        self.size = size
        let inBuffer = fftwf_alloc_complex(size)!
        let outBuffer = fftwf_alloc_complex(size)!
        inBuffer.initialize(repeating: (0, 0), count: size)
        input = inBuffer
        output = outBuffer
        plan = makeComplexPlan(
            size: size, input: Int(bitPattern: inBuffer), output: Int(bitPattern: outBuffer),
            direction: direction == .forward ? FFTW_FORWARD : FFTW_BACKWARD)
    }

    deinit {
        destroyPlan(plan)
        fftwf_free(input)
        fftwf_free(output)
    }

    func execute() { fftwf_execute(plan) }
}
