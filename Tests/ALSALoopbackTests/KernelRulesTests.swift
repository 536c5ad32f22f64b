import Foundation
import Glibc
import Testing

/// The live commands on sound cards that keep the kernel's rules (``KernelCard``): a prepared
/// capture is not ready until started, a reader a buffer behind overruns, a second opener is
/// refused, an unplugged card fails every call, and a card has one rate. Run once, in the
/// PulseAudio pass of the suite (no server is involved), inside the serialized suite so no
/// other live test competes for the processor meanwhile.
extension LoopbackTests {
    /// A fresh card set for one test, or nil when this pass does not run them.
    private func kernelCard() throws -> (KernelCard, URL)? {
        guard LiveStack.current == .pulseaudio else { return nil }
        let dir = try Softmodem.temporaryDirectory()
        guard let card = try KernelCard.make(in: dir) else {
            try? FileManager.default.removeItem(at: dir)
            return nil
        }
        return (card, dir)
    }

    /// Fails without an explicit start: the receiver waited for a capture that never ran.
    @Test func kernelCardRxTxDeliversAThousandBytesExactly() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let payload = Softmodem.randomBytes(1000, seed: 28)
        let rx = try card.running(
            ["rx", "--device", "card", "--latency", "80", "--count", "1000", "--duration", "30", "-v"], tag: "rx")
        #expect(KernelCard.waitUntilCapturing("card", rx), "\(rx.stderr)")
        let tx = try card.run(["tx", "--device", "card", "--latency", "80"], stdin: payload, timeout: 30)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        #expect(rx.stdout == payload, "\(rx.stdout.count) bytes: \(rx.stderr)")
        #expect(rx.stderr.contains("card: capture 44100 Hz"), "\(rx.stderr)")
    }

    @Test func kernelCardLoopbackSelfTestFindsTheCleanPath() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try card.run(["loopback", "--device", "card", "--latency", "100", "--json"], timeout: 60)
        let report = (try? JSONSerialization.jsonObject(with: r.stdout)) as? [String: Any] ?? [:]
        #expect(r.status == 0, "\(r.stderr)")
        #expect(report["verdict"] as? String == "ok", "\(r.stderr)")
        #expect((report["resampler"] as? [String: Any])?["detected"] as? Bool == false, "\(r.stderr)")
    }

    @Test func kernelCardsCarrySendAndReceiveExactly() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("received")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("payload.bin")
        let payload = Softmodem.randomBytes(300, seed: 29)
        try payload.write(to: file)
        let receiver = try card.running(
            ["receive", out.path, "--device", "end2", "--timeout", "110", "-v"], tag: "rcv")
        #expect(Softmodem.waitUntil(timeout: 5) { receiver.stderr.contains("end2: playback") }, "\(receiver.stderr)")
        let sender = try card.run(["send", file.path, "--device", "end1", "--timeout", "110"], timeout: 120)
        #expect(sender.status == 0, "\(sender.stderr)")
        #expect(receiver.wait(timeout: 20) == 0, "\(receiver.stderr)")
        #expect((try? Data(contentsOf: out.appendingPathComponent("payload.bin"))) == payload, "\(receiver.stderr)")
    }

    @Test func kernelCardsCarryTwoSerialBridgesExactly() throws {
        guard Self.pyserialAvailable, let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let linkA = dir.appendingPathComponent("ttyA").path
        let linkB = dir.appendingPathComponent("ttyB").path
        let a = try card.running(["serial", "--device", "end1", "--link", linkA, "-v"], tag: "a")
        let b = try card.running(["serial", "--device", "end2", "--link", linkB, "-v"], tag: "b")
        #expect(KernelCard.waitUntilCapturing("end1", a) && KernelCard.waitUntilCapturing("end2", b))
        let (status, output) = try Self.exchange(
            linkA, linkB, bytes: 512, seed: 30, seconds: 40, in: dir, environment: card.environment, timeout: 150)
        Self.expectExact(status, output, bytes: 512, a, b)
        Self.stopCleanly(a, b)
    }

    @Test func kernelCardOverrunIsRecoveredAndTheNextBurstDecodes() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try card.running(["rx", "--device", "card", "--duration", "20", "-v"], tag: "rx")
        let tx = try card.running(["tx", "--device", "card", "--keep-open"], tag: "tx")
        #expect(KernelCard.waitUntilCapturing("card", rx))
        tx.send(Data("first burst\n".utf8))
        #expect(Softmodem.waitUntil(timeout: 4) { rx.stdoutText.contains("first burst\n") }, "\(rx.stderr)")
        // Three times the half-second capture buffer: the card overruns (it has no server to
        // absorb a stop).
        kill(rx.pid, SIGSTOP)
        usleep(1_500_000)
        kill(rx.pid, SIGCONT)
        #expect(Softmodem.waitUntil(timeout: 2) { rx.stderr.contains("capture overrun") }, "\(rx.stderr)")
        tx.send(Data("after the overrun\n".utf8))
        #expect(Softmodem.waitUntil(timeout: 4) { rx.stdoutText.contains("after the overrun\n") }, "\(rx.stderr)")
        tx.closeStdin()
        #expect(tx.wait(timeout: 5) == 0, "\(tx.stderr)")
        kill(rx.pid, SIGINT)
        #expect(rx.wait(timeout: 5) == 0, "\(rx.stderr)")
        #expect(rx.stdoutText == "first burst\nafter the overrun\n", "\(rx.stderr)")
    }

    @Test func kernelCardHeldByAnotherProgramIsBusy() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let holder = try card.running(["rx", "--device", "card", "--duration", "10", "-v"], tag: "holder")
        #expect(KernelCard.waitUntilCapturing("card", holder))
        let r = try card.run(["rx", "--device", "card", "--duration", "1"], timeout: 10)
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("softmodem: card: device is busy"), "\(r.stderr)")
        holder.signal(SIGINT)
        #expect(holder.wait(timeout: 5) == 0, "\(holder.stderr)")
    }

    @Test func kernelCardUnpluggedMidStreamIsOneLine() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try card.running(["rx", "--device", "card", "--duration", "20", "-v"], tag: "rx")
        #expect(KernelCard.waitUntilCapturing("card", rx))
        card.unplug("card")
        defer { card.unplug("card", false) }
        #expect(rx.wait(timeout: 5) == 1, "\(rx.stderr)")
        let last = rx.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("softmodem: card: the device went away (unplugged"), "\(rx.stderr)")
        // Opening an unplugged card names it as missing.
        let r = try card.run(["rx", "--device", "card", "--duration", "1"], timeout: 10)
        #expect(r.status == 1 && r.stderr.hasPrefix("softmodem: card: no such capture device"), "\(r.stderr)")
    }

    /// `serial` outlives the card: unplugged, it says so and keeps its port; plugged back, it
    /// reopens the capture and says so; a stop then ends it normally.
    @Test func serialWaitsForAnUnpluggedCardAndReopensIt() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let serial = try card.running(["serial", "--device", "card", "-v"], tag: "serial")
        #expect(KernelCard.waitUntilCapturing("card", serial), "\(serial.stderr)")
        card.unplug("card")
        #expect(Softmodem.waitUntil(timeout: 5) { serial.stderr.contains("card: capture lost") }, "\(serial.stderr)")
        #expect(serial.isRunning, "\(serial.stderr)")
        card.unplug("card", false)
        #expect(Softmodem.waitUntil(timeout: 5) { serial.stderr.contains("card: capture is back") }, "\(serial.stderr)")
        // The playback, idle all along, was noticed gone and reopened too.
        #expect(
            Softmodem.waitUntil(timeout: 5) { serial.stderr.contains("card: playback is back") }, "\(serial.stderr)")
        #expect(serial.stderr.contains("card: playback lost"), "\(serial.stderr)")
        serial.signal(SIGINT)
        #expect(serial.wait(timeout: 10) == 0, "\(serial.stderr)")
    }

    @Test func kernelCardAtOneRateIsOpenedAtItUnlessTheRateIsChosen() throws {
        guard let (card, dir) = try kernelCard() else { return }
        defer { try? FileManager.default.removeItem(at: dir) }
        let rx = try card.running(["rx", "--device", "card48", "--count", "10", "--duration", "15", "-v"], tag: "rx")
        #expect(KernelCard.waitUntilCapturing("card48", rx))
        #expect(rx.stderr.contains("card48: capture 48000 Hz"), "\(rx.stderr)")
        let tx = try card.run(["tx", "--device", "card48", "--text", "at 48 kHz\n"], timeout: 15)
        #expect(tx.status == 0, "\(tx.stderr)")
        #expect(rx.wait(timeout: 10) == 0, "\(rx.stderr)")
        #expect(rx.stdoutText == "at 48 kHz\n", "\(rx.stderr)")
        // --rate is exact: a card that cannot run at it says which rate it has.
        let r = try card.run(["rx", "--device", "card48", "--rate", "44100", "--duration", "1"], timeout: 10)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix("softmodem: card48: cannot capture at 44100 Hz: the device supports 48000 Hz only"),
            "\(r.stderr)")
        // Through plug: that rate is converted by alsa-lib, and -v says so and how to avoid it;
        // without --rate the converter is left out and the card runs at its own rate.
        let converted = try card.run(
            ["rx", "--device", "plug:card48", "--rate", "44100", "--duration", "0.5", "-v"], timeout: 10)
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(
            converted.stderr.contains(
                "plug:card48: capture 44100 Hz (alsa-lib converts from the card's 48000 Hz: --rate 48000 avoids it), "),
            "\(converted.stderr)")
        let native = try card.run(["rx", "--device", "plug:card48", "--duration", "0.5", "-v"], timeout: 10)
        #expect(native.status == 0 && native.stderr.contains("plug:card48: capture 48000 Hz, "), "\(native.stderr)")
    }
}
