// Carduino motor control: 4-byte packets (control, steering, acceleration, ':') as the
// HM-10 BLE car receives them, here over the audio jack. Build packets with
// `softmodem encode --protocol motor --steer -200 --accel 90 --headlights`.
// Motor driver: PWM on 5 (drive) and 9 (steering), direction on 4 and 8; lights on 12, 13.
// (SoftModem owns pins 3, 6, 7 and Timer2, so PWM stays on Timer0/Timer1 pins.)
#include <SoftModem.h>
#include "modem_framing.h"

SoftModem modem;
MotorParser parser;
const uint8_t drivePwm = 5, driveDir = 4, steerPwm = 9, steerDir = 8, headlightPin = 12, brakePin = 13;
unsigned long lastPacket = 0;

void setup() {
    modem.begin();
    pinMode(driveDir, OUTPUT);
    pinMode(steerDir, OUTPUT);
    pinMode(headlightPin, OUTPUT);
    pinMode(brakePin, OUTPUT);
}

static void drive(const MotorCommand &c) {
    digitalWrite(steerDir, c.steering < 0 ? HIGH : LOW);
    analogWrite(steerPwm, c.steering < 0 ? -c.steering : c.steering);
    digitalWrite(driveDir, c.acceleration < 0 ? HIGH : LOW);
    analogWrite(drivePwm, c.acceleration < 0 ? -c.acceleration : c.acceleration);
    digitalWrite(headlightPin, c.headlights ? HIGH : LOW);
    digitalWrite(brakePin, c.brakeLights ? HIGH : LOW);
}

void loop() {
    while (modem.available()) {
        MotorCommand c;
        if (parser.push((uint8_t)modem.read(), &c)) {
            drive(c);
            lastPacket = millis();
        }
    }
    // Fail safe: stop when the phone goes quiet (the audio link can drop out).
    if (millis() - lastPacket > 1500) {
        MotorCommand stop = {0, 0, false, true};
        drive(stop);
    }
}
