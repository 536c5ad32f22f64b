#if canImport(Glibc)
    import Glibc
#endif

/// printf-style formatting of numbers through the C library (`vsnprintf(3)`): `%.3f`,
/// `%8.2e`, `%02x`, `%7ld` and so on, exactly as C prints them.
///
/// Why not `String(format:)`: it lives in the full Foundation, whose static copy (with ICU)
/// made the binary 50 MB larger and every start 2-3 ms slower; nothing else here needs it.
/// Swift `Int` arguments take `%ld`; strings are concatenated by the caller instead of `%@`.
public func cFormat(_ format: String, _ arguments: any CVarArg...) -> String {
    var capacity = 64
    while true {
        let result: String? = withVaList(arguments) { list in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
                let needed = Int(vsnprintf(buffer.baseAddress, capacity, format, list))
                guard needed >= 0 else { return "" }  // an encoding error: nothing printable
                guard needed < capacity else {
                    capacity = needed + 1
                    return nil
                }
                return String(cString: buffer.baseAddress!)
            }
        }
        if let result { return result }
    }
}

/// `x` with `decimals` digits after the point, or "-" when it is not finite (a measurement
/// that did not happen).
public func fixed(_ x: Double, _ decimals: Int = 1) -> String {
    x.isFinite ? cFormat("%.\(decimals)f", x) : "-"
}
