/// How a modem's transmitted signal uses the audio channels.
public enum ChannelPlan: Sendable, Equatable {
    /// One channel of modem signal (FSK); a file or device may still copy it to both sides.
    case mono
    /// Two channels: the data line left, the board's power tone right (HiJack).
    case dataLeftPowerRight

    /// Interleaved channels per frame.
    public var channels: Int {
        switch self {
        case .mono: return 1
        case .dataLeftPowerRight: return 2
        }
    }
}

extension FSKSettings {
    /// FSK sends one channel.
    public static let channelPlan = ChannelPlan.mono
}

extension HiJackSettings {
    /// HiJack sends data left and the power tone right: the board takes its power from the tone.
    public static let channelPlan = ChannelPlan.dataLeftPowerRight
}

extension Modem {
    /// The channels this modem's transmitted signal uses; transmitters read their channel
    /// count from here. Automatic detection is FSK's receiving side, so it counts as mono.
    public var channelPlan: ChannelPlan {
        switch self {
        case .fsk, .auto: return FSKSettings.channelPlan
        case .hijack: return HiJackSettings.channelPlan
        }
    }
}
