import Glibc
import ModemALSA
import Testing

/// The one-line messages for devices that cannot be opened, from the errno `snd_pcm_open`
/// returns (BusyDeviceTests makes a real busy device end to end).
@Suite struct ALSAErrorTests {
    @Test func busyDeviceNamesItAndListsAlternatives() {
        let e = ALSAError.opening(
            device: "hw:1,0", direction: .capture, code: -EBUSY, available: ["default", "pulse", "hw:CARD=PCH,DEV=0"])
        #expect(e.reason == .busy)
        #expect(
            e.description
                == "hw:1,0: device is busy: another program is using it (close it, or use a shared device such as default or pulse) "
                + "(snd_pcm_open: Device or resource busy); available devices: default, pulse, hw:CARD=PCH,DEV=0")
        #expect(!e.description.contains("\n"))
    }

    @Test func missingAndOtherFailuresAreClassified() {
        #expect(
            ALSAError.opening(device: "x", direction: .playback, code: -ENOENT, available: []).reason == .noSuchDevice)
        #expect(
            ALSAError.opening(device: "x", direction: .playback, code: -ENODEV, available: []).description.hasPrefix(
                "x: no such playback device"))
        #expect(
            ALSAError.opening(device: "x", direction: .capture, code: -EACCES, available: ["pulse"]).reason == .failed)
    }
}
