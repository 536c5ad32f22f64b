public import ModemDSP

extension AudioSink {
    /// Frames rendered per write of ``writePowerTone(_:frames:)``.
    static let powerToneBlock = 4096

    /// Writes `frames` frames of `tone` on the right channel with the left silent: the
    /// HiJack power tone alone, which a board harvests its power from while its data line
    /// rests. The sink must be stereo (``ChannelLayout/both``: each frame is written as
    /// given); `tone` keeps its phase, so a later call continues it.
    ///
    /// - Parameter frames: how many; nil writes until a write fails (a pipe's reader gone:
    ///   that write's error is thrown).
    public mutating func writePowerTone(_ tone: inout HiJackPowerTone, frames: Int64?) throws(AudioIOError) {
        let block = Self.powerToneBlock
        var buffer = [Float](repeating: 0, count: 2 * block)
        var left = frames ?? .max
        while left > 0 {
            let n = Int(min(Int64(block), left))
            buffer.withUnsafeMutableBufferPointer { tone.render(into: $0.baseAddress! + 1, count: n, stride: 2) }
            try buffer.withUnsafeBufferPointer { b throws(AudioIOError) in
                try writeInterleaved(UnsafeBufferPointer(rebasing: b[0..<(2 * n)]))
            }
            left -= Int64(n)
        }
    }
}
