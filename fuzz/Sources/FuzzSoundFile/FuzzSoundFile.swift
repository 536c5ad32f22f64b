import FuzzSupport
import ModemAudioIO
import ModemFraming

/// Arbitrary bytes as a sound file, through libsndfile and the whole decode path, parsed
/// as the line protocol (`decode --protocol line`, `decode -v`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundFile(_ data: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput(data, count)
    let path = ScratchFile.write(input.bytes)
    guard var reader = try? SoundFileReader(path: path) else { return 0 }
    _ = reader.formatDescription
    decodeLikeCLI(&reader, profile: .softmodem1225, protocol: .line)
    return 0
}
