// Stream toggle: any byte from the phone flips between streaming sensor readings (one text
// line every 200 ms) and staying quiet. Send with `softmodem encode --protocol toggle`.
#include <SoftModem.h>

SoftModem modem;
bool streaming = false;

void setup() {
    modem.begin();
}

void loop() {
    while (modem.available()) {
        modem.read();
        streaming = !streaming;
    }
    if (streaming) {
        modem.println((long)analogRead(A0));
        delay(200);
    }
}
