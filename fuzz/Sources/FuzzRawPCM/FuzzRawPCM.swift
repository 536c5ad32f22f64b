import FuzzSupport
import ModemAudioIO
import ModemDSP
import ModemFraming

/// Headerless PCM in every format (`decode --raw`): the first bytes pick the format, the
/// rate, the channel count, the profile and the protocol; the rest is the audio.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawPCM(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(data, count)
    let format = input.pick(RawSampleFormat.allCases)
    let rate = input.pick([8_000.0, 22_050, 44_100, 48_000, 96_000, 192_000, 11_025, 1_000, 384_000])
    let channels = 1 + Int(input.byte() % 4)
    let profile = input.pick(fuzzProfiles)
    let proto = input.pick(ByteProtocol.allCases)
    let path = ScratchFile.write(input.rest)
    guard var reader = try? RawPCMReader(path: path, format: format, sampleRate: rate, channels: channels) else {
        return 0
    }
    decodeLikeCLI(&reader, profile: profile, protocol: proto)
    return 0
}
