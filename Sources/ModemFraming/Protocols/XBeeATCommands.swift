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
        /// The bytes to send after the delay: "+++", or one "AT" command ending in CR.
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
    /// The two things a host sends in command mode.
    public enum Kind: Sendable, Equatable {
        /// "+++" with the guard times respected.
        case enterCommandMode
        /// "AT" + two-letter command + optional parameter.
        case command(String, String)
    }
    /// The "+++" escape, or an AT command with its upper-cased two-letter name and parameter.
    public var kind: Kind
    /// The bytes as received: "+++", or the command line with its CR or LF.
    public var raw: [UInt8]

    /// "command" ("+++" or the two-letter name) and "parameter", plus "baud" for an ATBD
    /// whose code is 0-7.
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

    /// The command as text, e.g. "ATBD 3 (9600 baud)" or "+++ (command mode)".
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
    /// This parser completes ``XBeeCommand`` messages.
    public typealias Message = XBeeCommand
    /// The most bytes of a command line held; the next byte discards them and the line starts
    /// over.
    public static let maximumLine = 64
    /// Seconds of silence required before and after "+++" (the radio's ATGT).
    public let guardTime: Double
    /// Bytes dropped so far: lines that are not AT commands, over-long lines, and '+' runs that
    /// were not a valid escape.
    public private(set) var discardedBytes = 0
    private var line: [UInt8] = []
    private var plusCount = 0
    private var lastByteTime = -Double.infinity
    private var plusQualified = false

    /// A parser that judges "+++" against `guardTime` seconds of silence
    /// (default ``XBeeAT/defaultGuardTime``, 1 s).
    public init(guardTime: Double = XBeeAT.defaultGuardTime) { self.guardTime = guardTime }
    /// Bytes of the command line in progress, plus any '+' held as a possible escape.
    public var bufferedBytes: Int { line.count + plusCount }

    /// Reports "+++" once a guard time has passed in silence after its third '+';
    /// nil otherwise.
    public mutating func advance(to time: Double) -> XBeeCommand? {
        guard plusCount == 3, time - lastByteTime >= guardTime else { return nil }
        plusCount = 0
        return XBeeCommand(kind: .enterCommandMode, raw: Array("+++".utf8))
    }

    /// Pushes one byte that arrived at `time` seconds: '+' after a guard time of silence
    /// may start an escape, and CR or LF ends an AT command line.
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
    /// What the radio answered: "OK", "ERROR", or a value (e.g. a register it was asked for).
    public enum Kind: Sendable, Equatable {
        case ok, error
        case value(String)
    }
    /// Whether the reply was OK, ERROR or a value, with the value's text.
    public var kind: Kind
    /// The reply line ending in CR alone, as the radio sends it.
    public var raw: [UInt8]
    /// "reply" ("OK", "ERROR" or "value"), plus "value" with the text of a value.
    public var fields: [MessageField] {
        switch kind {
        case .ok: [MessageField("reply", .string("OK"))]
        case .error: [MessageField("reply", .string("ERROR"))]
        case .value(let v): [MessageField("reply", .string("value")), MessageField("value", .string(v))]
        }
    }
    /// "OK", "ERROR", or the value's text.
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
