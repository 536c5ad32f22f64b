// Paduino pin control over the audio jack: the phone sends 2-byte commands (pin 2-13,
// state 0/1); the board sets the pin and answers "Set: <pin> to: <state>" + CR LF.
// SoftModem uses pins 3 (TX), 6 and 7 (RX comparator): those pins are not switched.
#include <SoftModem.h>
#include "modem_framing.h"

SoftModem modem;
PinParser parser;

void setup() {
    modem.begin();
    for (uint8_t pin = 2; pin <= 13; pin++) {
        if (pin != 3 && pin != 6 && pin != 7) pinMode(pin, OUTPUT);
    }
}

void loop() {
    while (modem.available()) {
        uint8_t pin, state;
        if (!parser.push((uint8_t)modem.read(), &pin, &state)) continue;
        if (pin == 3 || pin == 6 || pin == 7) continue;  // the modem's own pins
        digitalWrite(pin, state ? HIGH : LOW);
        char reply[24];
        int n = snprintf(reply, sizeof reply, "Set: %u to: %u\r\n", pin, state);
        modem.write((const uint8_t *)reply, (size_t)n);  // one burst
    }
}
