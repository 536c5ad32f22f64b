import ModemALSA

/// The sound server's rates, asked once per process and only for a device that reaches it.
enum ServerRate {
    private static let rates = SoundServerRates.query(isCancelled: { StopSignal.isRequested ? 1 : 0 })

    /// The server's rate for `device` in `direction`, or nil (no server, or the device does
    /// not go through it).
    static func rate(of device: String, _ direction: ALSADirection) -> Int? {
        guard SoundServerRates.reachesServer(device: device) else { return nil }
        return rates?.rate(for: direction)
    }

    /// True when `device` goes through a sound server that is PipeWire.
    static func isPipeWire(_ device: String) -> Bool {
        SoundServerRates.reachesServer(device: device) && rates != nil
    }
}
