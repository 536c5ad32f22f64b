// The board end of softmodem's reliable link: packets (COBS, 16-bit sequence number,
// CRC-32, at most 31 bytes so they fit SoftModem's receive ring), delivered once and in
// order to the hardware serial port, each answered with a cumulative ACK after a short
// turnaround. The phone/PC side is ReliableSender (library) or `softmodem send`.
#include <SoftModem.h>
#include "modem_framing.h"

SoftModem modem;
LinkReceiver link;
unsigned long lastByte = 0;
const unsigned long turnaroundMs = 40;  // wait for the sender's burst to end (half duplex)

void setup() {
    Serial.begin(115200);
    modem.begin();
}

void loop() {
    while (modem.available()) {
        lastByte = millis();
        if (link.push((uint8_t)modem.read())) {
            Serial.write(link.payload, link.length);
        }
    }
    if (link.ackPending && millis() - lastByte > turnaroundMs) {
        uint8_t ack[16];
        size_t n = link.ack(ack);
        modem.write(ack, n);  // blocks for the whole burst: the link is half duplex
    }
}
