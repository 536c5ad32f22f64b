// Accessory frames (sync 0F F0, counter, command, length, payload, CRC-16/CCITT-FALSE):
// reports the battery level every 2 s (command 0x10, 01 low / 02 normal / 03 high) and
// answers every valid frame from the phone with an acknowledgement frame (command 0x80,
// payload = the counter it received). Decode with `softmodem decode --protocol accessory`.
#include <SoftModem.h>
#include "modem_framing.h"

SoftModem modem;
AccessoryParser parser;
uint8_t counter = 0;
unsigned long lastReport = 0;

static void sendFrame(uint8_t command, const uint8_t *payload, uint8_t length) {
    uint8_t frame[ACCESSORY_MAX_PAYLOAD + ACCESSORY_OVERHEAD];
    size_t n = accessory_encode(counter++, command, payload, length, frame);
    modem.write(frame, n);
}

void setup() {
    modem.begin();
}

void loop() {
    while (modem.available()) {
        if (parser.push((uint8_t)modem.read())) {
            uint8_t ack[2] = {parser.counter, parser.lostBefore};
            sendFrame(0x80, ack, 2);
        }
    }
    if (millis() - lastReport > 2000) {
        lastReport = millis();
        long millivolts = analogRead(A1) * 5000L / 1023;
        uint8_t level = millivolts < 3400 ? 0x01 : (millivolts < 4000 ? 0x02 : 0x03);
        sendFrame(0x10, &level, 1);
    }
}
