// Links a sketch on the host: runs setup() and a few loop() passes against the stubs.
#include "Arduino.h"
HardwareSerial Serial;
void setup();
void loop();
int main() {
    setup();
    for (int i = 0; i < 10; i++) loop();
    return 0;
}
