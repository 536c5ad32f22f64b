import ModemFraming

/// One line that two stations share in simulated time, as two bridges on one PulseAudio sink:
/// each burst plays from when its station hands it over (after that station's earlier
/// bursts), and both stations hear every byte, their own included, `delay` seconds after it
/// ends on air. Bytes of the two stations that overlap on air collide and arrive garbled, and
/// so do bytes that meet a periodic noise burst (the live test's injected noise).
struct EchoingLine {
    let baud: Double
    let delay: Double
    /// Seconds between noise bursts (0: none), how long each lasts, and when the first starts.
    var noisePeriod = 0.0
    var noiseBurst = 0.05
    var noisePhase = 0.7
    private var busyUntil = [-Double.infinity, -Double.infinity]
    private var onAir: [(station: Int, start: Double, end: Double)] = []
    private var pending: [(time: Double, station: Int, air: Double, byte: UInt8)] = []
    private var scramble: UInt64 = 0x1234_5678
    /// Bytes that collided with the other station's.
    private(set) var collisions = 0

    init(baud: Double = 1225, delay: Double = 0.1) {
        self.baud = baud
        self.delay = delay
    }

    /// Puts `burst` from `station` (0 or 1) on the line at `now`.
    mutating func transmit(_ burst: [UInt8], from station: Int, at now: Double) {
        let byteTime = 10 / baud
        let start = max(now, busyUntil[station])
        let first = start + 50 / baud
        let end = first + Double(burst.count) * byteTime + 7 / baud
        busyUntil[station] = end
        onAir.removeAll { $0.end < now - 5 }
        let others = onAir.filter { $0.station != station && $0.end > start && $0.start < end }
        onAir.append((station, start, end))
        for (i, b) in burst.enumerated() {
            let air = first + Double(i) * byteTime
            var byte = b
            if others.contains(where: { $0.start < air + byteTime && $0.end > air }) || isNoisy(air, byteTime) {
                byte = garble(b)
            }
            pending.append((air + byteTime + delay, station, air, byte))
        }
        // The other station's bytes already on the line that this burst overlaps.
        for i in pending.indices where pending[i].station != station {
            let air = pending[i].air
            if air + byteTime > start && air < end {
                pending[i].byte = garble(pending[i].byte)
                collisions += 1
            }
        }
    }

    /// The bytes both stations have heard by `now`, in the order they were on air.
    mutating func arrived(by now: Double) -> [UInt8] {
        let due = pending.filter { $0.time <= now }.sorted { $0.time < $1.time }
        pending.removeAll { $0.time <= now }
        return due.map(\.byte)
    }

    private func isNoisy(_ air: Double, _ byteTime: Double) -> Bool {
        guard noisePeriod > 0 else { return false }
        let k = ((air - noisePhase) / noisePeriod).rounded(.down)
        let burstStart = noisePhase + k * noisePeriod
        return air < burstStart + noiseBurst && air + byteTime > burstStart
    }

    private mutating func garble(_ b: UInt8) -> UInt8 {
        scramble = scramble &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return b ^ UInt8(1 + (scramble >> 33) % 255)
    }
}
