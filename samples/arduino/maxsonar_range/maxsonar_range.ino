// MaxSonar range in centimetres, one decimal line per reading ("157\r\n"), twice a second.
// LV-MaxSonar analog output: Vcc/512 per inch; on a 5 V, 10-bit ADC that is 2 counts per
// inch, so cm = counts / 2 * 2.54.
#include <SoftModem.h>

SoftModem modem;
const uint8_t sensorPin = A0;

void setup() {
    modem.begin();
}

void loop() {
    long counts = analogRead(sensorPin);
    long cm = counts * 254 / 200;
    modem.println(cm);
    delay(500);
}
