import Foundation
import ModemDSP
import ModemFraming
import ModemTestSupport
import Testing

/// samples/arduino/reliable_link on the real SoftModem library (avrsim), against the
/// library's ``ReliableSender``: the board states its capabilities in the opening exchange,
/// gets every byte once and in order, and the link runs at over half the line rate.
@Suite(.serialized) struct ReliableLinkFirmwareTests {
    /// 1225 baud: at least half the line rate (the floor; measured 78 %). 2450 baud:
    /// exact, but the library's receiver drops about a byte in 200 there whatever the sender, so
    /// a 74-byte packet is lost about one time in three; the sketch holds what follows a gap and
    /// the sender repeats only the packet lost (measured 37 % for 1000 bytes, 44 % for 2000;
    /// going back to the gap, as the sketch's previous version made it, gave 13 %).
    @Test(arguments: [(ModemProfile.softmodem1225, 1000, 2.0, 0.5), (ModemProfile.softmodem2450, 1000, 1.5, 0.3)])
    func aFileReachesTheSketchAtOverHalfTheLineRate(profile: ModemProfile, bytes: Int, step: Double, floor: Double)
        throws
    {
        if EmulatedBoardTests.skip() { return }
        let samples = CLI.packageRoot.appendingPathComponent("samples/arduino")
        let firmware = try EmulatedBoard.firmware(
            samples.appendingPathComponent("reliable_link/reliable_link.ino").path, rate: Int(profile.baud),
            clock: 16_000_000, includes: [samples.appendingPathComponent("common").path],
            extra: [samples.appendingPathComponent("common/modem_framing.cpp").path])
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let message = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        var link = try FirmwareLink(profile: profile, firmware: firmware, dir: dir, step: step, message: message)
        let finished = try link.run(limit: 60)
        let s = link.sender.statistics
        print(
            "firmware link \(profile.name): \(s.payloadBytes) bytes, \(Int((100 * link.efficiency).rounded())) % of "
                + "line rate, \(s.packetsSent) packets, \(s.retransmissions) retransmitted, \(s.timeouts) timeouts, "
                + "round trip \(Int(s.roundTrip * 1000)) ms")
        #expect(finished)
        #expect(link.delivered == Data(message), "\(link.delivered.count) of \(bytes) bytes")
        #expect(link.sender.agreed == .arduinoSketch)
        #expect(link.efficiency >= floor, "\(link.efficiency)")
    }
}
