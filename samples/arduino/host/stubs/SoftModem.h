// Host stand-in for the arms22 SoftModem library's interface (compile check only).
#ifndef HOST_SOFTMODEM_H
#define HOST_SOFTMODEM_H
#include "Arduino.h"
class SoftModem : public Print {
public:
    void begin() {}
    void end() {}
    int available() { return 0; }
    int read() { return -1; }
    size_t write(uint8_t) { return 1; }
    using Print::write;
};
#endif
