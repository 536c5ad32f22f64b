// The board end of softmodem's reliable link (docs/protocols.md, "Reliable link"): answers
// the host's hello with what it can take (8 packets of up to 64 bytes in flight, full duplex,
// selective repeat: packets after a gap wait in RAM for the one lost), delivers each packet's
// payload once and in order to the hardware serial port, and acknowledges every packet as it
// arrives, with a bitmap of those it holds past a gap. The host side is `softmodem send`,
// `serial --reliable` or the library's ReliableSender.
//
// SoftModem keeps receiving by interrupt while write() sends, but its ring holds only 31
// bytes: an answer (15 bytes, or 34 with the hello, which the host waits for before sending
// data) is short enough that the ring never fills meanwhile, and the loop empties it before
// anything else.
#include <SoftModem.h>
#include "modem_framing.h"

SoftModem modem;
LinkReceiver link;
uint8_t answer[2 * 24];

void setup() {
    Serial.begin(115200);
    modem.begin();
}

void loop() {
    while (modem.available()) {
        // A packet that fills a gap releases those held behind it.
        for (bool got = link.push((uint8_t)modem.read()); got; got = link.pull()) {
            Serial.write(link.payload, link.length);
        }
    }
    if (link.helloPending || link.ackPending) {
        size_t n = 0;
        if (link.helloPending) n = link.hello(answer) - 1;  // the ACK's opening 0 closes the hello
        if (link.ackPending) n += link.ack(answer + n); else n += 1;
        modem.write(answer, n);
    }
}
