// Text lines (Serial.println style, CR LF): decode with `softmodem decode --protocol line`.
#include <SoftModem.h>

SoftModem modem;

void setup() {
    modem.begin();
    modem.println("Arduino reset");
}

void loop() {
    static uint8_t count = 0;
    modem.println(count++ % 2 ? "Goodbye world" : "Hello world");
    delay(1000);
}
