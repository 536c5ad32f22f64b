// Minimal stand-in for the Arduino core so the sketches compile on the host (syntax and
// type check only; the test never runs them). Not a simulator.
#ifndef HOST_ARDUINO_H
#define HOST_ARDUINO_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#define HIGH 1
#define LOW 0
#define INPUT 0
#define OUTPUT 1
#define A0 14
#define A1 15
typedef bool boolean;
typedef uint8_t byte;
inline void pinMode(uint8_t, uint8_t) {}
inline void digitalWrite(uint8_t, uint8_t) {}
inline int digitalRead(uint8_t) { return 0; }
inline int analogRead(uint8_t) { return 512; }
inline void analogWrite(uint8_t, int) {}
inline unsigned long millis() { static unsigned long t = 0; return t += 7; }
inline void delay(unsigned long) {}
inline long map(long x, long a, long b, long c, long d) { return (x - a) * (d - c) / (b - a) + c; }
inline long constrain(long x, long a, long b) { return x < a ? a : (x > b ? b : x); }
class Print {
public:
    virtual ~Print() {}
    virtual size_t write(uint8_t) = 0;
    size_t write(const uint8_t *b, size_t n) { for (size_t i = 0; i < n; i++) write(b[i]); return n; }
    size_t print(const char *s) { return write((const uint8_t *)s, strlen(s)); }
    size_t print(long v) { char b[16]; snprintf(b, sizeof b, "%ld", v); return print(b); }
    size_t println(const char *s) { return print(s) + print("\r\n"); }
    size_t println(long v) { return print(v) + print("\r\n"); }
};
class HardwareSerial : public Print {
public:
    void begin(unsigned long) {}
    int available() { return 0; }
    int read() { return -1; }
    size_t write(uint8_t) { return 1; }
    using Print::write;
};
extern HardwareSerial Serial;
#endif
