import ModemFraming

// lab11's half of the bit reader: packets as one bit stream, proven by their checksum.

extension HiJackBitReader {
    /// lab11: one more bit of the packet, LSB first; a packet longer than any library
    /// sends is noise.
    mutating func addPacketBit(_ bit: UInt8, into events: inout [ModemEvent]) {
        bits |= UInt16(bit) << UInt16(bitCount % 8)
        bitCount += 1
        guard bitCount % 8 == 0 else { return }
        guard packet.count < Self.maximumPacketBytes else {
            reject(.framingError, into: &events)
            loseSync()
            return
        }
        packet.append(UInt8(truncatingIfNeeded: bits))
        bits = 0
    }

    /// Bit periods without a transition that end a lab11 packet cleanly (the board's
    /// postamble is 3.5 bits low, then a pulse or silence).
    static let packetGap = 2.5

    /// lab11: the packet has ended. It is delivered byte by byte when it ended cleanly (a
    /// gap of ``packetGap`` bits, silence or the input's end), is whole bytes, at least a
    /// header, a payload byte and a checksum, not all one byte value, and its last byte is
    /// the 8-bit sum of the others (what both the firmware and the Android library check);
    /// otherwise one error event stands for it. Two bytes are never enough: `[b, b]` passes
    /// the sum for every b, and a steady tone reads as equal bytes.
    mutating func finishPacket(cleanEnd: Bool, into events: inout [ModemEvent]) {
        defer {
            packet.removeAll(keepingCapacity: true)
            bits = 0
            bitCount = 0
            mode = .hunting
            shortCount = 0
        }
        guard cleanEnd, bitCount % 8 == 0, packet.count >= 3, packet.contains(where: { $0 != packet[0] }) else {
            counts.framingErrors += 1
            events.append(packetEvent(.framingError, packet.first ?? UInt8(truncatingIfNeeded: bits), index: 0))
            return
        }
        // The packet layer's own rule (one allocation per packet, never per sample).
        let candidate = HiJackLab11Packet(header: packet[0], payload: Array(packet[1..<(packet.count - 1)]))
        guard candidate.checksum == packet[packet.count - 1] else {
            counts.parityErrors += 1
            events.append(packetEvent(.parityError, packet[0], index: 0))
            return
        }
        for (i, byte) in packet.enumerated() { events.append(packetEvent(.byte, byte, index: i)) }
        counts.bytes += packet.count
        notePolarity()
    }

    /// Byte `index` of the packet: its bits follow the start bit's cell.
    func packetEvent(_ kind: ModemEvent.Kind, _ value: UInt8, index: Int) -> ModemEvent {
        let start = frameStart + 0.5 * period + Double(8 * index) * period
        let end = Int64((start + 8 * period).rounded())
        return ModemEvent(
            kind: kind, value: value, startSample: Int64(max(0, start)), endSample: end,
            decidedAt: max(decidedAt, end),
            metrics: .hijack(HiJackFrameMetrics(baud: sampleRate / period, inverted: inverted)))
    }
}
