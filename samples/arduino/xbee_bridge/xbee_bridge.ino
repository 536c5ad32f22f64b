// A bridge between the audio jack and an XBee on the hardware serial port (9600 8N1), so
// the phone can configure the radio in AT command mode and then talk through it:
//   softmodem encode --text +++ --silence 1.2        (guard time, "+++", guard time)
//   softmodem encode --protocol xbee-at --at "BD 3" --at "ID 1111" --at "MY 2345" --at "DL 7890" --at WR
// and `softmodem decode --protocol xbee-reply` shows the radio's "OK" replies.
// The radio side is 78 times faster than the audio side, so its bytes are collected and
// sent as bursts of at most 31 bytes (the far end's receive buffer).
#include <SoftModem.h>
#include "modem_framing.h"

SoftModem modem;
uint8_t toPhone[LINK_RECEIVE_BUFFER];
uint8_t held = 0;
unsigned long lastRadioByte = 0;

void setup() {
    Serial.begin(9600);
    modem.begin();
}

void loop() {
    while (modem.available()) Serial.write((uint8_t)modem.read());
    while (Serial.available() && held < sizeof toPhone) {
        toPhone[held++] = (uint8_t)Serial.read();
        lastRadioByte = millis();
    }
    // Send when the buffer is full or the radio paused for 20 ms (end of a reply).
    if (held == sizeof toPhone || (held > 0 && millis() - lastRadioByte > 20)) {
        modem.write(toPhone, held);
        held = 0;
    }
}
