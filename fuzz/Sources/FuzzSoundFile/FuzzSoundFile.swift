import FuzzSupport
import ModemAudioIO
import ModemFraming

/// Arbitrary bytes as a sound file, through libsndfile and the whole decode path
/// (`decode -v --protocol line`): detection, as `decode` with no options, on three inputs
/// of four; softmodem-1225 pinned on the fourth. Whole file bytes go to libsndfile, so
/// the seeds stay valid files; the choice is the file's length modulo 4.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundFile(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let path = ScratchFile.write(input.bytes)
    guard var reader = try? SoundFileReader(path: path) else { return 0 }
    _ = reader.formatDescription
    decodeLikeCLI(&reader, modem: count % 4 == 3 ? .fsk(.softmodem1225) : .auto, channel: nil, protocol: .line)
    return 0
}
