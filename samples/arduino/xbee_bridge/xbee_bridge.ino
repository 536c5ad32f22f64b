// A bridge between the audio jack and an XBee on the hardware serial port (9600 8N1), so
// the phone can configure the radio in AT command mode and then talk through it:
//   softmodem encode --text +++ --silence 1.2        (guard time, "+++", guard time)
//   softmodem encode --protocol xbee-at --at "BD 3" --at "ID 1111" --at "MY 2345" --at "DL 7890" --at WR
// and `softmodem decode --protocol xbee-reply` shows the radio's "OK" replies.
//
// The radio side is 78 times faster than the audio side. The Arduino core's serial buffer
// holds 64 bytes, which the radio fills in 67 ms, while one 31-byte burst takes 250 ms to
// play: a bridge that wrote whole bursts lost the tail of any radio burst longer than about
// 94 bytes. So this one writes a byte at a time (SoftModem keeps the carrier between
// writes, so the phone still hears one burst) and, between bytes, moves what the radio sent
// into a queue of its own. The queue holds QUEUE_BYTES: with the serial buffer, a radio
// burst of about 600 bytes arrives whole (500 are tested in emulation); a radio that keeps
// talking longer sends 9 times faster than the jack can carry, and what does not fit is
// dropped.
#include <SoftModem.h>
#include "modem_framing.h"

SoftModem modem;

const uint16_t QUEUE_BYTES = 640;   // of the ATmega328P's 2048 bytes of RAM
uint8_t queue[QUEUE_BYTES];
uint16_t queueHead = 0;             // the oldest byte
uint16_t queued = 0;
unsigned long lastRadioByte = 0;

// Moves what the radio sent from the serial buffer into the queue.
void pullRadio() {
    while (Serial.available() && queued < QUEUE_BYTES) {
        queue[(queueHead + queued) % QUEUE_BYTES] = (uint8_t)Serial.read();
        queued++;
        lastRadioByte = millis();
    }
}

void setup() {
    Serial.begin(9600);
    modem.begin();
}

void loop() {
    while (modem.available()) Serial.write((uint8_t)modem.read());
    pullRadio();
    // Send when a burst's worth is queued (the far end's receive buffer) or the radio
    // paused for 20 ms (the end of a reply); keep pulling the radio between bytes.
    if (queued >= LINK_RECEIVE_BUFFER || (queued > 0 && millis() - lastRadioByte > 20)) {
        uint16_t burst = queued < (uint16_t)LINK_RECEIVE_BUFFER ? queued : (uint16_t)LINK_RECEIVE_BUFFER;
        while (burst--) {
            modem.write(queue[queueHead]);
            queueHead = (queueHead + 1) % QUEUE_BYTES;
            queued--;
            pullRadio();
        }
    }
}
