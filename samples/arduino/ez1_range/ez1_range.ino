// The LV-MaxSonar-EZ1's own serial format, "R" + three digits (inches) + CR, produced here
// from its analog output (its TX pin is inverted RS-232 levels, which SoftModem cannot
// share a timer with). Like the sensor, it prints an identification line at power-on,
// which `softmodem decode --protocol ez1` skips.
#include <SoftModem.h>

SoftModem modem;
const uint8_t sensorPin = A0;

void setup() {
    modem.begin();
    modem.print("LV-MaxSonar-EZ1\rCopyright 2005-2009 MaxBotix, Inc.\r");
}

void loop() {
    int inches = analogRead(sensorPin) / 2;
    if (inches > 255) inches = 255;
    if (inches < 0) inches = 0;
    uint8_t reading[5] = {'R', (uint8_t)('0' + inches / 100), (uint8_t)('0' + inches / 10 % 10), (uint8_t)('0' + inches % 10), '\r'};
    modem.write(reading, 5);
    delay(100);
}
