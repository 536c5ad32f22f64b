/// A frame generation's bit reader watched by a lab11 reader on the same edges.
///
/// Random bits pass a frame's checks often enough that a lab11 board read as Gen 1 or
/// infinity frames would now and then print bytes that were never sent. A Gen 1 or infinity
/// board never pauses, so it never completes a lab11 packet; once the watching reader
/// proves one (by its checksum), the signal is lab11's and nothing more is delivered
/// (``foreign``).
struct HiJackGuardedReader: HiJackEdgeReader {
    private(set) var main: HiJackBitReader
    private var watch: HiJackBitReader?
    private var scratch: [ModemEvent] = []
    /// The generation the signal turned out to be, when it is not the pinned one.
    private(set) var foreign: HiJackGeneration?

    init(sampleRate: Double, nominalBaud: Double, generation: HiJackGeneration) {
        main = HiJackBitReader(sampleRate: sampleRate, nominalBaud: nominalBaud, generation: generation)
        if !generation.isBitStream {
            let lab11 = HiJackGeneration.lab11
            watch = HiJackBitReader(sampleRate: sampleRate, nominalBaud: lab11.boardBaud, generation: lab11)
            scratch.reserveCapacity(HiJackBitReader.maximumPacketBytes)
        }
    }

    var counts: HiJackCounts { main.counts }
    var isInBurst: Bool { main.isInBurst }
    var period: Double { main.period }

    mutating func edge(at t: Double, rising: Bool, now: Double, into events: inout [ModemEvent]) {
        watch?.edge(at: t, rising: rising, now: now, into: &scratch)
        noteWatch()
        if foreign == nil {
            main.edge(at: t, rising: rising, now: now, into: &events)
        } else {
            main.edge(at: t, rising: rising, now: now, into: &scratch)
            scratch.removeAll(keepingCapacity: true)
        }
    }

    mutating func advance(to now: Double, into events: inout [ModemEvent]) {
        watch?.advance(to: now, into: &scratch)
        noteWatch()
        main.advance(to: now, into: &events)
    }

    mutating func flush(at now: Double, into events: inout [ModemEvent]) {
        watch?.flush(at: now, into: &scratch)
        noteWatch()
        if foreign == nil {
            main.flush(at: now, into: &events)
        } else {
            main.flush(at: now, into: &scratch)
            scratch.removeAll(keepingCapacity: true)
        }
    }

    private mutating func noteWatch() {
        if let watch, watch.counts.bytes > 0 { foreign = .lab11 }
        scratch.removeAll(keepingCapacity: true)
    }
}
