/// XBee AT command mode: "+++" framed by guard times of silence, then "ATxx [param]" + CR
/// commands, each answered "OK" + CR (or a value, or "ERROR").
public enum XBeeAT {
    /// Default guard time (ATGT = 0x3E8 ms): silence needed before and after "+++".
    public static let defaultGuardTime = 1.0

    /// ATBD parameter 0-7 -> serial baud rate.
    public static let baudRates: [Int] = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200]

    /// The ATBD code for a baud rate in the table; nil for other rates.
    public static func baudCode(for baud: Int) -> Int? { baudRates.firstIndex(of: baud) }

    /// The baud rate an ATBD code selects; nil outside 0-7.
    public static func baudRate(forCode code: Int) -> Int? { baudRates.indices.contains(code) ? baudRates[code] : nil }

    /// One step of a configuration session: wait, then send bytes.
    public struct Step: Sendable, Equatable {
        /// Silence before `bytes`, in seconds.
        public var delay: Double
        public var bytes: [UInt8]
    }

    /// The session the examples use: guard, "+++", guard, then each command with CR.
    /// Commands are given without "AT" ("BD 3", "ID 1111", "WR").
    public static func session(_ commands: [String], guardTime: Double = defaultGuardTime) -> [Step] {
        var steps = [Step(delay: guardTime * 1.1, bytes: Array("+++".utf8))]
        for (i, c) in commands.enumerated() {
            steps.append(Step(delay: i == 0 ? guardTime * 1.1 : 0, bytes: Array("AT\(c)\r".utf8)))
        }
        return steps
    }
}

/// What the host sends to an XBee in command mode.
public struct XBeeCommand: FramedMessage, Equatable {
    public enum Kind: Sendable, Equatable {
        /// "+++" with the guard times respected.
        case enterCommandMode
        /// "AT" + two-letter command + optional parameter.
        case command(String, String)
    }
    public var kind: Kind
    public var raw: [UInt8]

    public var fields: [MessageField] {
        switch kind {
        case .enterCommandMode: return [MessageField("command", .string("+++"))]
        case .command(let c, let p):
            var f = [MessageField("command", .string(c)), MessageField("parameter", .string(p))]
            if c == "BD", let code = Int(p, radix: 16), let baud = XBeeAT.baudRate(forCode: code) {
                f.append(MessageField("baud", .int(baud)))
            }
            return f
        }
    }

    public var description: String {
        switch kind {
        case .enterCommandMode: return "+++ (command mode)"
        case .command(let c, let p):
            let baud =
                c == "BD" ? Int(p, radix: 16).flatMap(XBeeAT.baudRate(forCode:)).map { " (\($0) baud)" } ?? "" : ""
            return "AT\(c)\(p.isEmpty ? "" : " " + p)\(baud)"
        }
    }
}

/// Parses the host side of XBee command mode: "+++" (accepted only with a guard time of
/// silence before and after it, judged from byte times) and AT command lines.
public struct XBeeCommandParser: SingleMessageParser {
    public typealias Message = XBeeCommand
    public static let maximumLine = 64
    public let guardTime: Double
    public private(set) var discardedBytes = 0
    private var line: [UInt8] = []
    private var plusCount = 0
    private var lastByteTime = -Double.infinity
    private var plusQualified = false

    public init(guardTime: Double = XBeeAT.defaultGuardTime) { self.guardTime = guardTime }
    public var bufferedBytes: Int { line.count + plusCount }

    public mutating func advance(to time: Double) -> XBeeCommand? {
        guard plusCount == 3, time - lastByteTime >= guardTime else { return nil }
        plusCount = 0
        return XBeeCommand(kind: .enterCommandMode, raw: Array("+++".utf8))
    }

    public mutating func push(_ byte: UInt8, at time: Double) -> XBeeCommand? {
        let gap = time - lastByteTime
        let done = advance(to: time)
        lastByteTime = time
        if plusCount > 0 {
            // A "+++" not followed by silence, or a fourth '+', is data, not an escape.
            if byte == UInt8(ascii: "+") && plusCount < 3 && gap < guardTime {
                plusCount += 1
                return done
            }
            discardedBytes += plusCount
            plusCount = 0
        }
        if byte == UInt8(ascii: "+") && line.isEmpty && gap >= guardTime {
            plusCount = 1
            return done
        }
        if byte == 13 || byte == 10 {
            defer { line.removeAll(keepingCapacity: true) }
            return done ?? command(raw: line + [byte])
        }
        if line.count >= Self.maximumLine {
            discardedBytes += line.count
            line.removeAll(keepingCapacity: true)
        }
        line.append(byte)
        return done
    }

    private mutating func command(raw: [UInt8]) -> XBeeCommand? {
        let body = raw.dropLast()
        guard body.count >= 4, body.prefix(2).elementsEqual("AT".utf8) || body.prefix(2).elementsEqual("at".utf8) else {
            discardedBytes += raw.count
            return nil
        }
        let name = body.dropFirst(2).prefix(2)
        guard name.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) }),
            body.dropFirst(4).allSatisfy({ $0 >= 32 && $0 < 127 })
        else {
            discardedBytes += raw.count
            return nil
        }
        var param = String(decoding: body.dropFirst(4), as: UTF8.self)
        while param.hasPrefix(" ") { param.removeFirst() }
        return XBeeCommand(kind: .command(String(decoding: name, as: UTF8.self).uppercased(), param), raw: raw)
    }
}

/// What an XBee answers in command mode.
public struct XBeeReply: FramedMessage, Equatable {
    public enum Kind: Sendable, Equatable {
        case ok, error
        case value(String)
    }
    public var kind: Kind
    public var raw: [UInt8]
    public var fields: [MessageField] {
        switch kind {
        case .ok: [MessageField("reply", .string("OK"))]
        case .error: [MessageField("reply", .string("ERROR"))]
        case .value(let v): [MessageField("reply", .string("value")), MessageField("value", .string(v))]
        }
    }
    public var description: String {
        switch kind {
        case .ok: "OK"
        case .error: "ERROR"
        case .value(let v): v
        }
    }
    /// "OK" + CR, as the radio sends it.
    public static let ok: [UInt8] = Array("OK\r".utf8)
}

/// Parses XBee replies: CR-terminated lines "OK", "ERROR" or a value.
public typealias XBeeReplyParser = LineMessageParser<XBeeReply>

extension XBeeReply: LineMessage {
    /// "OK", "ERROR", or any other line as a value; `raw` ends in CR alone, as the radio
    /// sends it, whatever terminator the line had.
    public init?(line: TextLine) {
        let raw = Array(line.raw.prefix { $0 != 13 && $0 != 10 }) + [13]
        switch line.text {
        case "OK": self.init(kind: .ok, raw: raw)
        case "ERROR": self.init(kind: .error, raw: raw)
        default: self.init(kind: .value(line.text), raw: raw)
        }
    }
}
