import FuzzSupport
import ModemAudioIO
import ModemDSP
import ModemFraming

/// Headerless PCM in every format (`decode --raw`): the first bytes pick the format, the
/// rate, the channel count, the modem (detection, HiJack or a profile), `--channel` and the
/// protocol; the rest is the audio.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawPCM(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let format = input.pick(RawSampleFormat.allCases)
    let rate = input.pick([8_000.0, 22_050, 44_100, 48_000, 96_000, 192_000, 11_025, 1_000, 384_000])
    let channels = 1 + Int(input.byte() % 4)
    let modem = input.pick(FuzzModem.all)
    let channel = input.pick([nil, 0, 1, 2, 3])
    let proto = input.pick(ByteProtocol.allCases)
    let path = ScratchFile.write(input.rest)
    guard var reader = try? RawPCMReader(path: path, format: format, sampleRate: rate, channels: channels) else {
        return 0
    }
    decodeLikeCLI(&reader, modem: modem, channel: channel, protocol: proto)
    return 0
}
