import CALSA
import Glibc

/// One PCM device ALSA knows by name, from `snd_device_name_hint`.
public struct ALSADevice: Sendable, Equatable {
    /// The name `snd_pcm_open` (and `--device`) accepts, e.g. `hw:CARD=PCH,DEV=0`.
    public var name: String
    /// ALSA's human description, first line only (may be empty).
    public var description: String
    /// True when the device can capture (its hint says input, or nothing).
    public var canCapture: Bool
    /// True when the device can play (its hint says output, or nothing).
    public var canPlay: Bool
}

extension ALSADevice {
    /// Every PCM device ALSA knows by name. Calls `snd_device_name_hint` (and
    /// `snd_device_name_get_hint` for each field).
    ///
    /// Devices whose hint carries no IOID can both capture and play. Returns an empty list when
    /// ALSA has no configuration at all; never throws, because the list is only ever used to
    /// help the user.
    public static func all() -> [ALSADevice] {
        calsa_silence_library_errors()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) == 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [ALSADevice] = []
        var i = 0
        while let hint = hints[i] {
            i += 1
            guard let name = hintField(hint, "NAME") else { continue }
            let description = (hintField(hint, "DESC") ?? "").split(separator: "\n").first.map(String.init) ?? ""
            let ioid = hintField(hint, "IOID")
            devices.append(
                ALSADevice(
                    name: name, description: description,
                    canCapture: ioid == nil || ioid == "Input", canPlay: ioid == nil || ioid == "Output"))
        }
        return devices
    }

    /// Names of the devices that can capture (or play), for error messages.
    public static func availableNames(capture: Bool) -> [String] {
        let names = all().filter { capture ? $0.canCapture : $0.canPlay }.map(\.name)
        return names.isEmpty ? ["(none: ALSA lists no \(capture ? "capture" : "playback") devices)"] : names
    }
}

private func hintField(_ hint: UnsafeMutableRawPointer, _ id: String) -> String? {
    guard let p = snd_device_name_get_hint(hint, id) else { return nil }
    defer { free(p) }
    return String(cString: p)
}
