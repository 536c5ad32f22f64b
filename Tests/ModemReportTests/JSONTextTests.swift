import ModemReport
import Testing

@Suite struct JSONTextTests {
    @Test func quotesAndEscapes() {
        #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.quoted("x\ny\r\tz") == #""x\ny\r\tz""#)
        #expect(JSONText.quoted("\u{1B}[0m") == #""\u001b[0m""#)
        #expect(JSONText.quoted("café ✓") == "\"café ✓\"")
    }

    @Test func scriptSafeLeavesNoMarkupOrLineSeparators() {
        #expect(JSONText.quoted("</script>&") == "\"</script>&\"")
        #expect(JSONText.quoted("</script>&", scriptSafe: true) == #""\u003c/script\u003e\u0026""#)
        #expect(JSONText.quoted("a\u{2028}b", scriptSafe: true) == #""a\u2028b""#)
    }
}
