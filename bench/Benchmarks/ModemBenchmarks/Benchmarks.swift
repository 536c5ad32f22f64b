import Benchmark
import ModemDSP

// Every benchmark generates its signal in setup, outside the measured region, and reports
// the custom metric "x real time": seconds of audio handled per second of wall clock.
// Steady-state loops (demodulation, encoding) must not allocate: their mallocCountTotal
// thresholds in Thresholds/ are 0 and `run-smoke.sh` checks them.
// Names carry no spaces or slashes: package-benchmark writes threshold files with those
// replaced but looks them up verbatim.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Settings.configuration
    let s = Settings.seconds

    demodulation("Demodulate-1225-44.1kHz-clean", .softmodem1225, rate: 44_100, snr: nil, seconds: s)
    demodulation("Demodulate-1225-44.1kHz-0dB", .softmodem1225, rate: 44_100, snr: 0, seconds: s)
    demodulation("Demodulate-1225-48kHz-clean", .softmodem1225, rate: 48_000, snr: nil, seconds: s)
    demodulation("Demodulate-1225-48kHz-0dB", .softmodem1225, rate: 48_000, snr: 0, seconds: s)
    demodulation("Demodulate-2450-44.1kHz-clean", .softmodem2450, rate: 44_100, snr: nil, seconds: s)
    demodulation("Demodulate-2450-44.1kHz-0dB", .softmodem2450, rate: 44_100, snr: 0, seconds: s)
    hijackDecoding("HiJack-44.1kHz-clean", rate: 44_100, snr: nil, seconds: s)
    hijackDecoding("HiJack-44.1kHz-0dB", rate: 44_100, snr: 0, seconds: s)

    encoding("Encode-1225-44.1kHz", .softmodem1225, rate: 44_100, seconds: s)
    encoding("Encode-1225-48kHz", .softmodem1225, rate: 48_000, seconds: s)

    deframing("Deframe-1225-44.1kHz-clean", .softmodem1225, rate: 44_100, snr: nil, seconds: s)
    deframing("Deframe-1225-44.1kHz-0dB", .softmodem1225, rate: 44_100, snr: 0, seconds: s)

    idleDemodulation("Demodulate-silence-44.1kHz", rate: 44_100, seconds: s)
    wavDecode("DecodeWAV16-1225-44.1kHz", .softmodem1225, rate: 44_100, seconds: s)
}
