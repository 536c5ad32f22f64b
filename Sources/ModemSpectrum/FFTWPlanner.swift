internal import CFFTW
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

/// Destroys a plan under the planner lock.
func destroyPlan(_ plan: fftwf_plan) {
    let address = Int(bitPattern: plan)
    fftwPlannerLock.withLock { _ in fftwf_destroy_plan(OpaquePointer(bitPattern: address)) }
}

/// A real-to-complex FFT of a fixed size with its own aligned buffers.
final class RealFFT {
    let size: Int
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    /// `size` must be at least 2.
    init(size: Int) {
        self.size = size
        let inBuffer = fftwf_alloc_real(size)!
        let outBuffer = fftwf_alloc_complex(size / 2 + 1)!
        inBuffer.initialize(repeating: 0, count: size)
        input = inBuffer
        output = outBuffer
        let inAddress = Int(bitPattern: inBuffer), outAddress = Int(bitPattern: outBuffer)
        plan = makePlan {
            fftwf_plan_dft_r2c_1d(Int32(size), UnsafeMutablePointer(bitPattern: inAddress),
                                  UnsafeMutablePointer(bitPattern: outAddress), UInt32(FFTW_ESTIMATE))
        }
    }

    deinit {
        destroyPlan(plan)
        fftwf_free(input)
        fftwf_free(output)
    }

    /// Transforms `input` into `output` (bins 0...size/2).
    func execute() { fftwf_execute(plan) }

    /// |X_k|^2.
    @inline(__always)
    func power(_ k: Int) -> Float {
        let c = output[k]
        return c.0 * c.0 + c.1 * c.1
    }
}

/// A complex-to-complex inverse FFT of a fixed size with its own aligned buffers.
final class ComplexInverseFFT {
    let size: Int
    let input: UnsafeMutablePointer<fftwf_complex>
    let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    init(size: Int) {
        self.size = size
        let inBuffer = fftwf_alloc_complex(size)!
        let outBuffer = fftwf_alloc_complex(size)!
        inBuffer.initialize(repeating: (0, 0), count: size)
        input = inBuffer
        output = outBuffer
        let inAddress = Int(bitPattern: inBuffer), outAddress = Int(bitPattern: outBuffer)
        plan = makePlan {
            fftwf_plan_dft_1d(Int32(size), UnsafeMutablePointer(bitPattern: inAddress),
                              UnsafeMutablePointer(bitPattern: outAddress), FFTW_BACKWARD, UInt32(FFTW_ESTIMATE))
        }
    }

    deinit {
        destroyPlan(plan)
        fftwf_free(input)
        fftwf_free(output)
    }

    func execute() { fftwf_execute(plan) }
}
