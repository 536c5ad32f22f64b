import Benchmark
import ModemDSP

// Every benchmark generates its signal in setup, outside the measured region, and reports
// the custom metric "x real time": seconds of audio handled per second of wall clock.
// Steady-state loops (demodulation, encoding) must not allocate: their mallocCountTotal
// thresholds in Thresholds/ are 0 and `run-smoke.sh` checks them.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = Settings.configuration
    let s = Settings.seconds

    demodulation("Demodulate softmodem-1225 44.1 kHz clean", .softmodem1225, rate: 44_100, snr: nil, seconds: s)
    demodulation("Demodulate softmodem-1225 44.1 kHz 0 dB SNR", .softmodem1225, rate: 44_100, snr: 0, seconds: s)
    demodulation("Demodulate softmodem-1225 48 kHz clean", .softmodem1225, rate: 48_000, snr: nil, seconds: s)
    demodulation("Demodulate softmodem-1225 48 kHz 0 dB SNR", .softmodem1225, rate: 48_000, snr: 0, seconds: s)
    demodulation("Demodulate softmodem-2450 44.1 kHz clean", .softmodem2450, rate: 44_100, snr: nil, seconds: s)
    demodulation("Demodulate softmodem-2450 44.1 kHz 0 dB SNR", .softmodem2450, rate: 44_100, snr: 0, seconds: s)
    // HIJACK: add "Demodulate hijack 44.1 kHz clean" / "... 0 dB SNR" here once the HiJack
    // (Manchester) decoder is on main, with a zero-malloc threshold file like the FSK ones.

    encoding("Encode softmodem-1225 44.1 kHz", .softmodem1225, rate: 44_100, seconds: s)
    encoding("Encode softmodem-1225 48 kHz", .softmodem1225, rate: 48_000, seconds: s)

    idleDemodulation("Demodulate silence 44.1 kHz (mixer only)", rate: 44_100, seconds: s)
    wavDecode("Decode 16-bit WAV softmodem-1225 44.1 kHz", .softmodem1225, rate: 44_100, seconds: s)
}
